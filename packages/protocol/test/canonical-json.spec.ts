import { CanonicalJsonError, MAX_JSON_DEPTH, canonicalizeJson } from '../src/index.js';

function refusal(text: string): CanonicalJsonError {
  try {
    canonicalizeJson(text);
  } catch (error) {
    if (error instanceof CanonicalJsonError) return error;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(text)} to be refused`);
}

describe('canonicalizeJson', () => {
  it('writes no body as {}', () => {
    expect(canonicalizeJson(undefined)).toBe('{}');
    expect(canonicalizeJson('')).toBe('{}');
  });

  it('keeps the transmitted key order, integer-like keys included', () => {
    const body = '{"10":"a","2":"b","x":{"1":true,"0":false}}';
    expect(canonicalizeJson(body)).toBe(body);
    // What the naive path would sign instead:
    expect(JSON.stringify(JSON.parse(body))).toBe('{"2":"b","10":"a","x":{"0":false,"1":true}}');
  });

  it('drops whitespace outside strings and keeps it inside', () => {
    expect(canonicalizeJson(' {\n\t"a b" : [ 1 , 2 ] ,\r\n "c":" x "\n} ')).toBe('{"a b":[1,2],"c":" x "}');
  });

  it.each([
    ['55.50', '55.5'],
    ['55000.00', '55000'],
    ['1E2', '100'],
    ['1e+2', '100'],
    ['-0', '0'],
    ['-0.0', '0'],
    ['0.0', '0'],
    ['0e999999999999999999999', '0'],
    ['1e21', '1e+21'],
    ['1e-7', '1e-7'],
    ['0.0000001', '1e-7'],
    ['0.000001', '0.000001'],
    ['123456789012345680000', '123456789012345680000'],
    ['9007199254740992', '9007199254740992'],
    ['-9007199254740994.000', '-9007199254740994'],
    ['123456789012345', '123456789012345'],
    ['-123456789012345', '-123456789012345'],
    ['1.7976931348623157e308', '1.7976931348623157e+308'],
    ['5e-324', '5e-324'],
    ['0.1', '0.1'],
    ['100e-2', '1'],
    ['1230000e-20', '1.23e-14'],
  ])('writes the number %s as %s, like String(Number(x)), the same value', (literal, expected) => {
    expect(canonicalizeJson(`{"n":${literal}}`)).toBe(`{"n":${expected}}`);
    expect(canonicalizeJson(`[${literal}]`)).toBe(`[${expected}]`);
    expect(canonicalizeJson(literal)).toBe(expected);
  });

  it.each([
    ['9007199254740993', '9007199254740992'],
    ['-9007199254740993', '-9007199254740992'],
    ['12345678901234567891', '12345678901234567000'],
    ['123456789012345678901', '123456789012345680000'],
    ['999999999999999999999', '1e+21'],
    ['0.1000000000000000055511151231257827', '0.1'],
    ['1.0000000000000001', '1'],
    ['1e400', 'null'],
    ['-1e400', 'null'],
    ['1.7976931348623159e308', 'null'],
    ['1e-400', '0'],
    ['-1e-400', '0'],
  ])('refuses the number %s, signed as %s: another value', (literal, signedAs) => {
    const error = refusal(`{"order":{"legs":[1,{"quantity":${literal}}]}}`);
    expect(error.reason).toBe('ambiguous_number');
    expect(error.path).toEqual(['order', 'legs', 1, 'quantity']);
    expect(error.position).toBe('{"order":{"legs":[1,{"quantity":'.length);
    expect(error.message).toBe(
      `Refused JSON: $.order.legs[1].quantity: the number ${literal} would be signed as ${signedAs}, another ` +
        'number; every number must keep its exact value when written as String(Number(x)) at position 32',
    );
    // Asked to, it writes String(Number(x)) as before.
    expect(canonicalizeJson(literal, { ambiguousNumbers: 'rewrite' })).toBe(signedAs);
    expect(canonicalizeJson(`[ ${literal} ]`, { ambiguousNumbers: 'rewrite' })).toBe(`[${signedAs}]`);
  });

  it('names the path of a refused number at the top, in an array and under an odd key', () => {
    expect(refusal('9007199254740993').path).toEqual([]);
    expect(refusal('9007199254740993').message).toContain('Refused JSON: $: the number');
    expect(refusal('[0, 1, 9007199254740993]').message).toContain('$[2]: the number');
    expect(refusal('{"a b":{"\u0078":[1e400]}}').message).toContain('$["a b"].x[0]: the number 1e400');
    expect(refusal('{"a b":{"\u0078":[1e400]}}').path).toEqual(['a b', 'x', 0]);
  });

  it('refuses the first ambiguous number and keeps checking the JSON before it', () => {
    expect(refusal('{"a":tru,"b":1e400}').reason).toBe('invalid_json');
    expect(refusal('{"a":1e400,"b":tru}').reason).toBe('ambiguous_number');
  });

  it.each([
    ['"a\\/b"', '"a/b"'],
    ['"\\u00e9"', '"é"'],
    ['"\\u00E9t\\u00e9"', '"été"'],
    ['"\\u001f"', '"\\u001f"'],
    ['"\\u001F"', '"\\u001f"'],
    ['"\\b\\f\\n\\r\\t"', '"\\b\\f\\n\\r\\t"'],
    ['"\\u0008"', '"\\b"'],
    ['"\\"\\\\"', '"\\"\\\\"'],
    ['"\\ud83d\\ude00"', '"😀"'],
    ['"😀"', '"😀"'],
    ['"\\uD800"', '"\\ud800"'],
    ['"\\u2028"', '"\u2028"'],
    ['"\\u007f"', '"\u007f"'],
  ])('escapes the string %s as JSON.stringify does: %s', (literal, expected) => {
    expect(canonicalizeJson(literal)).toBe(expected);
    expect(expected).toBe(JSON.stringify(JSON.parse(literal)));
  });

  it('escapes a raw lone surrogate as JSON.stringify does', () => {
    expect(canonicalizeJson('"a\ud800b"')).toBe('"a\\ud800b"');
    expect(canonicalizeJson('"\udc00"')).toBe('"\\udc00"');
  });

  it('returns a body that is already canonical unchanged', () => {
    const body = '{"orgUserId":"u-1","kyc":true,"tnc":false,"n":null,"list":[1,-2,"x",{}],"o":{}}';
    expect(canonicalizeJson(body)).toBe(body);
  });

  it.each([
    ['{', 'end of text'],
    ['{"a":1,}', 'expected a string key'],
    ['[1,]', 'unexpected "]"'],
    ["{'a':1}", 'expected a string key'],
    ['{"a" 1}', "expected ':'"],
    ['{"a":1 "b":2}', "expected ',' or '}'"],
    ['[1 2]', "expected ',' or ']'"],
    ['01', 'unexpected data after the JSON value'],
    ['1.', "expected a digit after '.'"],
    ['.5', 'unexpected "."'],
    ['1e', 'expected a digit in the exponent'],
    ['-', 'expected a digit after -'],
    ['+1', 'unexpected "+"'],
    ['NaN', 'unexpected "N"'],
    ['Infinity', 'unexpected "I"'],
    ['tru', 'unexpected "t"'],
    ['nul', 'unexpected "n"'],
    ['"abc', 'unterminated string'],
    ['"a\nb"', 'control character U+000A must be escaped'],
    ['"\\x41"', 'invalid escape sequence'],
    ['"\\u12"', '\\u must be followed by four hex digits'],
    ['"\\u12G4"', '\\u must be followed by four hex digits'],
    ['{} {}', 'unexpected data after the JSON value'],
    ['\ufeff{}', 'unexpected'],
    [' ', 'end of text'],
    ['{"a":1}x', 'unexpected data after the JSON value'],
  ])('refuses %j as invalid JSON (%s)', (text, detail) => {
    const error = refusal(text);
    expect(error.reason).toBe('invalid_json');
    expect(error.message).toContain(detail);
    expect(() => JSON.parse(text) as unknown).toThrow(SyntaxError);
  });

  it('names the position of the problem', () => {
    const error = refusal('{"a":1,"b":tru}');
    expect(error.position).toBe(11);
    expect(error.message).toBe('Invalid JSON: unexpected "t" at position 11');
  });

  it.each([
    ['{"a":1,"a":2}', 'a', 7],
    ['{"a":1,"\\u0061":2}', 'a', 7],
    ['{"x":{"k":1,"k":1}}', 'k', 12],
    ['[{"a":1},{"b":1,"b":2}]', 'b', 16],
    ['{"10":1,"2":2,"10":3}', '10', 14],
  ])('refuses the duplicate key in %s', (text, key, position) => {
    const error = refusal(text);
    expect(error.reason).toBe('duplicate_key');
    expect(error.position).toBe(position);
    expect(error.message).toBe(`Refused JSON: duplicate key ${JSON.stringify(key)} at position ${position}`);
  });

  it('allows the same key in different objects', () => {
    expect(canonicalizeJson('{"a":{"a":1},"b":{"a":2}}')).toBe('{"a":{"a":1},"b":{"a":2}}');
  });

  it(`accepts ${MAX_JSON_DEPTH} levels of nesting and refuses one more`, () => {
    const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
    expect(canonicalizeJson(nested(MAX_JSON_DEPTH))).toBe(nested(MAX_JSON_DEPTH));
    expect(refusal(nested(MAX_JSON_DEPTH + 1)).reason).toBe('too_deep');
    expect(refusal('{"a":'.repeat(100_000)).reason).toBe('too_deep');
  });
});
