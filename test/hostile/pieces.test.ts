import { contentDecoders } from '../../src/intake/body';
import { JsonBodyError, MAX_JSON_DEPTH, MAX_JSON_ELEMENTS, parseRequestJson, scanJson } from '../../src/intake/json';
import { redactUrl } from '../../src/logging/index';
import { quoteInput } from '../../src/params/quote';

/** The pure pieces of the intake, on the inputs that used to hurt. */

describe('quoteInput', () => {
  test('cuts strings, arrays and objects at ~200 characters, whatever their size', () => {
    expect(quoteInput('A'.repeat(900_000))).toBe(`'${'A'.repeat(200)}...'`);
    expect(quoteInput('short')).toBe("'short'");
    expect(quoteInput(Array.from({ length: 100_000 }, (_, i) => i)).length).toBeLessThanOrEqual(205);
    expect(quoteInput({ a: 1, b: [true, null, 'x'] })).toBe(`'{"a":1,"b":[true,null,"x"]}'`);
  });

  test('renders bigints and nesting 100 000 deep without overflowing the stack', () => {
    expect(quoteInput(-9223372036854775808n)).toBe("'-9223372036854775808'");
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(quoteInput(deep)).toBe(`'${'['.repeat(200)}...'`);
  });
});

describe('request JSON', () => {
  test('the depth pre-scan skips brackets inside strings and stops at the bound', () => {
    expect(scanJson(Buffer.from(`{"a":"${'['.repeat(5000)}"}`))).toEqual({ tooDeep: false, tooManyElements: false, longNumbers: false });
    expect(scanJson(Buffer.from(`${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`)).tooDeep).toBe(true);
    expect(scanJson(Buffer.from(`${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`)).tooDeep).toBe(false);
    expect(scanJson(Buffer.from('{"a":"\\"[[[[","n":12345678901234567}'))).toEqual({ tooDeep: false, tooManyElements: false, longNumbers: true });
  });

  test('the element pre-scan counts array items and object members, not commas in strings nor empty containers', () => {
    const bounds = { maxDepth: MAX_JSON_DEPTH, maxElements: 4 };
    // 4 elements each: the bound is reached, not passed.
    for (const text of ['[1,2,3,4]', '{"a":1,"b":[],"c":{},"d":"x,y,z"}', '[ \n\t{"a" : [ 1 , 2 ] } ]', '[[[[1]]]]']) {
      expect(scanJson(Buffer.from(text), bounds)).toEqual({ tooDeep: false, tooManyElements: false, longNumbers: false });
    }
    // 5 elements each.
    for (const text of ['[1,2,3,4,5]', '[{},{},{},{},{}]', '{"a":[1,2],"b":{"c":null}}', '[[[[[1]]]]]', '[ "a" , "b" , [ ] , { } , 1 ]']) {
      expect(scanJson(Buffer.from(text), bounds).tooManyElements).toBe(true);
    }
    expect(() => parseRequestJson(Buffer.from('[1,2,3,4,5]'), bounds)).toThrow(
      new JsonBodyError('JSON has more than 4 array items and object members'),
    );
    expect(parseRequestJson(Buffer.from('[1,2,3,4]'), bounds)).toEqual([1, 2, 3, 4]);
  });

  test('the default element bound: a body at it parses, one element more is refused', () => {
    const at = `[${Array.from({ length: MAX_JSON_ELEMENTS }, () => '{}').join(',')}]`;
    expect(parseRequestJson(Buffer.from(at))).toHaveLength(MAX_JSON_ELEMENTS);
    expect(() => parseRequestJson(Buffer.from(`[{},${at.slice(1)}`))).toThrow(JsonBodyError);
  });

  test('integers beyond 2^53 arrive as bigint with every digit; other numbers as number', () => {
    expect(parseRequestJson(Buffer.from('{"shard":-9223372036854775808,"lt":9223372036854775807,"n":5,"f":1.5,"e":1e3}'))).toEqual({
      shard: -9223372036854775808n,
      lt: 9223372036854775807n,
      n: 5,
      f: 1.5,
      e: 1000,
    });
    // Safe integers stay numbers on the lossless path too; duplicate keys keep the last value.
    expect(parseRequestJson(Buffer.from('{"a":1,"a":2,"b":12345678901234567890}'))).toEqual({ a: 2, b: 12345678901234567890n });
  });

  test('__proto__ in a body is an own property, never the prototype', () => {
    for (const text of ['{"__proto__":{"address":"x"}}', '{"__proto__":{"address":"x"},"n":12345678901234567890}']) {
      const parsed = parseRequestJson(Buffer.from(text)) as Record<string, unknown>;
      expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
      expect(parsed['address']).toBeUndefined();
    }
  });
});

describe('Content-Encoding', () => {
  test('known codings in order, identity ignored, anything else a 415', () => {
    expect(contentDecoders(undefined)).toHaveLength(0);
    expect(contentDecoders('identity')).toHaveLength(0);
    expect(contentDecoders('gzip, br')).toHaveLength(2);
    expect(() => contentDecoders('gzip, zstd')).toThrow(expect.objectContaining({ kind: 'unsupportedEncoding' }));
  });
});

describe('redactUrl', () => {
  test('every spelling the query parser reads as api_key is redacted, and upper case too', () => {
    expect(redactUrl('/api/v2/x?a=1&api_key=S1&b=2')).toBe('/api/v2/x?a=1&api_key=[redacted]&b=2');
    expect(redactUrl('/api/v2/x?api%5Fkey=S2')).toBe('/api/v2/x?api%5Fkey=[redacted]');
    expect(redactUrl('/api/v2/x?%61pi_key=S3&API_KEY=S4')).toBe('/api/v2/x?%61pi_key=[redacted]&API_KEY=[redacted]');
    expect(redactUrl('/api/v2/x?api_keyx=keep')).toBe('/api/v2/x?api_keyx=keep');
    expect(redactUrl('/api/v2/x?a=1&Api_Key=S5')).toBe('/api/v2/x?a=1&Api_Key=[redacted]');
    expect(redactUrl('/api/v2/x?address=EQ+x&seqno=5')).toBe('/api/v2/x?address=EQ+x&seqno=5');
    expect(redactUrl(`/api/v2/x?pad=${'x'.repeat(5000)}`)!.length).toBeLessThanOrEqual(2051);
  });
});
