// The building blocks of the api's JSON Schemas (OpenAPI 3.1), shared by schemas.ts (the views),
// event-schemas.ts and operator-schemas.ts.

export type Schema = Record<string, unknown>;

export const string: Schema = { type: 'string' };
export const integer: Schema = { type: 'integer' };
export const number: Schema = { type: 'number' };
export const boolean: Schema = { type: 'boolean' };
export const dateTime: Schema = { type: 'string', format: 'date-time', description: 'ISO 8601, UTC' };
export const uuid: Schema = { type: 'string', format: 'uuid' };
export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
export const orNull = (schema: Schema): Schema =>
  '$ref' in schema
    ? { oneOf: [schema, { type: 'null' }] }
    : {
        ...schema,
        type: [schema.type, 'null'],
        ...(schema.enum ? { enum: [...(schema.enum as unknown[]), null] } : {}),
      };
export const enumOf = (values: readonly string[]): Schema => ({ type: 'string', enum: [...values] });
export const arrayOf = (items: Schema): Schema => ({ type: 'array', items });

/** A closed object: every property listed is present, but the `optional` ones. */
export function record(
  description: string,
  properties: Record<string, Schema>,
  optional: readonly string[] = [],
): Schema {
  return {
    type: 'object',
    description,
    required: Object.keys(properties).filter((name) => !optional.includes(name)),
    properties,
    additionalProperties: false,
  };
}
