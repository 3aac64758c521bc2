// The console's sections, in the order its navigation shows them, each with the least role its pages
// need (auth/roles.ts: ADMIN holds every role, every role holds SUPPORT). The navigation shows an
// operator only the sections their role opens; the pages' controllers declare the same role with
// @RequireRole, which is what the guard enforces. A new section adds its link here and its controller to
// console.module.ts.
import type { OperatorRole } from '../auth/roles.js';
import { grantsRole } from '../auth/roles.js';
import type { NavLink } from '../web/components/layout.js';

export const CONSOLE_PATH = '/console';
export const CONSOLE_HOME = '/console/';
export const CONSOLE_SIGN_IN = '/console/sign-in';
export const KYC_QUEUE = '/console/kyc';

export interface ConsoleSection extends NavLink {
  /** The least role that opens it. */
  readonly role: OperatorRole;
  /** One line for the home page. */
  readonly description: string;
}

export const CONSOLE_NAV: readonly ConsoleSection[] = [
  { href: CONSOLE_HOME, label: 'Home', role: 'SUPPORT', description: 'Who you are and where to go.' },
  {
    href: KYC_QUEUE,
    label: 'KYC review',
    role: 'KYC_REVIEWER',
    description: 'Users waiting for a KYC decision, oldest first: their files, documents and decisions.',
  },
  {
    href: '/console/orgs',
    label: 'Organisations',
    role: 'SUPPORT',
    description: 'Create, plan, policy and limits, support e-mails, API keys and OAuth clients.',
  },
  { href: '/console/prices', label: 'Prices', role: 'SUPPORT', description: 'The prices orders execute at.' },
  {
    href: '/console/notices',
    label: 'Notices',
    role: 'SUPPORT',
    description: 'System notices and the trading halts they cause.',
  },
  {
    href: '/console/webhooks',
    label: 'Webhooks',
    role: 'SUPPORT',
    description: 'Failing webhook endpoints and FAILED events across organisations.',
  },
  { href: '/console/audit', label: 'Audit log', role: 'SUPPORT', description: 'Every operator write.' },
  {
    href: '/console/operators',
    label: 'Operators',
    role: 'ADMIN',
    description: 'Operator accounts: create, change a role, disable.',
  },
];

/** The sections `role` may open. */
export function sectionsFor(role: OperatorRole): ConsoleSection[] {
  return CONSOLE_NAV.filter((section) => grantsRole(role, section.role));
}
