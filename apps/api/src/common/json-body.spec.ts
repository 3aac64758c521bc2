import { NumberText } from './decimal.js';
import { canonicalBodyOf, parseJsonBody } from './json-body.js';

const parse = (text: string, request: object = {}) => parseJsonBody(request, Buffer.from(text, 'utf8'));

describe('the JSON body parser', () => {
  it('reads numbers a double carries as numbers, trailing zeros or not', async () => {
    await expect(
      parse('{"quoteQuantity":55000.00,"price":55.50,"n":-0,"e":1e3,"tags":["1.5",2]}'),
    ).resolves.toEqual({
      quoteQuantity: 55000,
      price: 55.5,
      n: -0,
      e: 1000,
      tags: ['1.5', 2],
    });
  });

  it('keeps the digits of numbers a double does not carry, wherever they are', async () => {
    const body = (await parse('{"a":{"b":[1,123456789012345678901234567890]},"c":0.100000000000000001}')) as {
      a: { b: unknown[] };
      c: unknown;
    };
    expect(body.a.b[0]).toBe(1);
    expect(body.a.b[1]).toEqual(new NumberText('123456789012345678901234567890'));
    expect(body.c).toEqual(new NumberText('0.100000000000000001'));
    expect(await parse('[1e400]')).toEqual([new NumberText('1e400')]);
  });

  it('refuses a prototype key, however it is spelt, and takes the words as values', async () => {
    for (const text of [
      '{"__proto__":{}}',
      '{"a":{"constructor":1}}',
      '{"\\u005f_proto__":1}',
      '{"prototype":[]}',
    ]) {
      await expect(parse(text)).rejects.toThrow(/is not accepted anywhere in a body/);
    }
    await expect(parse('{"note":"the constructor\'s __proto__","list":["prototype"]}')).resolves.toEqual({
      note: "the constructor's __proto__",
      list: ['prototype'],
    });
    await expect(parse('{"note":"\\u00e9 \\"5.50\\" 0.100000000000000001"}')).resolves.toEqual({
      note: 'é "5.50" 0.100000000000000001',
    });
  });

  it('keeps the compact text of the body for the request, keys in the order sent', async () => {
    const request = {};
    await parse('{ "b" : 1.50, "a" : [ true , null ] }', request);
    expect(canonicalBodyOf(request)).toBe('{"b":1.5,"a":[true,null]}');
    expect(canonicalBodyOf({})).toBe('{}');
  });

  it('builds no object for a route that reads its body as text, unless the body may need one', async () => {
    const textRoute = () => ({ routeOptions: { config: { jsonBodyAsText: true } } });
    const request = textRoute();
    await expect(parse('{ "b" : 1.50 }', request)).resolves.toBeUndefined();
    expect(canonicalBodyOf(request)).toBe('{"b":1.5}');
    await expect(parse('{"access_token":"t"}', textRoute())).resolves.toEqual({ access_token: 't' });
    await expect(parse('{"\\u005f_proto__":1}', textRoute())).rejects.toThrow(/is not accepted/);
    await expect(parse('{"a":1,"a":2}', textRoute())).rejects.toThrow(/duplicate key/);
  });
});
