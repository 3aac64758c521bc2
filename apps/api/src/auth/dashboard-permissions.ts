// What a dashboard session may do and see (docs/dashboard.md#what-a-session-may-do). A sign-in link names
// its permissions (without any, the session only reads) and its pages (without any, every page its creator
// may see); each needs the organisation scopes of DASHBOARD_SCOPES, which the credential asking for the
// link must hold: a session never does more than the API key or token that made it.
import { grantsScope, type Scope } from '@svc/protocol';

export const DASHBOARD_PERMISSIONS = ['MANAGE_WEBHOOKS', 'REVEAL_SECRET', 'MANAGE_CREDENTIALS'] as const;
export type DashboardPermission = (typeof DASHBOARD_PERMISSIONS)[number];

export const PERMISSION_DESCRIPTIONS: Readonly<Record<DashboardPermission, string>> = {
  MANAGE_WEBHOOKS: 'change the webhook URL or secret and send test events',
  REVEAL_SECRET: "show the webhook's secret (each time is audited)",
  MANAGE_CREDENTIALS: 'revoke API keys and OAuth clients',
};

/** The dashboard's pages, in the order its navigation shows them (nav.ts). */
export const DASHBOARD_PAGES = [
  'OVERVIEW',
  'WEBHOOK',
  'EVENTS',
  'USERS',
  'ORDERS',
  'CREDENTIALS',
  'CATALOGUE',
] as const;
export type DashboardPageName = (typeof DASHBOARD_PAGES)[number];

/**
 * The organisation scopes (all of them) that each permission and each page needs: what a request of the api
 * needs for the same reads and writes. Revealing the webhook secret is more than either reading or
 * registering the webhook (it signs as us to the receiver), so it needs both. Revoking credentials can take
 * away any scope, so it needs every one, as an API key holds.
 */
export const DASHBOARD_SCOPES: {
  readonly permissions: Readonly<Record<DashboardPermission, readonly Scope[]>>;
  readonly pages: Readonly<Record<DashboardPageName, readonly Scope[]>>;
} = {
  permissions: {
    MANAGE_WEBHOOKS: ['BASE_MODULE:WRITE'],
    REVEAL_SECRET: ['BASE_MODULE:READWRITE'],
    MANAGE_CREDENTIALS: ['BASE_MODULE:READWRITE', 'MANAGE_USERS:READWRITE'],
  },
  pages: {
    OVERVIEW: ['BASE_MODULE:READ'],
    WEBHOOK: ['BASE_MODULE:READ'],
    EVENTS: ['BASE_MODULE:READ'],
    // A user's page shows the user's KYC and documents, and positions.
    USERS: ['MANAGE_USERS:READ', 'BASE_MODULE:READ'],
    ORDERS: ['BASE_MODULE:READ'],
    CREDENTIALS: ['BASE_MODULE:READ'],
    // The catalogue of event kinds, the same for every organisation (as in the OpenAPI document).
    CATALOGUE: [],
  },
};

/** The first scope of `needed` that `held` does not grant (READWRITE grants READ and WRITE); undefined if none. */
export function missingScope(held: readonly Scope[], needed: readonly Scope[]): Scope | undefined {
  return needed.find((scope) => !grantsScope(held, scope));
}

/** The pages whose scopes `held` grants, in navigation order. */
export function pagesGrantedBy(held: readonly Scope[]): DashboardPageName[] {
  return DASHBOARD_PAGES.filter((page) => missingScope(held, DASHBOARD_SCOPES.pages[page]) === undefined);
}

/** What `needed` asks of a credential, in words: `BASE_MODULE:READ and MANAGE_USERS:READ`, or `no scope`. */
export function scopesText(needed: readonly Scope[]): string {
  return needed.length === 0 ? 'no scope' : needed.join(' and ');
}

export function isDashboardPermission(value: string): value is DashboardPermission {
  return (DASHBOARD_PERMISSIONS as readonly string[]).includes(value);
}

export function isDashboardPage(value: string): value is DashboardPageName {
  return (DASHBOARD_PAGES as readonly string[]).includes(value);
}

/** The session's lifetime: the default, and the most a link may ask for (7 days). */
export const SESSION_LIFETIME_SECONDS = { default: 3600, min: 60, max: 7 * 24 * 3600 } as const;
