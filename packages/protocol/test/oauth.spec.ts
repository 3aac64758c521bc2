import { EventParseError, oauthTokenData, parseOAuthTokenData } from '../src/index.js';

describe('OAuth token data (docs/api-guide.md#oauth-client-credentials)', () => {
  it('builds the four fields in the API guide order', () => {
    const data = oauthTokenData('tok', 3600, ['BASE_MODULE:READWRITE', 'MANAGE_USERS:WRITE']);
    expect(JSON.stringify(data)).toBe(
      '{"access_token":"tok","expires_in":3600,"token_type":"Bearer","scope":"BASE_MODULE:READWRITE MANAGE_USERS:WRITE"}',
    );
  });

  it("parses the API guide's sample response data (expires_in 300000)", () => {
    const sample = {
      access_token: 'abc',
      expires_in: 300000,
      token_type: 'Bearer',
      scope: 'BASE_MODULE:WRITE',
    };
    expect(parseOAuthTokenData(sample)).toEqual(sample);
  });

  it.each([
    [{ expires_in: 1, token_type: 'Bearer', scope: '' }, 'access_token: missing'],
    [{ access_token: 'a', expires_in: 1.5, token_type: 'Bearer', scope: '' }, 'expires_in'],
    [{ access_token: 'a', expires_in: 0, token_type: 'Bearer', scope: '' }, 'expires_in'],
    [{ access_token: 'a', expires_in: 1, token_type: 'MAC', scope: '' }, 'token_type'],
    [
      { access_token: 'a', expires_in: 1, token_type: 'Bearer', scope: 'NOPE:READ' },
      'scope: Unknown scope "NOPE:READ"',
    ],
  ])('refuses %j naming the field', (value, message) => {
    expect(() => parseOAuthTokenData(value)).toThrow(EventParseError);
    expect(() => parseOAuthTokenData(value)).toThrow(message);
  });
});
