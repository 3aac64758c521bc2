// The dashboard's sections, in the order its navigation shows them. A new page adds its name to
// DASHBOARD_PAGES and DASHBOARD_SCOPES (auth/dashboard-permissions.ts), its link here, and its controller, which
// declares it with @DashboardRead, to dashboard.module.ts.
import type { NavLink } from '../web/components/layout.js';
import { DASHBOARD_PAGES, type DashboardPageName } from '../auth/dashboard-permissions.js';

export const DASHBOARD_HOME = '/dashboard/';

export const DASHBOARD_NAV: Readonly<Record<DashboardPageName, NavLink>> = {
  OVERVIEW: { href: DASHBOARD_HOME, label: 'Overview' },
  WEBHOOK: { href: '/dashboard/webhook', label: 'Webhook' },
  EVENTS: { href: '/dashboard/events', label: 'Events' },
  USERS: { href: '/dashboard/users', label: 'Users' },
  ORDERS: { href: '/dashboard/orders', label: 'Orders' },
  CREDENTIALS: { href: '/dashboard/credentials', label: 'API keys' },
  CATALOGUE: { href: '/dashboard/catalogue', label: 'Event catalogue' },
};

/** The navigation of a session that may see `pages`: only their links, in DASHBOARD_PAGES order. */
export function navFor(pages: readonly DashboardPageName[]): NavLink[] {
  return DASHBOARD_PAGES.filter((page) => pages.includes(page)).map((page) => DASHBOARD_NAV[page]);
}

/** Where a session starts: the first of its pages (the overview when it has it). */
export function landingPath(pages: readonly DashboardPageName[]): string {
  return navFor(pages)[0]?.href ?? DASHBOARD_HOME;
}
