// What the routes answer, as JSON Schema (OpenAPI 3.1): one schema per view (the `*.view.ts` files and the
// services' small answers), closed (`additionalProperties: false`) so that a field added to a view without
// its schema fails the e2e tests that validate every answer against the document.
import { ORG_ENVIRONMENTS, ORG_PLANS } from '@svc/db';
import {
  KYC_EVENT_TYPES,
  ORDER_SCHEMA,
  SYSTEM_INFORMATION_DATA_SCHEMA,
  USER_SCHEMA,
  USER_STATUSES,
} from '@svc/protocol';

import { DASHBOARD_PAGES, DASHBOARD_PERMISSIONS } from '../auth/dashboard-permissions.js';

import {
  arrayOf,
  boolean,
  dateTime,
  enumOf,
  integer,
  number,
  orNull,
  record,
  ref,
  type Schema,
  string,
  uuid,
} from './schema-parts.js';

const amounts: Schema = {
  type: 'object',
  additionalProperties: number,
  description: 'Asset code to amount, codes in alphabetical order; a code absent has no limit',
};

const KYC_STATES = ['NONE', ...KYC_EVENT_TYPES];

const kycDocument = {
  id: uuid,
  docCategory: string,
  docSubCategory: string,
  fileName: string,
  contentType: enumOf(['application/pdf', 'image/jpeg', 'image/png']),
  sizeBytes: integer,
  sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
  createdAt: dateTime,
};

const policy = {
  enabledAssets: arrayOf(string),
  quoteLimit: amounts,
  totalLimit: amounts,
  totalExposure: amounts,
  assetExposure: amounts,
  commissionRate: number,
  vatRate: number,
};

const adminOrg = {
  orgId: integer,
  name: string,
  plan: enumOf(ORG_PLANS),
  environment: {
    ...enumOf(ORG_ENVIRONMENTS),
    description: 'SANDBOX: a test organisation (docs/testing.md); fixed at creation',
  },
  kycDomain: string,
  supportEmails: arrayOf({ type: 'string', format: 'email' }),
  policy: ref('OrgPolicy'),
  createdAt: dateTime,
  updatedAt: dateTime,
};

const apiKey = {
  id: uuid,
  orgId: integer,
  apiKey: { type: 'string', description: 'The public key (pk_…), sent as X-API-KEY' },
  label: string,
  createdAt: dateTime,
  revokedAt: orNull(dateTime),
  lastUsedAt: {
    ...orNull(dateTime),
    description: 'When it last signed a request, to the minute; null if never',
  },
};

const oauthClient = {
  id: uuid,
  orgId: integer,
  clientId: { type: 'string', description: 'The client_id (cl_…)' },
  scopes: arrayOf(string),
  label: string,
  createdAt: dateTime,
  revokedAt: orNull(dateTime),
  lastUsedAt: {
    ...orNull(dateTime),
    description: 'When one of its tokens last authenticated a request, to the minute; null if never',
  },
};

/** The views, by component name. */
export const VIEW_SCHEMAS: Record<string, Schema> = {
  User: record('A user: the record sent in Users events, where KYC stands, and timestamps', {
    ...USER_SCHEMA.properties,
    kycState: {
      ...enumOf(KYC_STATES),
      description: 'NONE before the first KYC step, then the last KYC event',
    },
    createdAt: dateTime,
    updatedAt: dateTime,
  }),
  KycDocument: record('A stored KYC document: everything but its content', kycDocument),
  KycForm: {
    ...record('The KYC form as stored', {
      firstName: string,
      lastName: string,
      dateOfBirth: { type: 'string', format: 'date' },
      nationality: string,
      address: {
        ...record('Where the user lives', {
          line1: string,
          line2: string,
          city: string,
          postalCode: string,
          country: string,
        }),
        required: ['line1', 'city', 'postalCode', 'country'],
      },
    }),
  },
  KycReview: record("The operator's last decision, with the text the organisation should act on", {
    eventType: enumOf(['KYC_COMPLETED', 'KYC_REJECTED', 'KYC_RFI']),
    message: orNull(string),
    at: dateTime,
  }),
  KycStatus: record(
    "Where a user's KYC stands: state, documents (without content), the form, the last review",
    {
      orgUserId: string,
      orgId: integer,
      kycState: enumOf(KYC_STATES),
      kyc: boolean,
      userStatus: enumOf(USER_STATUSES),
      expiresAt: {
        ...orNull(dateTime),
        description: 'When the current step expires; null when nothing is waiting',
      },
      documents: arrayOf(ref('KycDocument')),
      form: orNull(ref('KycForm')),
      review: orNull(ref('KycReview')),
    },
  ),
  Order: ORDER_SCHEMA,
  OrderList: record('Orders, oldest first', { items: arrayOf(ref('Order')) }),
  Positions: record("A user's non-zero positions, by asset code", {
    orgUserId: string,
    positions: arrayOf(record('A position', { asset: string, quantity: number, updatedAt: dateTime })),
  }),
  OrgPolicy: record('What the organisation may trade, its limits and its rates', policy),
  Organisation: record("The caller's organisation; `webhook` is null until one is registered", {
    ...adminOrg,
    webhook: orNull(
      record('The registered webhook', { url: string, status: enumOf(['ACTIVE', 'CHALLENGE_FAILED']) }),
    ),
  }),
  AdminOrganisation: record('An organisation on the operator surface', adminOrg),
  SandboxClock: record("A sandbox organisation's test clock", {
    orgId: integer,
    now: { ...dateTime, description: "The organisation's time" },
    offsetMs: { ...integer, minimum: 0, description: 'How far ahead of real time it is, in milliseconds' },
  }),
  TriggeredEvent: record('The event a trigger recorded', {
    eventId: { ...uuid, description: 'Its id in the event log (GET /api/v1/events/{id})' },
    orgUserId: { ...orNull(string), description: 'The user of a Users or Orders event; null otherwise' },
    createdUser: { ...boolean, description: 'Whether the trigger created that user' },
  }),
  OAuthToken: record('An access token (client credentials)', {
    access_token: string,
    expires_in: { type: 'integer', minimum: 1, description: 'Seconds' },
    token_type: enumOf(['Bearer']),
    scope: { type: 'string', description: 'The scopes granted, space-separated' },
  }),
  ApiKey: record('An API key; never its secret', apiKey),
  IssuedApiKey: record('A new API key with its secret: the only time the secret is shown', {
    ...apiKey,
    apiSecret: string,
  }),
  OAuthClient: record('An OAuth client; never its secret', oauthClient),
  IssuedOAuthClient: record('A new OAuth client with its secret: the only time the secret is shown', {
    ...oauthClient,
    clientSecret: string,
  }),
  RevokedOAuthClient: record('The revoked client and how many of its tokens were revoked with it', {
    ...oauthClient,
    tokensRevoked: integer,
  }),
  TokensRevoked: record('How many access tokens were revoked', { revoked: integer }),
  ApiKeyList: record("The organisation's API keys, oldest first", { items: arrayOf(ref('ApiKey')) }),
  OAuthClientList: record("The organisation's OAuth clients, oldest first", {
    items: arrayOf(ref('OAuthClient')),
  }),
  Price: record('An operator price', { symbol: string, price: number, updatedAt: dateTime }),
  PriceTick: record("A change of a pair's price", {
    symbol: string,
    price: number,
    at: { ...dateTime, description: "When it was quoted: the exchange's time for a feed" },
    source: { type: 'string', description: '`operator`, or the market-data feed (e.g. `binance`)' },
  }),
  PriceLevels: record(
    "A pair's book: BUY orders fill against its asks, SELL orders against its bids, each fill taking from the level's size; with no levels, orders fill at the operator price without a size limit",
    {
      symbol: string,
      asks: arrayOf(record('An ask level, lowest price first', { price: number, size: number })),
      bids: arrayOf(record('A bid level, highest price first', { price: number, size: number })),
    },
  ),
  Notice: record('A published system notice (sent as a SystemInformation event)', {
    id: { type: 'string', pattern: '^[1-9][0-9]{0,18}$' },
    ...SYSTEM_INFORMATION_DATA_SCHEMA.properties,
    createdAt: dateTime,
  }),
  PublishedNotice: record('The published notice and how many organisations its event went to', {
    id: { type: 'string', pattern: '^[1-9][0-9]{0,18}$' },
    ...SYSTEM_INFORMATION_DATA_SCHEMA.properties,
    createdAt: dateTime,
    recipients: {
      ...integer,
      minimum: 0,
      description: 'Organisations with an active webhook that got the event',
    },
  }),
  AuditEntry: record('One audit log entry', {
    id: { type: 'string', pattern: '^[1-9][0-9]{0,18}$' },
    actor: { type: 'string', description: "The operator's e-mail, or system:<what> for the service itself" },
    operatorId: { ...orNull(uuid), description: 'The operator who acted; null for the service itself' },
    action: string,
    orgId: orNull(integer),
    details: { type: 'object', description: 'What changed, by action' },
    createdAt: dateTime,
  }),
  DashboardLink: record('A single-use sign-in link to the organisation dashboard', {
    url: { type: 'string', format: 'uri', description: 'Open it in a browser once, before expiresAt' },
    expiresAt: { ...dateTime, description: 'The link is refused after this (ISO 8601, UTC)' },
    permissions: {
      type: 'array',
      items: enumOf(DASHBOARD_PERMISSIONS),
      description: 'What the session may do beyond reading',
    },
    pages: {
      type: 'array',
      items: enumOf(DASHBOARD_PAGES),
      description: 'The pages the session may see',
    },
    lifetimeSeconds: { type: 'integer', description: 'How long the session lasts once the link is opened' },
  }),
  DashboardSessionsEnded: record("The organisation's dashboard sessions ended and unused links voided", {
    sessionsEnded: { ...integer, minimum: 0 },
    linksRevoked: { ...integer, minimum: 0 },
  }),
  Health: record('The process is up', { status: enumOf(['ok']) }),
  Ready: record('The process can serve', { status: enumOf(['ready']) }),
};

/** A page of `item`: the list routes' answer. */
export function pageSchema(item: string): Schema {
  return record(`A page of ${item} items, in key order`, {
    items: arrayOf(ref(item)),
    nextCursor: {
      ...orNull(string),
      description: 'Pass as `cursor` for the next page; null on the last page',
    },
  });
}
