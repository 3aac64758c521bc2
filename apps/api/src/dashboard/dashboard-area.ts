// The organisation dashboard as a web area (web/web-areas.ts): its path, its name, what its error pages
// add, and its navigation. Loaded with dashboard.module.ts, which registers it before the app answers.
import { registerWebArea } from '../web/web-areas.js';
import { DASHBOARD_PAGES } from '../auth/dashboard-permissions.js';
import { DASHBOARD_NAV } from './nav.js';

export const DASHBOARD_AREA = registerWebArea({
  path: '/dashboard',
  name: 'Organisation dashboard',
  hints: {
    401: "Your session has ended or this link was already used. Ask your organisation's backend for a new sign-in link.",
    403: 'This session was not given the permission this needs. Ask for a link with it.',
    404: 'There is nothing here, or it belongs to another organisation.',
  },
  nav: DASHBOARD_PAGES.map((page) => DASHBOARD_NAV[page]),
});
