// Inputs for the fuzz test from the OpenAPI document: a fast-check arbitrary for a schema (values the
// schema allows, as far as it says), and one for values near it (the same with a field broken, dropped or
// added, or any JSON at all), so every route gets both what it should take and what it should refuse.
import fc from 'fast-check';

export type Schema = Readonly<Record<string, unknown>>;

export interface OpenApiDocument {
  readonly paths: Readonly<Record<string, Readonly<Record<string, Operation>>>>;
  readonly components?: { readonly schemas?: Readonly<Record<string, Schema>> };
}

export interface Operation {
  readonly operationId?: string;
  readonly parameters?: readonly Parameter[];
  readonly requestBody?: { readonly content?: Readonly<Record<string, { readonly schema?: Schema }>> };
  readonly security?: readonly Readonly<Record<string, readonly string[]>>[];
}

export interface Parameter {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header' | 'cookie';
  readonly required?: boolean;
  readonly schema?: Schema;
}

const MAX_DEPTH = 4;

/** The schema `$ref` points to (#/components/schemas/Name), or the schema itself. */
export function resolve(schema: Schema, document: OpenApiDocument): Schema {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  const name = ref.replace('#/components/schemas/', '');
  return document.components?.schemas?.[name] ?? {};
}

/** Values `schema` allows (as far as the document describes them). */
export function valid(
  schema: Schema | undefined,
  document: OpenApiDocument,
  depth = 0,
): fc.Arbitrary<unknown> {
  if (!schema || depth > MAX_DEPTH) return fc.jsonValue({ maxDepth: 2 });
  const s = resolve(schema, document);
  if (Array.isArray(s.enum) && s.enum.length > 0) return fc.constantFrom(...(s.enum as unknown[]));
  if ('const' in s) return fc.constant(s.const);
  for (const key of ['oneOf', 'anyOf'] as const) {
    const options = s[key];
    if (Array.isArray(options) && options.length > 0)
      return fc.oneof(...options.map((option) => valid(option as Schema, document, depth + 1)));
  }
  if (Array.isArray(s.allOf) && s.allOf.length > 0) return valid(s.allOf[0] as Schema, document, depth + 1);
  const type = Array.isArray(s.type) ? (s.type as string[]).find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'string':
      return stringOf(s);
    case 'integer':
      return fc.integer({ min: numberOr(s.minimum, -1_000_000), max: numberOr(s.maximum, 1_000_000) });
    case 'number':
      return fc.oneof(
        fc.integer({
          min: Math.ceil(numberOr(s.minimum, 0)),
          max: Math.floor(numberOr(s.maximum, 1_000_000)),
        }),
        fc.double({ min: numberOr(s.minimum, 0), max: numberOr(s.maximum, 1_000_000), noNaN: true }),
      );
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(valid(s.items as Schema | undefined, document, depth + 1), {
        minLength: numberOr(s.minItems, 0),
        maxLength: Math.min(numberOr(s.maxItems, 4), 4),
      });
    case 'object':
      return objectOf(s, document, depth);
    default:
      return s.properties ? objectOf(s, document, depth) : fc.jsonValue({ maxDepth: 2 });
  }
}

/** Values close to what `schema` allows, and values far from it. */
export function nearlyValid(schema: Schema | undefined, document: OpenApiDocument): fc.Arbitrary<unknown> {
  const allowed = valid(schema, document);
  const broken = fc
    .tuple(allowed, fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 1 }))
    .map(([value, key, junk]) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return junk;
      const keys = Object.keys(value);
      const target = keys.length > 0 ? keys[key.length % keys.length]! : key;
      return { ...value, [target]: junk };
    });
  const dropped = allowed.map((value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const [first, ...rest] = Object.keys(value);
    return first === undefined ? value : Object.fromEntries(rest.map((key) => [key, (value as never)[key]]));
  });
  return fc.oneof(allowed, broken, dropped, fc.jsonValue({ maxDepth: 3 }));
}

function objectOf(s: Schema, document: OpenApiDocument, depth: number): fc.Arbitrary<unknown> {
  const properties = (s.properties ?? {}) as Record<string, Schema>;
  const required = new Set((s.required ?? []) as string[]);
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties))
    record[name] = valid(property, document, depth + 1);
  return fc.record(record, { requiredKeys: [...required].filter((name) => name in record) });
}

function stringOf(s: Schema): fc.Arbitrary<string> {
  const minLength = numberOr(s.minLength, 0);
  const maxLength = Math.min(numberOr(s.maxLength, 40), 200);
  switch (s.format) {
    case 'uuid':
      return fc.uuid();
    case 'date-time':
      return fc
        .date({
          min: new Date('2000-01-01T00:00:00Z'),
          max: new Date('2099-12-31T00:00:00Z'),
          noInvalidDate: true,
        })
        .map((date) => date.toISOString());
    case 'email':
      return fc.emailAddress();
    case 'uri':
      return fc.webUrl();
    default:
      break;
  }
  if (typeof s.pattern === 'string') {
    try {
      // Not filtered by length: a pattern's strings may be longer than the schema allows, and a filter
      // that rarely passes would stall the run; the server refusing them is part of the test.
      return fc.stringMatching(new RegExp(s.pattern, 'u'));
    } catch {
      // A pattern fast-check cannot generate from: any string of the allowed length.
    }
  }
  return fc.string({ minLength, maxLength, unit: 'grapheme' });
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}
