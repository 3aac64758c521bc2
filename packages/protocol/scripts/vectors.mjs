#!/usr/bin/env node
// Writes the signing test vectors in ../vectors/ from the hand-written expectations below.
//
//   node scripts/vectors.mjs           write (refresh) vectors/request-signing.json and webhook-signing.json
//   node scripts/vectors.mjs --check   fail (exit 1) when the files on disk differ from what this script writes
//
// Independence: every canonicalBody and canonicalQuery below was written by hand from the rules of
// DESIGN.md section 5 (spec 5.1 and 5.3). This script never imports @svc/protocol. It only assembles the
// signed message from those hand-written parts and computes the HMAC with plain node:crypto. Before
// writing, it cross-checks the hand-written values against the JavaScript engine where the engine can
// judge them (JSON.parse/JSON.stringify, URLSearchParams), to catch typos; it never derives them.
import { createHmac } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, URLSearchParams } from 'node:url';

const R = String.raw;
const DEL = '\u007f';

const SECRET = 'sk_test_4f3c2b1a0e9d8c7b6a5f4e3d2c1b0a99';
const SECRET_B = 'api-secret-Zq8uV2nW5xT1yR7k';
const T0 = '1735689600'; // 2025-01-01T00:00:00Z
const T1 = '1767225600'; // 2026-01-01T00:00:00Z
const USER_BODY = '{"orgUserId":"u-1","kyc":true,"tnc":true}';

/** Request vectors. canonicalBody / canonicalQuery are hand-written expectations. */
const requestVectors = [
  // --- spec samples -------------------------------------------------------------------------------
  {
    name: 'spec: create user POST /api/v1/user/',
    secret: SECRET,
    path: '/api/v1/user/',
    query: '',
    body: USER_BODY,
    timestamp: T0,
    canonicalBody: USER_BODY,
    canonicalQuery: '{}',
  },
  {
    // Spec 5.1 item 8: the published samples sign one hour ahead of the clock. The test also verifies
    // this one with the clock 3600 s behind the timestamp (inside the default 3900 s ahead window).
    name: 'spec: timestamp one hour ahead',
    secret: SECRET,
    path: '/api/v1/user/',
    query: '',
    body: USER_BODY,
    timestamp: '1735693200',
    canonicalBody: USER_BODY,
    canonicalQuery: '{}',
  },
  {
    name: 'spec: GET /api/v1/org/ without body or query',
    secret: SECRET,
    path: '/api/v1/org/',
    query: '',
    body: '',
    timestamp: T0,
    canonicalBody: '{}',
    canonicalQuery: '{}',
  },
  {
    name: 'GET /api/v1/org/ with a query and no body',
    secret: SECRET,
    path: '/api/v1/org/',
    query: 'include=policy&include=webhook&limit=10',
    body: '',
    timestamp: T0,
    canonicalBody: '{}',
    canonicalQuery: '{"include":["policy","webhook"],"limit":"10"}',
  },
  {
    name: 'empty object body on /api/v1/oauth/test (no trailing slash)',
    secret: SECRET,
    path: '/api/v1/oauth/test',
    query: '',
    body: '{}',
    timestamp: T0,
    canonicalBody: '{}',
    canonicalQuery: '{}',
  },
  {
    name: 'order with decimal amounts (spec 5.1 item 7: 55000.00 -> 55000, 55.50 -> 55.5)',
    secret: SECRET,
    path: '/api/v1/orders/',
    query: '',
    body: '{"clientOrderId":"5a8f2c9e-3b1d-4e7a-9c2f-1d0e8b7a6c54","orgUserId":"u-1","symbol":"BTC_USD","side":"BUY","type":"MARKET","quoteQuantity":55000.00,"price":55.50}',
    timestamp: T0,
    canonicalBody:
      '{"clientOrderId":"5a8f2c9e-3b1d-4e7a-9c2f-1d0e8b7a6c54","orgUserId":"u-1","symbol":"BTC_USD","side":"BUY","type":"MARKET","quoteQuantity":55000,"price":55.5}',
    canonicalQuery: '{}',
  },

  // --- key order ----------------------------------------------------------------------------------
  {
    name: 'integer-like keys keep transmitted order',
    secret: SECRET,
    path: '/api/v1/user/',
    query: '',
    body: '{"10":1,"2":2,"a":3}',
    timestamp: T0,
    canonicalBody: '{"10":1,"2":2,"a":3}',
    canonicalQuery: '{}',
  },
  {
    name: 'integer-like, negative, zero-padded and 2^32-range keys keep transmitted order',
    secret: SECRET,
    path: '/api/v1/user/',
    query: '',
    body: '{"b":1,"a":2,"1":3,"0":4,"-1":5,"01":6,"4294967295":7,"4294967294":8}',
    timestamp: T0,
    canonicalBody: '{"b":1,"a":2,"1":3,"0":4,"-1":5,"01":6,"4294967295":7,"4294967294":8}',
    canonicalQuery: '{}',
  },
  {
    name: 'nested objects keep their key order at every level',
    secret: SECRET,
    path: '/api/v1/user/',
    query: '',
    body: '{"user":{"orgUserId":"u-2","profile":{"name":"Ann","tags":{"z":1,"a":2,"3":3,"1":1}}},"meta":{}}',
    timestamp: T0,
    canonicalBody:
      '{"user":{"orgUserId":"u-2","profile":{"name":"Ann","tags":{"z":1,"a":2,"3":3,"1":1}}},"meta":{}}',
    canonicalQuery: '{}',
  },
  {
    name: 'arrays of mixed values and nested empty containers',
    secret: SECRET,
    path: '/api/v1/user/',
    query: '',
    body: '{"items":[1,"two",true,false,null,{"k":[]},[[],[{}]]],"empty":[]}',
    timestamp: T0,
    canonicalBody: '{"items":[1,"two",true,false,null,{"k":[]},[[],[{}]]],"empty":[]}',
    canonicalQuery: '{}',
  },
  {
    name: 'same key in different objects is not a duplicate',
    secret: SECRET,
    path: '/api/v1/user/',
    query: '',
    body: '{"a":{"a":1},"b":[{"a":1},{"a":2}],"c":{"b":{"a":0}}}',
    timestamp: T0,
    canonicalBody: '{"a":{"a":1},"b":[{"a":1},{"a":2}],"c":{"b":{"a":0}}}',
    canonicalQuery: '{}',
  },
  {
    name: '__proto__ and Object.prototype names are ordinary keys',
    secret: SECRET,
    path: '/api/v1/user/',
    query: '',
    body: '{"__proto__":{"polluted":true},"constructor":"c","toString":1,"hasOwnProperty":null}',
    timestamp: T0,
    canonicalBody: '{"__proto__":{"polluted":true},"constructor":"c","toString":1,"hasOwnProperty":null}',
    canonicalQuery: '{}',
  },
  {
    name: 'keys that look alike but differ (NFC vs NFD, case) are distinct',
    secret: SECRET,
    path: '/api/v1/user/',
    query: '',
    body: R`{"\u00e9":1,"e\u0301":2,"A":3,"a":4}`,
    timestamp: T0,
    canonicalBody: '{"\u00e9":1,"e\u0301":2,"A":3,"a":4}',
    canonicalQuery: '{}',
  },
  {
    name: 'ten levels of nesting',
    secret: SECRET,
    path: '/api/v1/user/',
    query: '',
    body: '{"a":{"b":{"c":{"d":{"e":{"f":{"g":{"h":{"i":{"j":[1.50]}}}}}}}}}}',
    timestamp: T0,
    canonicalBody: '{"a":{"b":{"c":{"d":{"e":{"f":{"g":{"h":{"i":{"j":[1.5]}}}}}}}}}}',
    canonicalQuery: '{}',
  },

  // --- numbers ------------------------------------------------------------------------------------
  {
    name: 'trailing zero decimals dropped',
    secret: SECRET,
    path: '/api/v1/orders/',
    query: '',
    body: '{"price":55.50,"quoteQuantity":55000.00,"qty":1.0,"zero":0.0,"small":0.10,"int":7}',
    timestamp: T0,
    canonicalBody: '{"price":55.5,"quoteQuantity":55000,"qty":1,"zero":0,"small":0.1,"int":7}',
    canonicalQuery: '{}',
  },
  {
    name: 'exponent forms written out',
    secret: SECRET,
    path: '/api/v1/orders/',
    query: '',
    body: '{"a":1E2,"b":1e2,"c":1E+2,"d":1e-2,"e":123.456e5,"f":100e-2,"g":0e10,"h":-2.5E-3}',
    timestamp: T0,
    canonicalBody: '{"a":100,"b":100,"c":100,"d":0.01,"e":12345600,"f":1,"g":0,"h":-0.0025}',
    canonicalQuery: '{}',
  },
  {
    name: 'negative zero becomes 0',
    secret: SECRET,
    path: '/api/v1/orders/',
    query: '',
    body: '{"a":-0,"b":-0.0,"c":-0e5,"d":[-0],"e":0}',
    timestamp: T0,
    canonicalBody: '{"a":0,"b":0,"c":0,"d":[0],"e":0}',
    canonicalQuery: '{}',
  },
  {
    name: 'large and small magnitudes use exponent form as String(Number()) does',
    secret: SECRET,
    path: '/api/v1/orders/',
    query: '',
    body: '{"a":1e21,"b":1e20,"c":999999999999999999999,"d":1e-7,"e":0.0000001,"f":0.000001,"g":1.5e300,"h":1E-7,"i":123e-20}',
    timestamp: T0,
    canonicalBody:
      '{"a":1e+21,"b":100000000000000000000,"c":1e+21,"d":1e-7,"e":1e-7,"f":0.000001,"g":1.5e+300,"h":1e-7,"i":1.23e-18}',
    canonicalQuery: '{}',
  },
  {
    name: 'integers beyond 2^53 round to the nearest double',
    secret: SECRET,
    path: '/api/v1/orders/',
    query: '',
    body: '{"a":9007199254740993,"b":12345678901234567890,"c":-9007199254740993,"d":9007199254740992,"e":123456789012345678901234}',
    timestamp: T0,
    canonicalBody:
      '{"a":9007199254740992,"b":12345678901234567000,"c":-9007199254740992,"d":9007199254740992,"e":1.2345678901234569e+23}',
    canonicalQuery: '{}',
  },
  {
    name: 'overflow to Infinity is written null, underflow is 0',
    secret: SECRET,
    path: '/api/v1/orders/',
    query: '',
    body: '{"big":1e400,"neg":-1e400,"tiny":1e-400,"negtiny":-1e-400,"max":1.7976931348623157e308,"over":1.7976931348623159e308,"min":5e-324}',
    timestamp: T0,
    canonicalBody:
      '{"big":null,"neg":null,"tiny":0,"negtiny":0,"max":1.7976931348623157e+308,"over":null,"min":5e-324}',
    canonicalQuery: '{}',
  },
  {
    name: 'numbers already canonical, and one that rounds to 1',
    secret: SECRET,
    path: '/api/v1/orders/',
    query: '',
    body: '{"a":0.1,"b":0.30000000000000004,"c":-5,"d":3.14159,"e":1.0000000000000001,"f":100}',
    timestamp: T0,
    canonicalBody: '{"a":0.1,"b":0.30000000000000004,"c":-5,"d":3.14159,"e":1,"f":100}',
    canonicalQuery: '{}',
  },
  {
    name: 'numbers inside nested arrays',
    secret: SECRET,
    path: '/api/v1/orders/',
    query: '',
    body: '{"matrix":[[1.0,2.50],[-0,1E2]],"o":{"p":[55000.00]}}',
    timestamp: T0,
    canonicalBody: '{"matrix":[[1,2.5],[0,100]],"o":{"p":[55000]}}',
    canonicalQuery: '{}',
  },
  {
    name: 'number-like keys and strings are left alone',
    secret: SECRET,
    path: '/api/v1/orders/',
    query: '',
    body: '{"1.0":"55.50","1E2":"-0","x":"1e400"}',
    timestamp: T0,
    canonicalBody: '{"1.0":"55.50","1E2":"-0","x":"1e400"}',
    canonicalQuery: '{}',
  },

  // --- whitespace ---------------------------------------------------------------------------------
  {
    name: 'whitespace (space, tab, CR, LF) between tokens removed, kept inside strings',
    secret: SECRET,
    path: '/api/v1/user/',
    query: '',
    body: ' \r\n{\n  "orgUserId" : "u-3",\r\n\t"kyc":\tfalse ,\n  "tags": [ 1 , 2 ] ,\n  "note": "keep  these   spaces"\n}\n\n',
    timestamp: T0,
    canonicalBody: '{"orgUserId":"u-3","kyc":false,"tags":[1,2],"note":"keep  these   spaces"}',
    canonicalQuery: '{}',
  },
  {
    name: 'pretty-printed body with empty containers',
    secret: SECRET,
    path: '/api/v1/user/',
    query: '',
    body: '{\n  "orgUserId": "u-1",\n  "kyc": true,\n  "tnc": true,\n  "extra": { },\n  "list": [ ]\n}',
    timestamp: T0,
    canonicalBody: '{"orgUserId":"u-1","kyc":true,"tnc":true,"extra":{},"list":[]}',
    canonicalQuery: '{}',
  },

  // --- strings ------------------------------------------------------------------------------------
  {
    name: 'short escapes kept as JSON.stringify writes them',
    secret: SECRET,
    path: '/api/v1/user/',
    query: '',
    body: R`{"s":"line1\nline2\ttab \"q\" back\\slash","c":"\b\f\r"}`,
    timestamp: T0,
    canonicalBody: R`{"s":"line1\nline2\ttab \"q\" back\\slash","c":"\b\f\r"}`,
    canonicalQuery: '{}',
  },
  {
    name: 'escaped forward slash is written unescaped',
    secret: SECRET,
    path: '/api/v1/user/',
    query: '',
    body: R`{"url":"https:\/\/example.com\/a\/b","path":"/already/plain"}`,
    timestamp: T0,
    canonicalBody: '{"url":"https://example.com/a/b","path":"/already/plain"}',
    canonicalQuery: '{}',
  },
  {
    name: 'unicode escapes of printable characters become raw characters',
    secret: SECRET,
    path: '/api/v1/user/',
    query: '',
    body: R`{"name":"J\u00e9r\u00f4me","upper":"\u00C9","ascii":"\u0041\u0062","quote":"\u0022","backslash":"\u005c","slash":"\u002f"}`,
    timestamp: T0,
    canonicalBody: R`{"name":"Jérôme","upper":"É","ascii":"Ab","quote":"\"","backslash":"\\","slash":"/"}`,
    canonicalQuery: '{}',
  },
  {
    name: 'control characters: short escapes where JSON.stringify has them, else lowercase \\u00XX; DEL raw',
    secret: SECRET,
    path: '/api/v1/user/',
    query: '',
    body: R`{"a":"\u0000","b":"\u001F","c":"\u001f","d":"\u0008\u0009\u000A\u000C\u000D","e":"\u007F","f":"\u0001x"}`,
    timestamp: T0,
    canonicalBody: R`{"a":"\u0000","b":"\u001f","c":"\u001f","d":"\b\t\n\f\r","e":"${DEL}","f":"\u0001x"}`,
    canonicalQuery: '{}',
  },
  {
    name: 'raw non-ASCII kept as is',
    secret: SECRET,
    path: '/api/v1/user/',
    query: '',
    body: '{"city":"Zürich","jp":"東京","emoji":"😀👍🏽","rtl":"שלום"}',
    timestamp: T0,
    canonicalBody: '{"city":"Zürich","jp":"東京","emoji":"😀👍🏽","rtl":"שלום"}',
    canonicalQuery: '{}',
  },
  {
    name: 'escaped surrogate pairs become the raw character',
    secret: SECRET,
    path: '/api/v1/user/',
    query: '',
    body: R`{"e":"\ud83d\ude00","E":"\uD83D\uDE00","mixed":"a\uD83D\uDC4Db"}`,
    timestamp: T0,
    canonicalBody: '{"e":"😀","E":"😀","mixed":"a👍b"}',
    canonicalQuery: '{}',
  },
  {
    name: 'lone surrogates stay escaped, in lowercase',
    secret: SECRET,
    path: '/api/v1/user/',
    query: '',
    body: R`{"hi":"\uD800","lo":"\uDE00","rev":"\uDE00\uD83D","two":"\uD800\uD800","then":"\uD83D\u0041"}`,
    timestamp: T0,
    canonicalBody: R`{"hi":"\ud800","lo":"\ude00","rev":"\ude00\ud83d","two":"\ud800\ud800","then":"\ud83dA"}`,
    canonicalQuery: '{}',
  },
  {
    name: 'U+2028, U+2029, U+FEFF and U+00A0 are written raw',
    secret: SECRET,
    path: '/api/v1/user/',
    query: '',
    body: R`{"ls":"\u2028","ps":"\u2029","bom":"\uFEFF","nbsp":"\u00a0"}`,
    timestamp: T0,
    canonicalBody: '{"ls":"\u2028","ps":"\u2029","bom":"\ufeff","nbsp":"\u00a0"}',
    canonicalQuery: '{}',
  },
  {
    name: 'escaped keys are canonicalized like values',
    secret: SECRET,
    path: '/api/v1/user/',
    query: '',
    body: R`{"\u0061":1,"b\/c":2,"\u00e9t\u00e9":3,"tab\there":4}`,
    timestamp: T0,
    canonicalBody: R`{"a":1,"b/c":2,"été":3,"tab\there":4}`,
    canonicalQuery: '{}',
  },

  // --- path ---------------------------------------------------------------------------------------
  {
    name: 'slashes in path and in strings',
    secret: SECRET,
    path: '/api/v1/users/u-1/kyc/documents/',
    query: '',
    body: R`{"docCategory":"ID/PASSPORT","path":"a/b\/c"}`,
    timestamp: T0,
    canonicalBody: '{"docCategory":"ID/PASSPORT","path":"a/b/c"}',
    canonicalQuery: '{}',
  },
  {
    name: 'path kept exactly as sent (percent-encoding untouched, no trailing slash)',
    secret: SECRET,
    path: '/api/v1/users/J%C3%A9r%C3%B4me%2Fx',
    query: '',
    body: '',
    timestamp: T0,
    canonicalBody: '{}',
    canonicalQuery: '{}',
  },

  // --- query --------------------------------------------------------------------------------------
  {
    name: 'query keys keep transmitted order',
    secret: SECRET,
    path: '/api/v1/org/',
    query: 'b=2&a=1',
    body: '',
    timestamp: T0,
    canonicalBody: '{}',
    canonicalQuery: '{"b":"2","a":"1"}',
  },
  {
    name: 'repeated query keys become arrays where the key first appeared',
    secret: SECRET,
    path: '/api/v1/org/',
    query: 'a=1&b=2&a=3&c=4&b=5&a=6',
    body: '',
    timestamp: T0,
    canonicalBody: '{}',
    canonicalQuery: '{"a":["1","3","6"],"b":["2","5"],"c":"4"}',
  },
  {
    name: 'percent-encoded query keys and values are decoded',
    secret: SECRET,
    path: '/api/v1/org/',
    query: 'na%20me=J%C3%A9r%C3%B4me&x=a%26b%3Dc&p=%2Fapi%2Fv1%2F&q=%22hi%22&e=%F0%9F%98%80&lower=%c3%a9',
    body: '',
    timestamp: T0,
    canonicalBody: '{}',
    canonicalQuery: R`{"na me":"Jérôme","x":"a&b=c","p":"/api/v1/","q":"\"hi\"","e":"😀","lower":"é"}`,
  },
  {
    name: 'plus in query decodes to a space, %2B to a plus',
    secret: SECRET,
    path: '/api/v1/org/',
    query: 'q=hello+world&a+b=c+d&plus=%2B1&mixed=1+%2B+1',
    body: '',
    timestamp: T0,
    canonicalBody: '{}',
    canonicalQuery: '{"q":"hello world","a b":"c d","plus":"+1","mixed":"1 + 1"}',
  },
  {
    name: 'query keys without value, empty segments, "=" inside a value, empty key',
    secret: SECRET,
    path: '/api/v1/org/',
    query: 'flag&empty=&a=b=c&&=v&last',
    body: '',
    timestamp: T0,
    canonicalBody: '{}',
    canonicalQuery: '{"flag":"","empty":"","a":"b=c","":"v","last":""}',
  },
  {
    name: 'integer-like query keys keep order; a key repeated in another spelling is the same key',
    secret: SECRET,
    path: '/api/v1/org/',
    query: '10=x&2=y&a%5B%5D=1&a[]=2&10=z',
    body: '',
    timestamp: T0,
    canonicalBody: '{}',
    canonicalQuery: '{"10":["x","z"],"2":"y","a[]":["1","2"]}',
  },
  {
    name: 'repeated key with empty values',
    secret: SECRET,
    path: '/api/v1/org/',
    query: 'a&a=&a=0',
    body: '',
    timestamp: T0,
    canonicalBody: '{}',
    canonicalQuery: '{"a":["","","0"]}',
  },
  {
    name: 'query values with control characters and unreserved punctuation',
    secret: SECRET,
    path: '/api/v1/org/',
    query: "t=%09%0A%00&s=~!*()'&semi=a;b&qm=what?&__proto__=x",
    body: '',
    timestamp: T0,
    canonicalBody: '{}',
    canonicalQuery: R`{"t":"\t\n\u0000","s":"~!*()'","semi":"a;b","qm":"what?","__proto__":"x"}`,
  },
  {
    // URLSearchParams leaves a malformed %-sequence as is and decodes invalid UTF-8 to U+FFFD.
    name: 'malformed percent sequences follow URLSearchParams',
    secret: SECRET,
    path: '/api/v1/org/',
    query: 'a=%&b=%zz&c=%E9&d=100%25',
    body: '',
    timestamp: T0,
    canonicalBody: '{}',
    canonicalQuery: '{"a":"%","b":"%zz","c":"\ufffd","d":"100%"}',
  },
  {
    name: 'query and body together',
    secret: SECRET_B,
    path: '/api/v1/orders/',
    query: 'dryRun=true&tag=a+b',
    body: '{"orgUserId":"u-9","quantity":0.50,"symbol":"ETH_EUR"}',
    timestamp: T1,
    canonicalBody: '{"orgUserId":"u-9","quantity":0.5,"symbol":"ETH_EUR"}',
    canonicalQuery: '{"dryRun":"true","tag":"a b"}',
  },

  // --- secrets and timestamps ---------------------------------------------------------------------
  {
    name: 'secret with non-ASCII characters (HMAC key is its UTF-8 bytes)',
    secret: 'clé-secrète-🔑',
    path: '/api/v1/user/',
    query: '',
    body: USER_BODY,
    timestamp: T1,
    canonicalBody: USER_BODY,
    canonicalQuery: '{}',
  },
  {
    name: 'secret with punctuation and quotes',
    secret: R`p@$$:w0rd/"{}\'%&=+`,
    path: '/api/v1/user/',
    query: '',
    body: USER_BODY,
    timestamp: T1,
    canonicalBody: USER_BODY,
    canonicalQuery: '{}',
  },
  {
    name: 'secret longer than the SHA-256 block (100 characters)',
    secret: '0123456789'.repeat(10),
    path: '/api/v1/user/',
    query: '',
    body: USER_BODY,
    timestamp: '1700000000',
    canonicalBody: USER_BODY,
    canonicalQuery: '{}',
  },
];

/** Bodies canonicalizeJson must refuse. Each invalid_json one is also refused by JSON.parse; each
 * duplicate_key one is otherwise valid JSON (JSON.parse accepts it). */
const invalidBodies = [
  // invalid_json
  ['unterminated object', '{"a":1', 'invalid_json'],
  ['unterminated string', '{"a":"x}', 'invalid_json'],
  ['string ends in an escaped quote', R`{"a":"\"}`, 'invalid_json'],
  ['unclosed array', '{"a":[1,2}', 'invalid_json'],
  ['mismatched brackets', '{"a":[1,2}]', 'invalid_json'],
  ['trailing garbage after the value', '{"a":1}x', 'invalid_json'],
  ['two top-level values', '{"a":1}{"b":2}', 'invalid_json'],
  ['trailing comma in object', '{"a":1,}', 'invalid_json'],
  ['trailing comma in array', '{"a":[1,2,]}', 'invalid_json'],
  ['single-quoted key', "{'a':1}", 'invalid_json'],
  ['single-quoted value', `{"a":'x'}`, 'invalid_json'],
  ['unquoted key', '{a:1}', 'invalid_json'],
  ['numeric key', '{1:1}', 'invalid_json'],
  ['missing colon', '{"a" 1}', 'invalid_json'],
  ['missing comma', '{"a":1 "b":2}', 'invalid_json'],
  ['unescaped control character U+0001 in string', '{"a":"x\u0001y"}', 'invalid_json'],
  ['unescaped newline in string', '{"a":"line\nbreak"}', 'invalid_json'],
  ['unescaped tab in string', '{"a":"x\ty"}', 'invalid_json'],
  ['bad escape \\x', R`{"a":"\x41"}`, 'invalid_json'],
  ["bad escape \\'", R`{"a":"\'"}`, 'invalid_json'],
  ['short unicode escape', R`{"a":"\u12"}`, 'invalid_json'],
  ['non-hex unicode escape', R`{"a":"\u00zz"}`, 'invalid_json'],
  ['NaN', '{"a":NaN}', 'invalid_json'],
  ['Infinity', '{"a":Infinity}', 'invalid_json'],
  ['-Infinity', '{"a":-Infinity}', 'invalid_json'],
  ['leading zero', '{"a":01}', 'invalid_json'],
  ['negative leading zero', '{"a":-01}', 'invalid_json'],
  ['leading zeros before a fraction', '{"a":00.5}', 'invalid_json'],
  ['fraction without digits', '{"a":1.}', 'invalid_json'],
  ['fraction without integer part', '{"a":.5}', 'invalid_json'],
  ['explicit plus sign', '{"a":+1}', 'invalid_json'],
  ['hexadecimal number', '{"a":0x1F}', 'invalid_json'],
  ['exponent without digits', '{"a":1e}', 'invalid_json'],
  ['exponent sign without digits', '{"a":1e+}', 'invalid_json'],
  ['minus alone', '{"a":-}', 'invalid_json'],
  ['block comment', '{"a":1/* c */}', 'invalid_json'],
  ['line comment', '// c\n{"a":1}', 'invalid_json'],
  ['undefined', '{"a":undefined}', 'invalid_json'],
  ['truncated literal', '{"a":tru}', 'invalid_json'],
  ['capitalized literal', '{"a":True}', 'invalid_json'],
  ['non-breaking space is not JSON whitespace', '{\u00a0"a":1}', 'invalid_json'],
  ['form feed is not JSON whitespace', '{\f"a":1}', 'invalid_json'],
  ['whitespace-only body (only the empty string means no body)', ' \n', 'invalid_json'],
  // duplicate_key
  ['duplicate key', '{"a":1,"a":2}', 'duplicate_key'],
  ['duplicate key with the same value', '{"a":1,"a":1}', 'duplicate_key'],
  ['duplicate key spelled with a unicode escape', R`{"a":1,"\u0061":2}`, 'duplicate_key'],
  ['duplicate key spelled with an escaped slash', R`{"a/b":1,"a\/b":2}`, 'duplicate_key'],
  ['duplicate key: raw and escaped non-ASCII', R`{"é":1,"\u00e9":2}`, 'duplicate_key'],
  ['duplicate key: raw emoji and escaped surrogate pair', R`{"😀":1,"\ud83d\ude00":2}`, 'duplicate_key'],
  ['duplicate key in a nested object', '{"x":{"b":1,"c":2,"b":3}}', 'duplicate_key'],
  ['duplicate key in an object inside an array', '{"list":[{"k":1},{"k":2,"k":3}]}', 'duplicate_key'],
  ['duplicate key separated by a nested object', '{"a":1,"b":{"c":1},"a":{"d":2}}', 'duplicate_key'],
  ['duplicate integer-like key', '{"10":1,"2":2,"10":3}', 'duplicate_key'],
  ['duplicate empty key', '{"":1,"":2}', 'duplicate_key'],
  ['duplicate __proto__ key', '{"__proto__":1,"__proto__":2}', 'duplicate_key'],
].map(([name, body, reason]) => ({ name, body, reason }));

const WH_SECRET = 'whsec_7b1e4c9a2f6d8e0b3a5c7d9f1e2b4a6c';
const TS0 = 1735689600000;
const ORDER_EVENT =
  '{"event":{"orgId":1001,"entity":"Orders","numRetries":0,"createdAt":"2025-01-01T00:00:00.000Z","updatedAt":"2025-01-01T00:00:00.000Z"},"data":{"id":42,"orgId":1001,"clientOrderId":"5a8f2c9e-3b1d-4e7a-9c2f-1d0e8b7a6c54","orgUserId":"u-1","symbol":"BTC_USD","side":"BUY","type":"MARKET","quantity":0.01,"quoteQuantity":550,"filled":0.01,"status":"COMPLETED","price":55000,"averagePrice":55000,"estimatedPrice":55000,"baseAveragePrice":55000,"commissionRate":0.001,"vatRate":0.2,"commissionAmount":0.55,"vatAmount":0.11,"netExecutedAmount":549.45,"totalExecutedAmount":550,"commissionAsset":"USD","rejectionReason":null,"createdAt":"2025-01-01T00:00:00.000Z","updatedAt":"2025-01-01T00:00:00.123Z"}}';

/** Webhook vectors: the payload is signed verbatim, so no hand-written canonical part is needed. */
const webhookVectors = [
  {
    name: 'registration challenge',
    secret: WH_SECRET,
    payload: '{"challenge":"b6f1c0e2-9a7d-4c3e-8f15-2d4a6b8c0e91"}',
    timestamp: TS0,
  },
  { name: 'Orders event', secret: WH_SECRET, payload: ORDER_EVENT, timestamp: TS0 + 1234 },
  {
    name: 'Users event KYC_COMPLETED',
    secret: WH_SECRET,
    payload:
      '{"event":{"orgId":1001,"entity":"Users","eventType":"KYC_COMPLETED","numRetries":0,"createdAt":"2025-01-01T10:00:00.000Z","updatedAt":"2025-01-01T10:00:00.000Z"},"data":{"orgUserId":"u-1","orgId":1001,"kyc":true,"tnc":true,"userStatus":"ACTIVE","userType":"CONSUMER"}}',
    timestamp: TS0 + 36000000,
  },
  {
    name: 'Users event KYC_DOC_UPLOADED',
    secret: WH_SECRET,
    payload:
      '{"event":{"orgId":1001,"entity":"Users","eventType":"KYC_DOC_UPLOADED","numRetries":1,"createdAt":"2025-01-01T09:00:00.000Z","updatedAt":"2025-01-01T09:01:00.000Z"},"data":{"orgUserId":"u-1","orgId":1001,"kyc":false,"tnc":true,"userStatus":"PENDING","userType":"CONSUMER","docCategory":"IDENTITY","docSubCategory":"PASSPORT"}}',
    timestamp: TS0 + 32460000,
  },
  {
    name: 'Actions event',
    secret: WH_SECRET,
    payload:
      '{"event":{"orgId":1001,"entity":"Actions","numRetries":0,"createdAt":"2025-01-02T00:00:00.000Z","updatedAt":"2025-01-02T00:00:00.000Z"},"data":{"name":"ASSET_EXPOSURE","newValues":{"BTC":2.5,"ETH":40}}}',
    timestamp: TS0 + 86400000,
  },
  {
    name: 'SystemInformation event with null and empty times',
    secret: WH_SECRET,
    payload:
      '{"event":{"orgId":1001,"entity":"SystemInformation","numRetries":0,"createdAt":"2025-01-03T00:00:00.000Z","updatedAt":"2025-01-03T00:00:00.000Z"},"data":{"event":"MAINTENANCE_ALERTS","entity":"BTC_USD","message":"Maintenance tonight","startTime":null,"endTime":""}}',
    timestamp: TS0 + 172800000,
  },
  {
    name: 'unicode payload (signed as UTF-8)',
    secret: WH_SECRET,
    payload: '{"challenge":"Zürich-東京-😀"}',
    timestamp: TS0,
  },
  {
    name: 'escapes in the payload are kept verbatim, not canonicalized',
    secret: WH_SECRET,
    payload: R`{"message":"a\/b J\u00e9r\u00f4me \ud83d\ude00 line\nnext"}`,
    timestamp: TS0,
  },
  {
    name: 'pretty-printed payload: whitespace and trailing newline kept verbatim',
    secret: WH_SECRET,
    payload: '{\n  "challenge" : "abc",\r\n\t"n": 1\n}\n',
    timestamp: TS0,
  },
  {
    name: 'numbers and key order in the payload kept verbatim (55.50, 1E2, integer-like keys)',
    secret: WH_SECRET,
    payload: '{"10":55.50,"2":1E2,"a":-0}',
    timestamp: TS0,
  },
  { name: 'empty object payload', secret: WH_SECRET, payload: '{}', timestamp: TS0 },
  {
    name: 'redelivery with a timestamp that is not a whole second',
    secret: WH_SECRET,
    payload: ORDER_EVENT.replace('"numRetries":0', '"numRetries":3'),
    timestamp: 1767225600123,
  },
  {
    name: 'secret with special characters',
    secret: 's3cr3t!@#$%^&*()_+-=[]{}|;\':",./<>?\\`~',
    payload: '{"challenge":"special"}',
    timestamp: TS0,
  },
  {
    name: 'secret with non-ASCII characters (HMAC key is its UTF-8 bytes)',
    secret: 'geheimnis-ßäöü-🔐',
    payload: '{"challenge":"unicode-secret"}',
    timestamp: TS0,
  },
  {
    name: 'secret longer than the SHA-256 block (100 characters)',
    secret: 'abcdefghij'.repeat(10),
    payload: '{"challenge":"long-secret"}',
    timestamp: TS0,
  },
];

// --- assembly -------------------------------------------------------------------------------------

const hmac = (secret, message) => createHmac('sha256', secret).update(message, 'utf8').digest('hex');

const requestMessage = (v) =>
  `{"body":${v.canonicalBody},"query":${v.canonicalQuery},"url":${JSON.stringify(v.path)},"ts":${JSON.stringify(v.timestamp)}}`;

const webhookMessage = (v) => `{"payload":${v.payload},"timestamp":${String(v.timestamp)}}`;

// --- cross-checks of the hand-written values (typo guard; never a source of expectations) --------

const problems = [];
const fail = (name, what) => problems.push(`${name}: ${what}`);

const hasIntegerLikeKey = (value) => {
  if (Array.isArray(value)) return value.some(hasIntegerLikeKey);
  if (value === null || typeof value !== 'object') return false;
  return Object.keys(value).some((k) => /^(0|[1-9][0-9]*)$/.test(k) || hasIntegerLikeKey(value[k]));
};

function checkRequestVector(v) {
  let parsedCanonical;
  try {
    parsedCanonical = JSON.parse(v.canonicalBody);
  } catch {
    fail(v.name, 'canonicalBody is not JSON');
    return;
  }
  // Same values as the raw body (both sides go through the same engine reordering and number output).
  if (JSON.stringify(JSON.parse(v.body === '' ? '{}' : v.body)) !== JSON.stringify(parsedCanonical)) {
    fail(v.name, 'canonicalBody does not denote the same value as body');
  }
  // Already canonical: re-serializing changes nothing (skipped where the engine would reorder keys).
  if (!hasIntegerLikeKey(parsedCanonical) && JSON.stringify(parsedCanonical) !== v.canonicalBody) {
    fail(v.name, `canonicalBody is not in JSON.stringify form: ${JSON.stringify(parsedCanonical)}`);
  }
  // Query per URLSearchParams: ordered keys, repeated keys collected where they first appear.
  const grouped = new Map();
  for (const [key, value] of new URLSearchParams(v.query))
    grouped.set(key, [...(grouped.get(key) ?? []), value]);
  const entries = [...grouped].map(
    ([k, vs]) => `${JSON.stringify(k)}:${JSON.stringify(vs.length === 1 ? vs[0] : vs)}`,
  );
  if (`{${entries.join(',')}}` !== v.canonicalQuery)
    fail(v.name, 'canonicalQuery disagrees with URLSearchParams');
  if (!/^[0-9]+$/.test(v.timestamp)) fail(v.name, 'timestamp is not whole seconds');
  if (v.path.includes('?') || !v.path.startsWith('/'))
    fail(v.name, 'path must start with / and carry no query');
}

function checkInvalid(v) {
  let parsed = true;
  try {
    JSON.parse(v.body);
  } catch {
    parsed = false;
  }
  if (v.reason === 'invalid_json' && parsed) fail(v.name, 'JSON.parse accepts this body');
  if (v.reason === 'duplicate_key' && !parsed) fail(v.name, 'not otherwise valid JSON');
  if (!['invalid_json', 'duplicate_key'].includes(v.reason)) fail(v.name, `unknown reason ${v.reason}`);
}

function checkNames(list, label) {
  const seen = new Set();
  for (const v of list) {
    if (seen.has(v.name)) fail(label, `duplicate vector name ${v.name}`);
    seen.add(v.name);
  }
}

requestVectors.forEach(checkRequestVector);
invalidBodies.forEach(checkInvalid);
for (const v of webhookVectors) {
  try {
    JSON.parse(v.payload);
  } catch {
    fail(v.name, 'payload is not JSON');
  }
  if (!Number.isSafeInteger(v.timestamp)) fail(v.name, 'timestamp is not an integer number of ms');
}
checkNames(requestVectors, 'request vectors');
checkNames(invalidBodies, 'invalid bodies');
checkNames(webhookVectors, 'webhook vectors');
if (problems.length > 0) {
  console.error(
    `vectors.mjs: hand-written expectations failed the cross-checks:\n  ${problems.join('\n  ')}`,
  );
  process.exit(1);
}

// --- documents ------------------------------------------------------------------------------------

const requestDoc = {
  description:
    'Request signing test vectors for @svc/protocol (spec 5.1, DESIGN.md section 5). message = compact {"body":canonicalBody,"query":canonicalQuery,"url":path as a JSON string,"ts":timestamp as a JSON string}; signature = lowercase hex HMAC-SHA256 of the UTF-8 message with the UTF-8 secret as key. canonicalBody and canonicalQuery are hand-written expectations. Bodies in "invalid" must be refused with the given reason. See README.md.',
  algorithm: 'HMAC-SHA256, lowercase hex',
  vectors: requestVectors.map((v) => {
    const message = requestMessage(v);
    return {
      name: v.name,
      secret: v.secret,
      path: v.path,
      query: v.query,
      body: v.body,
      timestamp: v.timestamp,
      canonicalBody: v.canonicalBody,
      canonicalQuery: v.canonicalQuery,
      message,
      signature: hmac(v.secret, message),
    };
  }),
  invalid: invalidBodies,
};

const webhookDoc = {
  description:
    'Webhook signing test vectors for @svc/protocol (spec 5.3, DESIGN.md section 5). message = {"payload":<payload inserted verbatim>,"timestamp":<svc-timestamp in ms as a plain number>}; signature (header svc-signature) = lowercase hex HMAC-SHA256 of the UTF-8 message with the UTF-8 endpoint secret as key. See README.md.',
  algorithm: 'HMAC-SHA256, lowercase hex',
  vectors: webhookVectors.map((v) => {
    const message = webhookMessage(v);
    return {
      name: v.name,
      secret: v.secret,
      payload: v.payload,
      timestamp: v.timestamp,
      message,
      signature: hmac(v.secret, message),
    };
  }),
};

// Invisible or confusable characters are written as \uXXXX escapes so the files read unambiguously;
// they only ever occur inside JSON strings, where the escape means the same character.
const INVISIBLE = /[\u007f-\u009f\u00a0\u00ad\u200b-\u200f\u2028\u2029\ufeff\ufffd]/g;
const render = (doc) =>
  `${JSON.stringify(doc, null, 2).replace(INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`;

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'vectors');
const outputs = [
  [join(dir, 'request-signing.json'), render(requestDoc)],
  [join(dir, 'webhook-signing.json'), render(webhookDoc)],
];

if (process.argv.includes('--check')) {
  const stale = outputs.filter(([file, text]) => {
    try {
      return readFileSync(file, 'utf8') !== text;
    } catch {
      return true;
    }
  });
  for (const [file] of stale)
    console.error(`vectors.mjs: ${file} is out of date; run node scripts/vectors.mjs`);
  process.exit(stale.length > 0 ? 1 : 0);
}
for (const [file, text] of outputs) writeFileSync(file, text);
console.log(
  `vectors.mjs: wrote ${requestDoc.vectors.length} request vectors, ${requestDoc.invalid.length} invalid bodies, ` +
    `${webhookDoc.vectors.length} webhook vectors`,
);
