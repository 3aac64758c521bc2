import {
  ALL_SCOPES,
  ScopeError,
  formatScopes,
  grantsScope,
  grantsScopes,
  parseScopes,
} from '../src/index.js';

describe('scopes', () => {
  it('parses the space-separated list of the API guide, dropping duplicates and extra spaces', () => {
    expect(parseScopes('BASE_MODULE:WRITE MANAGE_USERS:WRITE')).toEqual([
      'BASE_MODULE:WRITE',
      'MANAGE_USERS:WRITE',
    ]);
    expect(parseScopes('  BASE_MODULE:READ  BASE_MODULE:READ ')).toEqual(['BASE_MODULE:READ']);
    expect(parseScopes('')).toEqual([]);
  });

  it.each([
    'BASE_MODULE',
    'BASE_MODULE:ADMIN',
    'base_module:READ',
    'OTHER:READ',
    'BASE_MODULE:READ,MANAGE_USERS:READ',
  ])('refuses %j naming it and the rule', (text) => {
    expect(() => parseScopes(text)).toThrow(ScopeError);
    expect(() => parseScopes(text)).toThrow(/MODULE:PERMISSION/);
    expect(() => parseScopes(`BASE_MODULE:READ ${text}`)).toThrow(JSON.stringify(text.split(' ')[0]));
  });

  it('formats back to the wire form', () => {
    const text = 'BASE_MODULE:READWRITE MANAGE_USERS:READ';
    expect(formatScopes(parseScopes(text))).toBe(text);
  });

  it('knows every module and permission', () => {
    expect(ALL_SCOPES).toHaveLength(6);
    expect(ALL_SCOPES).toContain('MANAGE_USERS:READWRITE');
  });

  it('lets READWRITE grant READ and WRITE, and nothing cross modules', () => {
    expect(grantsScope(['BASE_MODULE:READWRITE'], 'BASE_MODULE:READ')).toBe(true);
    expect(grantsScope(['BASE_MODULE:READWRITE'], 'BASE_MODULE:WRITE')).toBe(true);
    expect(grantsScope(['BASE_MODULE:READWRITE'], 'MANAGE_USERS:READ')).toBe(false);
    expect(grantsScope(['BASE_MODULE:READ'], 'BASE_MODULE:WRITE')).toBe(false);
    expect(grantsScope(['BASE_MODULE:WRITE'], 'BASE_MODULE:READ')).toBe(false);
    expect(grantsScope(['BASE_MODULE:WRITE'], 'BASE_MODULE:WRITE')).toBe(true);
  });

  it('needs both READ and WRITE for READWRITE', () => {
    expect(grantsScope(['BASE_MODULE:READ'], 'BASE_MODULE:READWRITE')).toBe(false);
    expect(grantsScope(['BASE_MODULE:READ', 'BASE_MODULE:WRITE'], 'BASE_MODULE:READWRITE')).toBe(true);
    expect(grantsScope(['BASE_MODULE:READWRITE'], 'BASE_MODULE:READWRITE')).toBe(true);
  });

  it('checks a requested list against the granted one (the failing request of docs/api-guide.md#oauth-client-credentials)', () => {
    const granted = parseScopes('BASE_MODULE:READWRITE');
    expect(grantsScopes(granted, parseScopes('BASE_MODULE:WRITE MANAGE_USERS:WRITE'))).toBe(false);
    expect(grantsScopes(granted, parseScopes('BASE_MODULE:READ BASE_MODULE:WRITE'))).toBe(true);
    expect(grantsScopes(granted, [])).toBe(true);
  });
});
