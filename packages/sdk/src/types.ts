// What the api's organisation endpoints take and answer. The records the API guide defines (User, Order, the
// events' data) are the protocol package's, derived from its JSON Schemas; the rest mirrors the api's views
// (apps/api/src/*/…view.ts), written by hand and held against the api's OpenAPI document by
// test/openapi-drift.spec.ts (names, optionality and types of every method's answer and request body).
import type {
  ActionsData,
  EntityName,
  KycDocumentUser,
  KycEventType,
  Order,
  OrderRejectionReason,
  OrderSide,
  OrderStatus,
  OrderType,
  Scope,
  SystemInformationData,
  TimeInForce,
  User,
  UserStatus,
  WebhookEvent,
} from '@svc/protocol';

import type { DeliveryErrorKind, WebhookStatus } from './webhook-types.js';

export type {
  ActionsData,
  EntityName,
  KycDocumentUser,
  Order,
  OrderSide,
  OrderStatus,
  OrderType,
  Scope,
  SystemInformationData,
  TimeInForce,
  User,
  UserStatus,
};

/** One page of a list: pass `nextCursor` as `cursor` for the next one; null on the last page. */
export interface Page<T> {
  readonly items: T[];
  readonly nextCursor: string | null;
}

export interface PageParams {
  /** 1 to 100; the api's default is 20. */
  readonly limit?: number;
  /** A `nextCursor` of the previous page. */
  readonly cursor?: string;
}

export type OrgPlan = 'STANDARD' | 'ENTERPRISE';

/** SANDBOX: a test organisation, with the test clock, magic values and triggered events; fixed at creation. */
export type OrgEnvironment = 'LIVE' | 'SANDBOX';

export interface OrgPolicy {
  readonly enabledAssets: string[];
  /** Limits by currency or asset code (codes in alphabetical order); a code absent has no limit. */
  readonly quoteLimit: Record<string, number>;
  readonly totalLimit: Record<string, number>;
  readonly totalExposure: Record<string, number>;
  readonly assetExposure: Record<string, number>;
  readonly commissionRate: number;
  readonly vatRate: number;
}

/** GET /api/v1/org/. */
export interface Organisation {
  readonly orgId: number;
  readonly name: string;
  readonly plan: OrgPlan;
  readonly environment: OrgEnvironment;
  readonly kycDomain: string;
  readonly supportEmails: string[];
  readonly policy: OrgPolicy;
  /** Null until a webhook is registered. */
  readonly webhook: { readonly url: string; readonly status: WebhookStatus } | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** Where a user's KYC stands: NONE before the first step, then the last KYC event. */
export type KycState = 'NONE' | KycEventType;

/** A user as the api answers it: the API guide's record, where KYC stands, and timestamps. */
export interface UserView extends User {
  readonly kycState: KycState;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface CreateUserParams {
  /** 1 to 128 characters among letters, digits and `. _ : @ -`. */
  readonly orgUserId: string;
  /** True when the organisation ran KYC itself: the user is ACTIVE at once. */
  readonly kyc: boolean;
  readonly tnc: boolean;
}

export interface ListUsersParams extends PageParams {
  readonly userStatus?: UserStatus;
  readonly kyc?: boolean;
  readonly tnc?: boolean;
}

export interface UpdateUserParams {
  readonly tnc: boolean;
}

export type KycDocumentType = 'application/pdf' | 'image/jpeg' | 'image/png';

export interface KycDocument {
  readonly id: string;
  readonly docCategory: string;
  readonly docSubCategory: string;
  readonly fileName: string;
  readonly contentType: KycDocumentType;
  readonly sizeBytes: number;
  /** Lowercase hex. */
  readonly sha256: string;
  readonly createdAt: string;
}

export interface KycAddress {
  readonly line1: string;
  readonly line2?: string;
  readonly city: string;
  readonly postalCode: string;
  /** ISO 3166-1 alpha-2, capitals. */
  readonly country: string;
}

/** Body of POST /api/v1/user/{orgUserId}/kyc/form/. */
export interface KycForm {
  readonly firstName: string;
  readonly lastName: string;
  /** YYYY-MM-DD. */
  readonly dateOfBirth: string;
  /** ISO 3166-1 alpha-2, capitals. */
  readonly nationality: string;
  readonly address: KycAddress;
}

export interface KycReview {
  readonly eventType: 'KYC_COMPLETED' | 'KYC_REJECTED' | 'KYC_RFI';
  readonly message: string | null;
  readonly at: string;
}

/** What every KYC endpoint answers. */
export interface KycStatus {
  readonly orgUserId: string;
  readonly orgId: number;
  readonly kycState: KycState;
  readonly kyc: boolean;
  readonly userStatus: UserStatus;
  /** When the current step expires unless the process moves on; null when nothing is waiting. */
  readonly expiresAt: string | null;
  readonly documents: KycDocument[];
  readonly form: KycForm | null;
  readonly review: KycReview | null;
}

export interface UploadKycDocumentParams {
  /** The file's bytes: PDF, JPEG or PNG, at most 10 MiB. */
  readonly file: Uint8Array | Blob;
  /** Default `document`. */
  readonly fileName?: string;
  /** Default: the Blob's type, else application/octet-stream (the api then judges by the content). */
  readonly contentType?: string;
  /** What the document is for, e.g. IDENTITY. */
  readonly docCategory: string;
  /** Which document it is, e.g. PASSPORT. */
  readonly docSubCategory: string;
}

export * from './webhook-types.js';

interface CreateOrderBase {
  readonly orgUserId: string;
  /**
   * The idempotency key (a UUID): the same id with the same parameters answers the same order. The
   * client generates one when it is left out, so that its own retries are safe.
   */
  readonly clientOrderId?: string;
  /** BASE_QUOTE, e.g. BTC_EUR. */
  readonly symbol: string;
  readonly side: OrderSide;
  readonly type: OrderType;
  /** Not for MARKET orders: GTC (the default), IOC, FOK (LIMIT only), DAY or GTD (with expireAt). */
  readonly timeInForce?: TimeInForce;
  /** LIMIT and STOP_LIMIT: the worst price to fill at. */
  readonly limitPrice?: number;
  /** STOP and STOP_LIMIT: the last price that triggers the order. */
  readonly stopPrice?: number;
  /** GTD only: when the rest of the order expires (ISO 8601 with a zone), in the future. */
  readonly expireAt?: string;
}

/**
 * An order by base quantity or (MARKET only) by quote quantity, exactly one of the two; the api checks which
 * prices and time in force each type takes (docs/api-guide.md#orders).
 */
export type CreateOrderParams =
  | (CreateOrderBase & { readonly quantity: number; readonly quoteQuantity?: never })
  | (CreateOrderBase & { readonly quoteQuantity: number; readonly quantity?: never });

/** The new order of a replace: a new clientOrderId; what is left out is the old order's. */
export interface ReplaceOrderParams {
  /** Generated when left out: a retry of the same call then answers the same new order. */
  readonly clientOrderId?: string;
  readonly quantity?: number;
  readonly limitPrice?: number;
  readonly stopPrice?: number;
  readonly timeInForce?: TimeInForce;
  readonly expireAt?: string;
}

/** The orders a cancel of a user's open orders cancelled, oldest first. */
export interface OrderList {
  readonly items: Order[];
}

export interface ListOrdersParams extends PageParams {
  readonly orgUserId?: string;
  readonly symbol?: string;
  readonly side?: OrderSide;
  readonly status?: OrderStatus;
  readonly clientOrderId?: string;
}

/** Why an order was REJECTED (or FAILED: VENUE_ERROR). A rejection is a 200 with the order, not an error. */
export type { OrderRejectionReason };

export interface Position {
  readonly asset: string;
  readonly quantity: number;
  readonly updatedAt: string;
}

export interface Positions {
  readonly orgUserId: string;
  readonly positions: Position[];
}

/** POST /api/v1/oauth/test answers the JSON it was sent. */
export type JsonObject = { readonly [key: string]: unknown };

export type { KycEventType };
export type ScopeList = readonly Scope[] | string;

/** What a dashboard session may do beyond reading. */
export type DashboardPermission = 'MANAGE_WEBHOOKS' | 'REVEAL_SECRET' | 'MANAGE_CREDENTIALS';

/** A page of the dashboard that a session may see. */
export type DashboardPage =
  'OVERVIEW' | 'WEBHOOK' | 'EVENTS' | 'USERS' | 'ORDERS' | 'CREDENTIALS' | 'CATALOGUE';

/**
 * What the session may do and see, within the caller's scopes: a permission or page needing a scope the
 * caller does not hold is refused (403 naming the scope); docs/dashboard.md#what-a-session-may-do.
 */
export interface CreateDashboardSessionParams {
  /** Omitted or empty: the session only reads. */
  readonly permissions?: readonly DashboardPermission[];
  /** Omitted: every page the caller's scopes allow. */
  readonly pages?: readonly DashboardPage[];
  /** How long the session lasts once the link is opened: 60 to 604800 seconds, default 3600. */
  readonly lifetimeSeconds?: number;
}

/** A single-use sign-in link to the organisation dashboard. */
export interface DashboardLink {
  readonly url: string;
  /** The link is refused after this (ISO 8601). */
  readonly expiresAt: string;
  readonly permissions: DashboardPermission[];
  readonly pages: DashboardPage[];
  readonly lifetimeSeconds: number;
}

export interface DashboardSessionsEnded {
  readonly sessionsEnded: number;
  readonly linksRevoked: number;
}

/** Where an event's webhook delivery stands: being delivered or retried, delivered, given up, or skipped (no webhook). */
export type EventStatus = 'PENDING' | 'DELIVERED' | 'FAILED' | 'SKIPPED';

/**
 * PENDING: its first attempt is still to be made; RETRYING: an attempt failed and the next is scheduled
 * (a redelivery now makes it at once); DELIVERED; FAILED: retries or window over; SKIPPED: no webhook.
 */
export type DeliveryState = 'PENDING' | 'RETRYING' | 'DELIVERED' | 'FAILED' | 'SKIPPED';

export interface EventDelivery {
  readonly state: DeliveryState;
  /** When the next attempt is made, while PENDING or RETRYING; else null. */
  readonly nextAttemptAt: string | null;
  /** While RETRYING, the latest failed attempt; else null. */
  readonly lastError: {
    readonly at: string;
    readonly errorKind: DeliveryErrorKind | null;
    readonly statusCode: number | null;
    readonly response: string;
  } | null;
}

/** One event of the organisation's log (GET /api/v1/events/). */
export interface EventLogEntry {
  /** The event's id, the svc-event-id of its webhook deliveries. */
  readonly id: string;
  readonly status: EventStatus;
  /** Where its delivery stands, with a retrying event's next attempt and last error. */
  readonly delivery: EventDelivery;
  /**
   * The body the webhook carries, as its first delivery did: `event.numRetries` 0 and `event.updatedAt`
   * its `createdAt` (a redelivery differs in those two only).
   */
  readonly body: WebhookEvent;
}

export interface ListEventsParams extends PageParams {
  readonly entity?: EntityName;
  /** Only KYC events of this type. */
  readonly eventType?: KycEventType;
  /** Only events whose webhook delivery is in this status. */
  readonly status?: EventStatus;
  /** Only events created at or after this time (a Date, or ISO 8601 text with a zone). */
  readonly since?: Date | string;
  /** Only events created before this time. */
  readonly until?: Date | string;
}

/** A sandbox organisation's test clock (GET and POST /api/v1/sandbox/clock). */
export interface SandboxClock {
  readonly orgId: number;
  /** The organisation's time. */
  readonly now: string;
  /** How far ahead of real time it is, in milliseconds. */
  readonly offsetMs: number;
}

/** Exactly one of the two. */
export interface AdvanceClockParams {
  /** Seconds to move the clock forward. */
  readonly advanceBy?: number;
  /** The ISO 8601 time to move it to: not before the clock's. */
  readonly to?: string;
}

/** What to trigger (POST /api/v1/sandbox/events). */
export interface TriggerEventParams {
  readonly entity: EntityName;
  /** A KYC event (entity Users only). */
  readonly eventType?: KycEventType;
  /** The user of a Users or Orders event; without it a new sandbox user is created. */
  readonly orgUserId?: string;
}

/** The event a trigger recorded. */
export interface TriggeredEvent {
  readonly eventId: string;
  /** The user of a Users or Orders event; null otherwise. */
  readonly orgUserId: string | null;
  /** Whether the trigger created that user. */
  readonly createdUser: boolean;
}
