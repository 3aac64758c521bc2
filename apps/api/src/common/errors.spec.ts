import { AppError, ERRORS, errorMessage, InsufficientScopeError, rateLimited, statusText } from './errors.js';

describe('errors', () => {
  it('starts every message with its code’s text, written once in ERRORS', () => {
    const error = new AppError('bad_request', 'orgUserId must be a string');
    expect(error.status).toBe(400);
    expect(error.message).toBe('Bad Request: orgUserId must be a string');
    expect(new AppError('conflict', 'already exists').message).toBe('Conflict: already exists');
  });

  it('gives the token endpoint’s refusal exactly as docs/api-guide.md#oauth-client-credentials shows it: 401 Forbidden', () => {
    const refused = new AppError('token_refused');
    expect(refused.status).toBe(401);
    expect(refused.message).toBe('Forbidden');
    expect(new AppError('forbidden', 'webhooks are ENTERPRISE only').status).toBe(403);
  });

  it('names statuses Nest raised itself by the first code with that status', () => {
    expect(statusText(401)).toBe('Unauthorized');
    expect(statusText(405)).toBe('Method Not Allowed');
    expect(statusText(418)).toBe('Error');
  });

  it('does not repeat the text when the detail is the text', () => {
    expect(errorMessage('Not Found', 'Not Found')).toBe('Not Found');
    expect(errorMessage('Not Found')).toBe('Not Found');
  });

  it('carries Retry-After on a rate limit', () => {
    const error = rateLimited(7);
    expect(error.message).toBe('Too Many Requests: retry in 7 s');
    expect(error.headers).toEqual({ 'retry-after': '7' });
  });

  it('keeps statuses distinct per code where the API guide needs them', () => {
    const statuses = Object.entries(ERRORS).map(([code, { status }]) => `${code}:${status}`);
    expect(statuses).toContain('unauthenticated:401');
    expect(new InsufficientScopeError('MANAGE_USERS:WRITE').required).toBe('MANAGE_USERS:WRITE');
  });
});
