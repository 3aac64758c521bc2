// The part of JSON Schema (2020-12) the records are written in, and what is derived from a schema: its
// TypeScript type (FromSchema), a check that walks it (schemaCheck) and an example value (schemaExample).
// In-house rather than a library, so that the package keeps no runtime dependency (docs/decisions.md,
// "Wire: one shape per record").
import {
  boolean,
  fail,
  fields,
  integer,
  nullable,
  number,
  object,
  oneOf,
  recordOf,
  string,
  timestamp,
  type Check,
} from './validate.js';

type TypeName = 'string' | 'integer' | 'number' | 'boolean' | 'null' | 'object' | 'array';

/** A schema in the subset this package writes and checks. */
export interface JsonSchema {
  readonly type?: TypeName | readonly TypeName[];
  readonly description?: string;
  readonly examples?: readonly unknown[];
  /** `date-time` is checked as ISO 8601 in UTC; any other format is an annotation only. */
  readonly format?: string;
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  /** Integers only: also checks that the value is a safe integer. */
  readonly minimum?: number;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  /** `false` closes the record for the OpenAPI document; a schema, for a map such as asset code to amount. */
  readonly additionalProperties?: JsonSchema | false;
  readonly items?: JsonSchema;
}

// ---- the derived type

type Simplify<T> = { [K in keyof T]: T[K] } & {};

type FromTypeName<T, S> = T extends 'string'
  ? string
  : T extends 'integer' | 'number'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'null'
        ? null
        : T extends 'array'
          ? S extends { readonly items: infer I }
            ? FromSchema<I>[]
            : unknown[]
          : T extends 'object'
            ? FromObject<S>
            : never;

type FromObject<S> = S extends { readonly properties: infer P }
  ? Simplify<
      {
        -readonly [K in keyof P as K extends Required<S> ? K : never]: FromSchema<P[K]>;
      } & {
        -readonly [K in keyof P as K extends Required<S> ? never : K]?: FromSchema<P[K]>;
      }
    >
  : S extends { readonly additionalProperties: infer A extends JsonSchema }
    ? Record<string, FromSchema<A>>
    : Record<string, unknown>;

type Required<S> = S extends { readonly required: readonly (infer R)[] } ? R : never;

/** The TypeScript type of the values a schema accepts. */
export type FromSchema<S> = S extends { readonly const: infer C }
  ? C
  : S extends { readonly enum: readonly (infer E)[] }
    ? E
    : S extends { readonly type: infer T }
      ? T extends readonly (infer U)[]
        ? FromTypeName<U, S>
        : FromTypeName<T, S>
      : unknown;

// ---- the builders the records are written with

/** A closed object: every property listed is required but the `optional` ones. */
export function recordSchema<
  const P extends Readonly<Record<string, JsonSchema>>,
  const O extends keyof P & string = never,
>(description: string, properties: P, optional: readonly O[] = []) {
  const required = Object.keys(properties).filter((name) => !(optional as readonly string[]).includes(name));
  return {
    type: 'object',
    description,
    required: required as Exclude<keyof P & string, O>[],
    properties,
    additionalProperties: false,
  } as const;
}

export function enumSchema<const T extends readonly string[]>(values: T) {
  return { type: 'string', enum: values } as const;
}

// ---- the check

/** Keywords that say nothing about which values are valid, and the ones the walker below checks. */
const KNOWN_KEYWORDS = new Set([
  'description',
  'examples',
  'format',
  'type',
  'enum',
  'const',
  'minimum',
  'properties',
  'required',
  'additionalProperties',
]);

/**
 * A check of a value against `schema`, built once. It throws EventParseError naming the first bad field.
 * Fields the schema does not list are kept, not refused, even where `additionalProperties` is false: the
 * receiver of a record accepts fields added to it later (docs/decisions.md, "Wire: one shape per record").
 */
export function schemaCheck<const S extends JsonSchema>(schema: S): Check<FromSchema<S>> {
  return compile(schema, '') as Check<FromSchema<S>>;
}

function compile(schema: JsonSchema, at: string): Check<unknown> {
  for (const keyword of Object.keys(schema)) {
    // A keyword the walker does not know would be published in the document and not checked here.
    if (!KNOWN_KEYWORDS.has(keyword)) throw new Error(`schema${at}: the check does not know "${keyword}"`);
  }
  if ('const' in schema) {
    const expected = schema.const;
    return (value, path) =>
      value === expected ? value : fail(path, JSON.stringify(expected), JSON.stringify(value));
  }
  const types =
    schema.type === undefined ? [] : typeof schema.type === 'string' ? [schema.type] : schema.type;
  const nonNull = types.filter((type) => type !== 'null');
  const [type] = nonNull;
  if (nonNull.length !== 1 || type === undefined) {
    throw new Error(`schema${at}: one type, or one type and null, is what the check knows`);
  }
  const check = compileType(type, schema, at);
  return types.includes('null') ? nullable(check) : check;
}

function compileType(type: TypeName, schema: JsonSchema, at: string): Check<unknown> {
  switch (type) {
    case 'string':
      if (schema.enum) return oneOf(schema.enum as readonly string[]);
      return schema.format === 'date-time' ? timestamp : string;
    case 'number':
      return number;
    case 'integer': {
      const { minimum } = schema;
      if (minimum === undefined) return integer;
      return (value, path) => {
        const n = integer(value, path);
        return n >= minimum && Number.isSafeInteger(n)
          ? n
          : fail(path, `a whole number >= ${minimum}`, String(n));
      };
    }
    case 'boolean':
      return boolean;
    case 'object':
      return compileObject(schema, at);
    case 'null':
    case 'array':
      throw new Error(`schema${at}: the check does not know type ${type}`);
  }
}

function compileObject(schema: JsonSchema, at: string): Check<unknown> {
  const { properties, additionalProperties } = schema;
  if (properties === undefined) {
    if (additionalProperties === undefined || additionalProperties === false) return fields;
    return recordOf(compile(additionalProperties, `${at}{*}`));
  }
  const shape = Object.fromEntries(
    Object.entries(properties).map(([name, property]) => [name, compile(property, `${at}.${name}`)]),
  );
  const required = new Set(schema.required ?? []);
  return object(
    shape,
    Object.keys(properties).filter((name) => !required.has(name)),
  );
}

// ---- the example

/**
 * A value the schema accepts: each field's first `examples` entry, else the first enum value, null where
 * allowed, or the simplest value of its type. Every field of a record is filled, the optional ones too.
 */
export function schemaExample<const S extends JsonSchema>(schema: S): FromSchema<S> {
  return example(schema) as FromSchema<S>;
}

function example(schema: JsonSchema): unknown {
  if (schema.examples !== undefined && schema.examples.length > 0) return schema.examples[0];
  if ('const' in schema) return schema.const;
  if (schema.enum !== undefined) return schema.enum[0];
  const types =
    schema.type === undefined ? [] : typeof schema.type === 'string' ? [schema.type] : schema.type;
  if (types.includes('null')) return null;
  switch (types[0]) {
    case 'string':
      return schema.format === 'date-time' ? new Date(0).toISOString() : '';
    case 'integer':
    case 'number':
      return schema.minimum ?? 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([name, property]) => [name, example(property)]),
      );
    default:
      return null;
  }
}
