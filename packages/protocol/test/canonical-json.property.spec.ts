// Property-based tests of canonicalizeJson: random JSON trees are written out two ways, messily
// (whitespace, other number spellings, gratuitous escapes) and canonically by hand, and the
// canonicaliser must turn the first into the second.
import fc from 'fast-check';

import { CanonicalJsonError, canonicalizeJson } from '../src/index.js';

/** The canonical text without the refusal of ambiguous numbers: the trees below hold many of them. */
const rewriting = (text: string) => canonicalizeJson(text, { ambiguousNumbers: 'rewrite' });

type Tree =
  | { kind: 'literal'; text: 'true' | 'false' | 'null' }
  | { kind: 'number'; value: number; spelling: string }
  | { kind: 'string'; value: string; spelling: string }
  | { kind: 'array'; items: Tree[]; gaps: string[] }
  | { kind: 'object'; entries: { key: Tree & { kind: 'string' }; value: Tree }[]; gaps: string[] };

const whitespace = fc.constantFrom('', '', '', ' ', '\n', '\t', '\r\n  ');

/** Integer literals of up to 25 digits, most of them not exact doubles: 9007199254740993 reads as ...992. */
const bigIntegerTree = fc
  .bigInt({ min: -(10n ** 25n), max: 10n ** 25n })
  .map((integer): Tree => ({ kind: 'number', value: Number(integer), spelling: integer.toString() }));

/** Spellings of a double that all parse back to it. */
const doubleTree = fc
  .tuple(
    fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.integer({ min: -1_000_000, max: 1_000_000 }),
      fc.constantFrom(55.5, 55000, 100, 0, -0, 1e21, 1e-7, 2 ** 53 + 2, 0.1, 123456789012345680000),
    ),
    fc.nat(4),
    fc.nat(3),
  )
  .map(([value, style, zeros]): Tree => {
    let spelling = String(value);
    if (style === 1) spelling = value.toExponential();
    if (style === 2) spelling = value.toExponential().toUpperCase().replace('+', '');
    if (style === 3 && Number.isInteger(value) && Math.abs(value) < 1e21) {
      spelling = `${value < 0 || Object.is(value, -0) ? '-' : ''}${Math.abs(value)}.${'0'.repeat(zeros + 1)}`;
    }
    if (style === 4 && spelling.includes('.') && !/e/i.test(spelling)) spelling += '0'.repeat(zeros);
    return { kind: 'number', value, spelling };
  });

const numberTree = fc.oneof(doubleTree, bigIntegerTree);

const SHORT_ESCAPES: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '/': '\\/',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

/** Any UTF-16 code units, lone surrogates included, each spelled raw or escaped at random. */
const stringTree = (value: fc.Arbitrary<string>) =>
  value.chain((text) =>
    fc
      .array(fc.nat(2), { minLength: text.length, maxLength: text.length })
      .map((choices): Tree & { kind: 'string' } => {
        let spelling = '"';
        [...Array(text.length).keys()].forEach((i) => {
          const char = text.charAt(i);
          const code = text.charCodeAt(i);
          const unicode = `\\u${code.toString(16).padStart(4, '0')}`;
          const mustEscape = char === '"' || char === '\\' || code < 0x20;
          const choice = choices[i] ?? 0;
          if (choice === 0 && !mustEscape) spelling += char;
          else if (choice === 1 && SHORT_ESCAPES[char] !== undefined) spelling += SHORT_ESCAPES[char];
          else spelling += choice === 2 ? unicode.toUpperCase().replace('\\U', '\\u') : unicode;
        });
        return { kind: 'string', value: text, spelling: `${spelling}"` };
      }),
  );

const anyText = fc.string({
  unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
});
const keyText = fc.oneof(anyText, fc.string(), fc.nat(20).map(String), fc.nat().map(String));

function trees(withIntegerKeys: boolean): fc.Arbitrary<Tree> {
  const key = withIntegerKeys ? keyText : keyText.filter((text) => !isIntegerLike(text));
  return fc.letrec<{ tree: Tree }>((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constantFrom<Tree>(
        { kind: 'literal', text: 'true' },
        { kind: 'literal', text: 'false' },
        { kind: 'literal', text: 'null' },
      ),
      numberTree,
      stringTree(anyText),
      fc
        .array(tie('tree'), { maxLength: 5 })
        .chain((items) =>
          fc
            .array(whitespace, { minLength: 2 * items.length + 2, maxLength: 2 * items.length + 2 })
            .map((gaps): Tree => ({ kind: 'array', items, gaps })),
        ),
      fc
        .uniqueArray(fc.record({ key: stringTree(key), value: tie('tree') }), {
          maxLength: 5,
          selector: (entry) => entry.key.value,
        })
        .chain((entries) =>
          fc
            .array(whitespace, { minLength: 4 * entries.length + 2, maxLength: 4 * entries.length + 2 })
            .map((gaps): Tree => ({ kind: 'object', entries, gaps })),
        ),
    ),
  })).tree;
}

function isIntegerLike(key: string): boolean {
  return /^(0|[1-9][0-9]*)$/.test(key) && Number(key) < 2 ** 32 - 1;
}

/** The canonical text, written from the tree by the rules (not by the code under test). */
function canonical(tree: Tree): string {
  switch (tree.kind) {
    case 'literal':
      return tree.text;
    case 'number':
      return String(tree.value);
    case 'string':
      return JSON.stringify(tree.value);
    case 'array':
      return `[${tree.items.map(canonical).join(',')}]`;
    case 'object':
      return `{${tree.entries.map(({ key, value }) => `${canonical(key)}:${canonical(value)}`).join(',')}}`;
  }
}

/** The same tree as a client might send it. */
function messy(tree: Tree): string {
  switch (tree.kind) {
    case 'literal':
      return tree.text;
    case 'number':
    case 'string':
      return tree.spelling;
    case 'array': {
      const gap = (i: number) => tree.gaps[i] ?? '';
      const items = tree.items.map((item, i) => `${gap(2 * i + 1)}${messy(item)}${gap(2 * i + 2)}`);
      return `[${items.join(',') || gap(0)}]`;
    }
    case 'object': {
      const gap = (i: number) => tree.gaps[i] ?? '';
      const entries = tree.entries.map(
        ({ key, value }, i) =>
          `${gap(4 * i)}${messy(key)}${gap(4 * i + 1)}:${gap(4 * i + 2)}${messy(value)}${gap(4 * i + 3)}`,
      );
      return `{${entries.join(',') || gap(0)}}`;
    }
  }
}

const document = (withIntegerKeys: boolean) =>
  fc.tuple(whitespace, trees(withIntegerKeys), whitespace).map(([before, tree, after]) => ({
    text: before + messy(tree) + after,
    expected: canonical(tree),
  }));

describe('canonicalizeJson properties', () => {
  it('turns any spelling of a document into its canonical text, integer-like keys in transmitted order', () => {
    fc.assert(
      fc.property(document(true), ({ text, expected }) => {
        expect(rewriting(text)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(document(true), ({ text }) => {
        const once = rewriting(text);
        // String(Number(x)) keeps its value, so the canonical text is never refused.
        expect(canonicalizeJson(once)).toBe(once);
      }),
      { numRuns: 1000 },
    );
  });

  it('equals JSON.stringify(JSON.parse(x)) when x has no integer-like keys', () => {
    fc.assert(
      fc.property(document(false), ({ text }) => {
        expect(rewriting(text)).toBe(JSON.stringify(JSON.parse(text)));
      }),
      { numRuns: 2000 },
    );
  });

  it("never throws on fast-check's own valid JSON, and agrees with JSON.parse on its meaning", () => {
    fc.assert(
      fc.property(fc.json({ depthSize: 'medium' }), (text) => {
        const result = canonicalizeJson(text);
        expect(JSON.parse(result)).toEqual(JSON.parse(text));
        if (!/"(0|[1-9][0-9]*)":/.test(text)) expect(result).toBe(JSON.stringify(JSON.parse(text)));
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps any number literal to the exact value it was sent with, or refuses it', () => {
    fc.assert(
      fc.property(numberLiteral, (literal) => {
        let canonical: string;
        try {
          canonical = canonicalizeJson(`{"n":${literal}}`);
        } catch (error) {
          expect(error).toBeInstanceOf(CanonicalJsonError);
          expect((error as CanonicalJsonError).reason).toBe('ambiguous_number');
          expect((error as CanonicalJsonError).path).toEqual(['n']);
          // Refused only when String(Number(x)) really is another value.
          const rewritten = String(Number(literal));
          expect(
            rewritten === 'Infinity' || rewritten === '-Infinity' || !sameValue(rewritten, literal),
          ).toBe(true);
          return;
        }
        expect(canonical).toBe(`{"n":${String(Number(literal))}}`);
        expect(sameValue(String(Number(literal)), literal)).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });
});

const DIGITS = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'];

/** JSON number literals of every shape: long digit strings, fractions, exponents, zeros. */
const digitString = (max: number) =>
  fc.string({ unit: fc.constantFrom(...DIGITS), minLength: 1, maxLength: max });
const numberLiteral = fc
  .tuple(
    fc.boolean(),
    fc.oneof(
      fc.constant('0'),
      fc.tuple(fc.constantFrom(...DIGITS.slice(1)), digitString(30)).map(([first, rest]) => first + rest),
      fc.nat().map(String),
    ),
    fc.option(digitString(30), { nil: undefined }),
    fc.option(
      fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), fc.integer({ min: 0, max: 400 })),
      {
        nil: undefined,
      },
    ),
  )
  .map(
    ([negative, integer, fraction, exponent]) =>
      `${negative ? '-' : ''}${integer}${fraction === undefined ? '' : `.${fraction}`}${
        exponent === undefined ? '' : `${exponent[0]}${exponent[1]}${exponent[2]}`
      }`,
  );

/** Whether two number texts denote the same decimal value, worked out with BigInt (not as the library does). */
function sameValue(a: string, b: string): boolean {
  const [ma, ea] = exactDecimal(a);
  const [mb, eb] = exactDecimal(b);
  const shift = ea < eb ? ea : eb;
  return ma * 10n ** BigInt(ea - shift) === mb * 10n ** BigInt(eb - shift);
}

/** A number text as an integer mantissa and a power of ten. */
function exactDecimal(text: string): [bigint, number] {
  const match = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/.exec(text);
  if (!match) throw new Error(`not a number text: ${text}`);
  const [, sign = '', integer = '', fraction = '', exponent = '0'] = match;
  return [BigInt(`${sign}${integer}${fraction}`), Number(exponent) - fraction.length];
}
