// The dashboard's sections, in the order its navigation shows them. A new page adds its link here and its
// controller to dashboard.module.ts.
import type { NavLink } from '../web/components/layout.js';

export const DASHBOARD_HOME = '/dashboard/';

export const DASHBOARD_NAV: readonly NavLink[] = [
  { href: DASHBOARD_HOME, label: 'Overview' },
  { href: '/dashboard/webhook', label: 'Webhook' },
  { href: '/dashboard/events', label: 'Events' },
  { href: '/dashboard/users', label: 'Users' },
  { href: '/dashboard/orders', label: 'Orders' },
  { href: '/dashboard/credentials', label: 'API keys' },
  { href: '/dashboard/catalogue', label: 'Event catalogue' },
];
