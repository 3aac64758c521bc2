// Webhook event bodies (docs/api-guide.md#users-events, docs/api-guide.md#orders-events, docs/api-guide.md#events): the names each field may take, the body
// types, and guards that narrow a received event. The records themselves are record-schemas.ts's.
import type { FromSchema } from './json-schema.js';
import type {
  ActionsData,
  EVENT_ENVELOPE_SCHEMA,
  KycDocumentUser,
  Order,
  SystemInformationData,
  User,
} from './record-schemas.js';

export const ENTITY_NAMES = ['Orders', 'Users', 'Actions', 'SystemInformation'] as const;
export type EntityName = (typeof ENTITY_NAMES)[number];

export const KYC_EVENT_TYPES = [
  'KYC_PENDING',
  'KYC_DOC_UPLOADED',
  'KYC_FORM_SUBMITTED',
  'KYC_COMPLETED',
  'KYC_REJECTED',
  'KYC_RFI',
  'KYC_EXPIRED',
] as const;
export type KycEventType = (typeof KYC_EVENT_TYPES)[number];

export const USER_STATUSES = ['PENDING', 'ACTIVE', 'REJECTED', 'SUSPENDED'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

export const USER_TYPES = ['CONSUMER', 'BUSINESS'] as const;
export type UserType = (typeof USER_TYPES)[number];

export const ORDER_SIDES = ['BUY', 'SELL'] as const;
export type OrderSide = (typeof ORDER_SIDES)[number];

/** MARKET fills at once; LIMIT, STOP and STOP_LIMIT may rest (docs/api-guide.md#orders). */
export const ORDER_TYPES = ['MARKET', 'LIMIT', 'STOP', 'STOP_LIMIT'] as const;
export type OrderType = (typeof ORDER_TYPES)[number];

/** How long an order other than MARKET may rest; a MARKET order fills in full at once or is refused. */
export const TIME_IN_FORCE = ['GTC', 'IOC', 'FOK', 'DAY', 'GTD'] as const;
export type TimeInForce = (typeof TIME_IN_FORCE)[number];

/**
 * PENDING rests with nothing filled, PARTIALLY_FILLED rests with some; COMPLETED, CANCELLED, EXPIRED,
 * REJECTED and FAILED are final.
 */
export const ORDER_STATUSES = [
  'PENDING',
  'PARTIALLY_FILLED',
  'COMPLETED',
  'CANCELLED',
  'EXPIRED',
  'REJECTED',
  'FAILED',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** The statuses of an order that may still fill. */
export const OPEN_ORDER_STATUSES = ['PENDING', 'PARTIALLY_FILLED'] as const;

/**
 * Why an order is CANCELLED: asked for (REQUESTED), replaced by a new order (REPLACED), the rest of an IOC
 * order (IMMEDIATE_OR_CANCEL), or a check that failed at a later fill (one of ORDER_REJECTION_REASONS).
 */
export const ORDER_CANCEL_REASONS = ['REQUESTED', 'REPLACED', 'IMMEDIATE_OR_CANCEL'] as const;
export type OrderCancelReason = (typeof ORDER_CANCEL_REASONS)[number];

/**
 * Why an order is REJECTED (a failed check, in the order they are made) or FAILED (VENUE_ERROR). The
 * record's `rejectionReason` is typed `string | null` so that a reason added later still parses.
 */
export const ORDER_REJECTION_REASONS = [
  'USER_NOT_ACTIVE',
  'KYC_NOT_COMPLETED',
  'TNC_NOT_ACCEPTED',
  'ASSET_NOT_ENABLED',
  'ASSET_DISABLED',
  'PRICE_UNAVAILABLE',
  'AMOUNT_TOO_SMALL',
  'QUOTE_LIMIT',
  'TOTAL_LIMIT',
  'INSUFFICIENT_HOLDINGS',
  'TOTAL_EXPOSURE',
  'ASSET_EXPOSURE',
  'VENUE_ERROR',
  'INSUFFICIENT_LIQUIDITY',
] as const;
export type OrderRejectionReason = (typeof ORDER_REJECTION_REASONS)[number];

export const ACTION_NAMES = [
  'QUOTE_LIMIT',
  'TOTAL_LIMIT',
  'TOTAL_EXPOSURE',
  'ASSET_EXPOSURE',
  'ASSET_ENABLE',
] as const;
export type ActionName = (typeof ACTION_NAMES)[number];

export const SYSTEM_NOTICES = ['MAINTENANCE_ALERTS', 'ASSET_ENABLE', 'ASSET_DISABLE'] as const;
export type SystemNotice = (typeof SYSTEM_NOTICES)[number];

/**
 * Automatic retries after the first attempt (docs/api-guide.md#delivery-retries-and-the-24-hour-window).
 * Not a bound of `numRetries`: a manual redelivery after them counts as one more.
 */
export const MAX_EVENT_RETRIES = 3;

/** The `event` field of every webhook body, with `entity` narrowed to `E`. */
export type EventEnvelope<E extends EntityName = EntityName> = Omit<
  FromSchema<typeof EVENT_ENVELOPE_SCHEMA>,
  'entity'
> & { entity: E };

export interface NonKycEventEnvelope<E extends EntityName = EntityName> extends EventEnvelope<E> {
  eventType?: never;
}

export interface KycEventEnvelope<T extends KycEventType = KycEventType> extends EventEnvelope<'Users'> {
  eventType: T;
}

export interface OrdersEvent {
  event: NonKycEventEnvelope<'Orders'>;
  data: Order;
}

/** A user record changed outside the KYC flow. */
export interface UsersEvent {
  event: NonKycEventEnvelope<'Users'>;
  data: User;
}

/** Distributes over `T`, so `KycEvent` is the union of one body type per KYC event type. */
export type KycEvent<T extends KycEventType = KycEventType> = T extends 'KYC_DOC_UPLOADED'
  ? { event: KycEventEnvelope<T>; data: KycDocumentUser }
  : { event: KycEventEnvelope<T>; data: User };

export interface ActionsEvent {
  event: NonKycEventEnvelope<'Actions'>;
  data: ActionsData;
}

export interface SystemInformationEvent {
  event: NonKycEventEnvelope<'SystemInformation'>;
  data: SystemInformationData;
}

export type WebhookEvent = OrdersEvent | UsersEvent | KycEvent | ActionsEvent | SystemInformationEvent;

export type EntityEvent<E extends EntityName> = Extract<WebhookEvent, { event: { entity: E } }>;

// TypeScript narrows a union by a property of the value tested, not by a property of one of its
// fields: `e.event.entity === 'Orders'` narrows `e.event` but leaves `e.data` a union. These guards
// narrow the whole body.

export function isEntityEvent<E extends EntityName>(event: WebhookEvent, entity: E): event is EntityEvent<E> {
  return event.event.entity === entity;
}

/** Without `eventType`, true for every KYC event. */
export function isKycEvent<T extends KycEventType>(event: WebhookEvent, eventType?: T): event is KycEvent<T> {
  const actual = event.event.eventType;
  return actual !== undefined && (eventType === undefined || actual === eventType);
}
