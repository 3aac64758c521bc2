// The records are written once, as JSON Schema: these tests hold the parsers, the types and the examples
// derived from each schema to every one of its fields, so that a field added to a schema is checked,
// typed and exemplified with no other edit.
import {
  EVENT_ENVELOPE_SCHEMA,
  EventParseError,
  ORDER_SCHEMA,
  RECORD_SCHEMAS,
  eventEnvelopeSchema,
  parseActionsData,
  parseKycDocumentUser,
  parseOrder,
  parseSystemInformationData,
  parseUser,
  schemaCheck,
  schemaExample,
  type ActionsData,
  type FromSchema,
  type JsonSchema,
  type KycDocumentUser,
  type Order,
  type SystemInformationData,
  type User,
} from '../src/index.js';

type RecordName = keyof typeof RECORD_SCHEMAS;

/** The fields an order other than MARKET adds to the contract's 25. */
const ORDER_LIFECYCLE_FIELDS: readonly string[] = [
  'timeInForce',
  'limitPrice',
  'stopPrice',
  'expireAt',
  'cancelReason',
  'replaces',
];

const PARSERS: { readonly [N in RecordName]: (value: unknown) => unknown } = {
  User: parseUser,
  KycDocumentUser: parseKycDocumentUser,
  Order: parseOrder,
  ActionsData: parseActionsData,
  SystemInformationData: parseSystemInformationData,
};

// Each exported type has exactly its schema's fields: a field added to the schema and missing here, or
// here and not in the schema, fails the type check.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameTypes: {
  readonly [N in RecordName]: Same<
    {
      User: User;
      KycDocumentUser: KycDocumentUser;
      Order: Order;
      ActionsData: ActionsData;
      SystemInformationData: SystemInformationData;
    }[N],
    FromSchema<(typeof RECORD_SCHEMAS)[N]>
  >;
} = { User: true, KycDocumentUser: true, Order: true, ActionsData: true, SystemInformationData: true };

function parseError(run: () => unknown): EventParseError {
  try {
    run();
  } catch (error) {
    if (error instanceof EventParseError) return error;
    throw error;
  }
  throw new Error('expected an EventParseError, nothing was thrown');
}

const records = Object.entries(RECORD_SCHEMAS) as [RecordName, (typeof RECORD_SCHEMAS)[RecordName]][];

describe('each record schema', () => {
  it('is closed and requires every field it lists but the optional ones of the order lifecycle', () => {
    for (const [name, schema] of records) {
      expect(schema.additionalProperties).toBe(false);
      const optional = name === 'Order' ? ORDER_LIFECYCLE_FIELDS : [];
      expect(schema.required).toEqual(
        Object.keys(schema.properties).filter((field) => !optional.includes(field)),
      );
    }
    expect(Object.values(sameTypes).every(Boolean)).toBe(true);
  });

  it.each(records)('%s: its example parses to every field of the schema, in its order', (name, schema) => {
    const example = schemaExample(schema as JsonSchema) as Record<string, unknown>;
    expect(Object.keys(example)).toEqual(Object.keys(schema.properties));
    const parsed = PARSERS[name](JSON.parse(JSON.stringify(example))) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(Object.keys(schema.properties));
    expect(parsed).toEqual(example);
  });

  it.each(records)(
    '%s: its parser refuses the record without any one of its required fields',
    (name, schema) => {
      const example = schemaExample(schema as JsonSchema) as Record<string, unknown>;
      for (const field of schema.required as readonly string[]) {
        const rest = { ...example };
        Reflect.deleteProperty(rest, field);
        expect(parseError(() => PARSERS[name](rest))).toMatchObject({
          path: field,
          message: `${field}: missing`,
        });
      }
    },
  );
});

describe('the order record', () => {
  it('parses without the lifecycle fields, as a MARKET order is sent, keeping the contract fields in order', () => {
    const example = schemaExample(ORDER_SCHEMA as JsonSchema) as Record<string, unknown>;
    const market = Object.fromEntries(
      Object.entries(example).filter(([field]) => !ORDER_LIFECYCLE_FIELDS.includes(field)),
    );
    const parsed = PARSERS.Order(market) as Record<string, unknown>;
    expect(Object.keys(parsed)).toHaveLength(25);
    expect(parsed).toEqual(market);
  });

  it('refuses a lifecycle field of the wrong type', () => {
    const example = schemaExample(ORDER_SCHEMA as JsonSchema) as Record<string, unknown>;
    expect(parseError(() => PARSERS.Order({ ...example, limitPrice: '1' }))).toMatchObject({
      path: 'limitPrice',
    });
    expect(parseError(() => PARSERS.Order({ ...example, timeInForce: 'FOREVER' }))).toMatchObject({
      path: 'timeInForce',
    });
  });
});

describe('the envelope schema of one kind of event', () => {
  it('fixes the entity, keeps the field order, and has eventType only when given', () => {
    const fields = Object.keys(EVENT_ENVELOPE_SCHEMA.properties);
    const orders = eventEnvelopeSchema('Orders');
    expect(Object.keys(orders.properties!)).toEqual(fields.filter((field) => field !== 'eventType'));
    expect(orders.properties!.entity).toEqual({ type: 'string', const: 'Orders' });
    const kyc = eventEnvelopeSchema('Users', ['KYC_PENDING']);
    expect(Object.keys(kyc.properties!)).toEqual(fields);
    expect(kyc.required).toEqual(fields);
    expect(kyc.properties!.eventType).toMatchObject({ type: 'string', enum: ['KYC_PENDING'] });
  });
});

describe('schemaCheck', () => {
  it('will not check a schema with a keyword it does not know, rather than pass what it says', () => {
    expect(() => schemaCheck({ type: 'string', pattern: '^[A-Z]+$' } as JsonSchema)).toThrow(
      'schema: the check does not know "pattern"',
    );
    expect(() =>
      schemaCheck({ type: 'object', properties: { a: { type: 'string', maxLength: 3 } } } as JsonSchema),
    ).toThrow('schema.a: the check does not know "maxLength"');
  });

  it('checks const, nullable types, optional fields and maps', () => {
    const check = schemaCheck({
      type: 'object',
      required: ['kind'],
      properties: {
        kind: { const: 'A' },
        note: { type: ['string', 'null'] },
        values: { type: 'object', additionalProperties: { type: 'number' } },
      },
    });
    expect(check({ kind: 'A' }, '')).toEqual({ kind: 'A' });
    expect(check({ kind: 'A', note: null, values: { x: 1 } }, '')).toEqual({
      kind: 'A',
      note: null,
      values: { x: 1 },
    });
    expect(parseError(() => check({ kind: 'B' }, ''))).toMatchObject({
      message: 'kind: expected "A", got "B"',
    });
    expect(parseError(() => check({ kind: 'A', note: 1 }, ''))).toMatchObject({ path: 'note' });
    expect(parseError(() => check({ kind: 'A', values: { x: 'y' } }, ''))).toMatchObject({
      path: 'values.x',
    });
  });
});
