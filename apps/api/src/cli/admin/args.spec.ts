import { amountArg, limitMapArg, parseCommandLine, plainDecimal, scopesFlag } from './args.js';
import { UsageError } from './errors.js';

describe('plainDecimal', () => {
  it.each([
    [0, '0'],
    [1000, '1000'],
    [0.0015, '0.0015'],
    [1e-7, '0.0000001'],
    [1.5e-7, '0.00000015'],
    [1e21, '1000000000000000000000'],
    [1.25e22, '12500000000000000000000'],
  ])('writes %p as %s', (value, text) => expect(plainDecimal(value)).toBe(text));
});

describe('amountArg', () => {
  it.each([
    ['1000', 1000],
    ['0.0015', 0.0015],
    ['007.50', 7.5],
    ['0.00000001', '0.00000001'],
    ['900.12345678', 900.12345678],
    ['-5', -5],
    ['-0.25', -0.25],
    ['123456789012345', 123456789012345],
  ])('reads %s as %p', (text, value) => expect(JSON.stringify(amountArg('price', text))).toBe(String(value)));

  it.each([
    ['12345678901234567.5', '12345678901234567.5'],
    ['-12345678901234567', '-12345678901234567'],
    ['123456789012345678901234567890.12345670', '123456789012345678901234567890.1234567'],
    ['0.000', '0'],
  ])('sends %s with exactly its digits: %s', (text, json) => {
    expect(JSON.stringify({ price: amountArg('price', text) })).toBe(`{"price":${json}}`);
  });

  it.each([
    ['', 'price must be a decimal number'],
    ['1e5', 'price must be a decimal number'],
    ['+1', 'price must be a decimal number'],
    ['1.', 'price must be a decimal number'],
    ['.5', 'price must be a decimal number'],
    ['1,5', 'price must be a decimal number'],
    ['--5', 'price must be a decimal number'],
    ['1.123456789', 'price must have at most 8 decimals'],
    ['-1.123456789', 'price must have at most 8 decimals'],
    ['1234567890123456789012345678901', 'price must have at most 30 digits before the point'],
  ])('refuses %j: %s', (text, message) => {
    expect(() => amountArg('price', text)).toThrow(UsageError);
    expect(() => amountArg('price', text)).toThrow(message);
  });
});

describe('limitMapArg', () => {
  it('reads CODE=amount pairs, spaces around entries allowed', () => {
    expect(JSON.stringify(limitMapArg('quote-limit', 'EUR=1000, USD=900.5'))).toBe(
      '{"EUR":1000,"USD":900.5}',
    );
  });
  it('reads "" as the empty map', () => expect(limitMapArg('quote-limit', '')).toEqual({}));
  it.each([
    ['EUR', 'takes CODE=amount pairs'],
    ['=5', 'takes CODE=amount pairs'],
    ['EUR=1=2', 'takes CODE=amount pairs'],
    ['EUR=1,EUR=2', '--quote-limit names EUR twice'],
    ['EUR=1.123456789', '--quote-limit EUR must have at most 8 decimals'],
  ])('refuses %j: %s', (text, message) => expect(() => limitMapArg('quote-limit', text)).toThrow(message));
});

describe('parseCommandLine', () => {
  it('keeps what follows -- as positionals, dashes and all', () => {
    expect(parseCommandLine(['prices', 'set', '--json', 'BTC_EUR', '--', '-5'])).toEqual({
      values: { json: true },
      positionals: ['prices', 'set', 'BTC_EUR', '-5'],
    });
  });
  it('takes a value starting with a dash after =', () => {
    expect(parseCommandLine(['notices', 'publish', '--message=-dash']).values.message).toBe('-dash');
  });
  it("refuses an unknown flag, and a dash value without =, with node's hint", () => {
    expect(() => parseCommandLine(['--bogus'])).toThrow(UsageError);
    expect(() => parseCommandLine(['--message', '-dash'])).toThrow("use '--message=-XYZ'");
  });
  it('collects a repeated multiple flag', () => {
    expect(
      parseCommandLine(['--support-email', 'a@x.example', '--support-email', 'b@x.example']).values,
    ).toEqual({ 'support-email': ['a@x.example', 'b@x.example'] });
  });
});

describe('scopesFlag', () => {
  it('answers the scopes as given', () =>
    expect(scopesFlag({ scopes: 'BASE_MODULE:READ MANAGE_USERS:WRITE' })).toBe(
      'BASE_MODULE:READ MANAGE_USERS:WRITE',
    ));
  it.each([
    [{}, 'missing --scopes'],
    [{ scopes: '' }, '--scopes must name at least one'],
    [{ scopes: 'NOPE:READ' }, '--scopes:'],
  ])('refuses %j', (values, message) => expect(() => scopesFlag(values)).toThrow(message));
});
