import {
  ACTION_NAMES,
  ENTITY_NAMES,
  EventParseError,
  KYC_EVENT_TYPES,
  ORDER_SIDES,
  ORDER_STATUSES,
  ORDER_TYPES,
  SYSTEM_NOTICES,
  USER_STATUSES,
  USER_TYPES,
  isEntityEvent,
  isKycEvent,
  parseActionsData,
  parseOrder,
  parseSystemInformationData,
  parseUser,
  parseWebhookEvent,
  parseWebhookEventText,
  type ActionsData,
  type EntityName,
  type KycDocumentUser,
  type KycEvent,
  type KycEventType,
  type Order,
  type OrdersEvent,
  type SystemInformationData,
  type User,
  type WebhookEvent,
} from '../src/index.js';

const user = {
  orgUserId: 'user-1',
  orgId: 42,
  kyc: false,
  tnc: true,
  userStatus: 'ACTIVE',
  userType: 'CONSUMER',
} satisfies User;

const order = {
  id: 1001,
  orgId: 42,
  clientOrderId: '6f1c1d2e-8a4b-4c1e-9b7d-2f1e0c9a8b7d',
  orgUserId: 'user-1',
  symbol: 'BTC_EUR',
  side: 'BUY',
  type: 'MARKET',
  quantity: 0.5,
  quoteQuantity: 27500,
  filled: 0.5,
  status: 'COMPLETED',
  price: 55000,
  averagePrice: 55000,
  estimatedPrice: 54990.5,
  baseAveragePrice: 55000,
  commissionRate: 0.01,
  vatRate: 0.2,
  commissionAmount: 275,
  vatAmount: 55,
  netExecutedAmount: 27170,
  totalExecutedAmount: 27500,
  commissionAsset: 'EUR',
  rejectionReason: null,
  createdAt: '2024-05-01T10:00:00.000Z',
  updatedAt: '2024-05-01T10:00:01.250Z',
} satisfies Order;

const actionsData = { name: 'ASSET_EXPOSURE', newValues: { BTC: 10, ETH: 2.5 } } satisfies ActionsData;

const systemInformation = {
  event: 'MAINTENANCE_ALERTS',
  entity: 'BTC_EUR',
  message: 'Trading paused for maintenance',
  startTime: '2024-05-02T00:00:00Z',
  endTime: '',
} satisfies SystemInformationData;

function body(entity: EntityName, data: object, eventType?: KycEventType) {
  const event = {
    orgId: 42,
    entity,
    ...(eventType === undefined ? {} : { eventType }),
    numRetries: 0,
    createdAt: '2024-05-01T10:00:00Z',
    updatedAt: '2024-05-01T10:00:00.5Z',
  };
  return { event, data };
}

const kycUser = (eventType: KycEventType): User | KycDocumentUser => ({
  ...user,
  kyc: eventType === 'KYC_COMPLETED',
  ...(eventType === 'KYC_DOC_UPLOADED' ? { docCategory: 'IDENTITY', docSubCategory: 'PASSPORT' } : {}),
});

const REMOVE = Symbol('remove');

/** A deep copy of `value` with the field at the dotted `path` replaced, or removed. */
function withField(
  value: Record<string, unknown>,
  path: string,
  replacement: unknown,
): Record<string, unknown> {
  const copy = structuredClone(value);
  const keys = path.split('.');
  const last = keys.pop()!;
  const parent = keys.reduce((node, key) => node[key] as Record<string, unknown>, copy);
  if (replacement === REMOVE) Reflect.deleteProperty(parent, last);
  else parent[last] = replacement;
  return copy;
}

function parseError(run: () => unknown): EventParseError {
  try {
    run();
  } catch (error) {
    if (error instanceof EventParseError) return error;
    throw error;
  }
  throw new Error('expected an EventParseError, nothing was thrown');
}

describe('parseWebhookEvent accepts', () => {
  const valid: [string, ReturnType<typeof body>][] = [
    ['Orders', body('Orders', order)],
    ['Users', body('Users', user)],
    ['Actions', body('Actions', actionsData)],
    ['SystemInformation', body('SystemInformation', systemInformation)],
    ...KYC_EVENT_TYPES.map((type): [string, ReturnType<typeof body>] => [
      type,
      body('Users', kycUser(type), type),
    ]),
  ];

  it.each(valid)('a %s event', (_name, input) => {
    expect(parseWebhookEvent(input)).toEqual(input);
    expect(parseWebhookEventText(JSON.stringify(input))).toEqual(input);
  });

  it('any whole numRetries from 0: automatic retries stop at 3, manual redeliveries count on', () => {
    for (const numRetries of [0, 1, 2, 3, 4, 17, Number.MAX_SAFE_INTEGER]) {
      const input = withField(body('Users', user), 'event.numRetries', numRetries);
      expect(parseWebhookEvent(input)).toEqual(input);
    }
  });

  it('null where the API guide allows it, and an empty endTime', () => {
    const rejected = { ...order, status: 'REJECTED', rejectionReason: 'INSUFFICIENT_FUNDS' } satisfies Order;
    expect(parseWebhookEvent(body('Orders', rejected)).data).toEqual(rejected);
    const open = { ...systemInformation, startTime: null, endTime: null } satisfies SystemInformationData;
    expect(parseWebhookEvent(body('SystemInformation', open)).data).toEqual(open);
  });

  it('unknown extra fields, and keeps them', () => {
    const input = withField(
      withField(body('Orders', { ...order, venue: 'X' }), 'event.region', 'eu'),
      'id',
      'e-1',
    );
    expect(parseWebhookEvent(input)).toEqual(input);
  });
});

describe('parseWebhookEvent rejects, naming the field', () => {
  const orders = body('Orders', order);
  const users = body('Users', user);
  const actions = body('Actions', actionsData);
  const system = body('SystemInformation', systemInformation);
  const kyc = (type: KycEventType) => body('Users', kycUser(type), type);
  const oneOf = (values: readonly string[], got: string) =>
    `expected one of ${values.join(', ')}, got "${got}"`;
  const notIso = (got: string) => `expected an ISO 8601 UTC timestamp, got "${got}"`;

  it.each([
    // wrong types
    ['data.quantity', '0.5', 'expected a number, got string', orders],
    ['data.kyc', 'false', 'expected a boolean, got string', users],
    ['data.orgUserId', 7, 'expected a string, got number', users],
    ['data.rejectionReason', 0, 'expected a string, got number', orders],
    ['event', [], 'expected an object, got array', orders],
    ['data', null, 'expected an object, got null', orders],
    ['data.newValues', [1], 'expected an object, got array', actions],
    ['data.newValues.BTC', '10', 'expected a number, got string', actions],
    ['data.startTime', 0, 'expected a string, got number', system],
    // missing fields
    ['event', REMOVE, 'missing', orders],
    ['data', REMOVE, 'missing', orders],
    ['event.createdAt', REMOVE, 'missing', orders],
    ['data.commissionAsset', REMOVE, 'missing', orders],
    ['data.rejectionReason', REMOVE, 'missing', orders],
    ['data.tnc', REMOVE, 'missing', users],
    ['data.endTime', REMOVE, 'missing', system],
    // values outside the known sets
    ['event.entity', 'Trades', oneOf(ENTITY_NAMES, 'Trades'), orders],
    ['data.side', 'HOLD', oneOf(ORDER_SIDES, 'HOLD'), orders],
    ['data.type', 'ICEBERG', oneOf(ORDER_TYPES, 'ICEBERG'), orders],
    ['data.status', 'OPEN', oneOf(ORDER_STATUSES, 'OPEN'), orders],
    ['data.userStatus', 'active', oneOf(USER_STATUSES, 'active'), users],
    ['data.userType', 'ROBOT', oneOf(USER_TYPES, 'ROBOT'), users],
    ['data.name', 'DAILY_LIMIT', oneOf(ACTION_NAMES, 'DAILY_LIMIT'), actions],
    ['data.event', 'OUTAGE', oneOf(SYSTEM_NOTICES, 'OUTAGE'), system],
    // integers and finite numbers
    ['event.orgId', 42.5, 'expected an integer, got 42.5', orders],
    ['data.id', 1e-3, 'expected an integer, got 0.001', orders],
    ['data.orgId', '42', 'expected a number, got string', users],
    ['event.numRetries', -1, 'expected a whole number >= 0, got -1', orders],
    ['event.numRetries', 1.5, 'expected an integer, got 1.5', orders],
    ['event.numRetries', 2 ** 53, `expected a whole number >= 0, got ${2 ** 53}`, orders],
    ['event.numRetries', '4', 'expected a number, got string', orders],
    ['data.price', Number.NaN, 'expected a finite number, got NaN', orders],
    ['data.newValues.BTC', Infinity, 'expected a finite number, got Infinity', actions],
    // timestamps: ISO 8601, in UTC, and a real date
    ['event.createdAt', '2024-05-01 10:00:00Z', notIso('2024-05-01 10:00:00Z'), orders],
    ['event.updatedAt', '2024-05-01T12:00:00+02:00', notIso('2024-05-01T12:00:00+02:00'), orders],
    ['event.updatedAt', '2024-05-01T10:00:00.Z', notIso('2024-05-01T10:00:00.Z'), orders],
    ['data.createdAt', '2024-02-30T00:00:00.000Z', notIso('2024-02-30T00:00:00.000Z'), orders],
    ['data.createdAt', '2024-05-01T24:00:00.000Z', notIso('2024-05-01T24:00:00.000Z'), orders],
    ['data.updatedAt', 1714557600000, 'expected a string, got number', orders],
    // eventType only on KYC events of Users, and only KYC values
    ['event.eventType', 'KYC_PENDING', 'not allowed on Orders events, only on KYC events', orders],
    [
      'event.eventType',
      'ASSET_ENABLE',
      'not allowed on SystemInformation events, only on KYC events',
      system,
    ],
    ['event.eventType', 'USER_UPDATED', oneOf(KYC_EVENT_TYPES, 'USER_UPDATED'), users],
    // KYC_DOC_UPLOADED carries the document fields
    ['data.docCategory', REMOVE, 'missing', kyc('KYC_DOC_UPLOADED')],
    ['data.docSubCategory', null, 'expected a string, got null', kyc('KYC_DOC_UPLOADED')],
    // kyc is true exactly at KYC_COMPLETED
    ['data.kyc', false, 'expected true on KYC_COMPLETED events, got false', kyc('KYC_COMPLETED')],
    ['data.kyc', true, 'expected false on KYC_PENDING events, got true', kyc('KYC_PENDING')],
    ['data.kyc', true, 'expected false on KYC_DOC_UPLOADED events, got true', kyc('KYC_DOC_UPLOADED')],
    ['data.kyc', true, 'expected false on KYC_REJECTED events, got true', kyc('KYC_REJECTED')],
  ])('%s = %p', (path, value, reason, input) => {
    const error = parseError(() => parseWebhookEvent(withField(input, path, value)));
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('EventParseError');
    expect(error.path).toBe(path);
    expect(error.message).toBe(`${path}: ${reason}`);
  });

  it('a body that is not an object, with an empty path', () => {
    for (const [input, kind] of [
      [null, 'null'],
      [[], 'array'],
      ['{}', 'string'],
    ] as const) {
      expect(parseError(() => parseWebhookEvent(input))).toMatchObject({
        path: '',
        message: `expected an object, got ${kind}`,
      });
    }
  });

  it('text that is not JSON, with the same error type', () => {
    const error = parseError(() => parseWebhookEventText('{"event":'));
    expect(error.path).toBe('');
    expect(error.message).toMatch(/^invalid JSON: /);
    expect(error.cause).toBeInstanceOf(SyntaxError);
  });
});

describe('the record parsers', () => {
  it('accept a valid record and return it', () => {
    expect(parseUser(user)).toEqual(user);
    expect(parseOrder(order)).toEqual(order);
    expect(parseActionsData(actionsData)).toEqual(actionsData);
    expect(parseSystemInformationData(systemInformation)).toEqual(systemInformation);
  });

  it('name fields from the record itself', () => {
    expect(parseError(() => parseUser({ ...user, userType: 'ROBOT' }))).toMatchObject({ path: 'userType' });
    expect(parseError(() => parseOrder({ ...order, filled: '0.5' }))).toMatchObject({
      path: 'filled',
      message: 'filled: expected a number, got string',
    });
    expect(
      parseError(() => parseActionsData({ name: 'QUOTE_LIMIT', newValues: { EUR: null } })),
    ).toMatchObject({
      path: 'newValues.EUR',
    });
    expect(parseError(() => parseSystemInformationData('maintenance'))).toMatchObject({
      path: '',
      message: 'expected an object, got string',
    });
  });
});

describe('types', () => {
  const events = [
    body('Orders', order),
    body('Users', user),
    ...KYC_EVENT_TYPES.map((type) => body('Users', kycUser(type), type)),
  ].map(parseWebhookEvent);

  it('narrow the whole body with isEntityEvent and isKycEvent', () => {
    const seen: string[] = [];
    for (const e of events) {
      if (isEntityEvent(e, 'Orders')) {
        const quantity: number = e.data.quantity;
        seen.push(`order ${quantity}`);
      }
      if (isKycEvent(e, 'KYC_DOC_UPLOADED')) {
        const category: string = e.data.docCategory;
        seen.push(`document ${category}`);
      }
      if (isKycEvent(e)) {
        const eventType: KycEventType = e.event.eventType;
        seen.push(eventType);
      }
    }
    expect(seen).toEqual([
      'order 0.5',
      'KYC_PENDING',
      'document IDENTITY',
      ...KYC_EVENT_TYPES.filter((type) => type !== 'KYC_PENDING'),
    ]);
  });

  it('narrow the envelope, not the body, on event.entity', () => {
    const e: WebhookEvent = events[0]!;
    if (e.event.entity === 'Orders') {
      const event: OrdersEvent['event'] = e.event;
      expect(event.eventType).toBeUndefined();
      // @ts-expect-error TypeScript narrows e.event here, not e itself: isEntityEvent narrows e
      expect(e.data.quantity).toBe(0.5);
    }
  });

  it('give each KYC event its own data type, and no eventType to the others', () => {
    const document: KycEvent<'KYC_DOC_UPLOADED'>['data'] = { ...user, docCategory: 'A', docSubCategory: 'B' };
    // @ts-expect-error KYC_DOC_UPLOADED data needs the document fields
    const bare: KycEvent<'KYC_DOC_UPLOADED'>['data'] = user;
    // @ts-expect-error only KYC_DOC_UPLOADED data has the document fields
    const category: KycEvent<'KYC_COMPLETED'>['data']['docCategory'] = 'A';
    // @ts-expect-error an Orders envelope has no eventType
    const envelope: OrdersEvent['event'] = { ...body('Orders', order).event, eventType: 'KYC_PENDING' };
    expect([document, bare, category, envelope]).toHaveLength(4);
  });
});
