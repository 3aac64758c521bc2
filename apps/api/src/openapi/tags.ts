// The document's tags, in the order /docs shows them, and the groups they fall in (x-tagGroups).
export const TAG_GROUPS = ['Organisation API', 'Operator API', 'Operations'] as const;

/** Tags in the order /docs shows them: the organisation's, then the operator's, then the probes. */
export const TAGS: readonly { name: string; description: string; group: (typeof TAG_GROUPS)[number] }[] = [
  {
    name: 'Authentication',
    group: 'Organisation API',
    description: 'Access tokens (OAuth 2.0 client credentials) and a signed echo to test request signing',
  },
  { name: 'Organisation', group: 'Organisation API', description: "The caller's own organisation" },
  { name: 'Users', group: 'Organisation API', description: "The organisation's users" },
  {
    name: 'KYC',
    group: 'Organisation API',
    description: "A user's KYC: documents, the form, and where it stands",
  },
  { name: 'Orders', group: 'Organisation API', description: 'Market orders for users, and their positions' },
  {
    name: 'Webhooks',
    group: 'Organisation API',
    description: "The organisation's webhook endpoint and its deliveries",
  },
  {
    name: 'Events',
    group: 'Organisation API',
    description: "The organisation's events: the log, and a stream to follow them as they happen",
  },
  {
    name: 'Sandbox',
    group: 'Organisation API',
    description: "A sandbox organisation's test clock and triggered events; 404 for a live organisation",
  },
  {
    name: 'Dashboard',
    group: 'Organisation API',
    description: 'Sign-in links to the organisation dashboard (/dashboard/), and ending its sessions',
  },
  {
    name: 'Operator: Sign-in and tokens',
    group: 'Operator API',
    description: 'Console sign-in, step-up and personal API tokens',
  },
  {
    name: 'Operator: Operators',
    group: 'Operator API',
    description: 'Operator accounts and their roles',
  },
  {
    name: 'Operator: Organisations',
    group: 'Operator API',
    description: 'Organisations',
  },
  {
    name: 'Operator: Credentials',
    group: 'Operator API',
    description: "Organisations' API keys, OAuth clients and tokens",
  },
  { name: 'Operator: KYC review', group: 'Operator API', description: "The operator's KYC decisions" },
  {
    name: 'Operator: Trading',
    group: 'Operator API',
    description: "Prices and organisations' trading policies",
  },
  {
    name: 'Operator: Notices',
    group: 'Operator API',
    description: 'System notices sent to every organisation',
  },
  { name: 'Operator: Audit', group: 'Operator API', description: 'The log of every operator write' },
  {
    name: 'Operations',
    group: 'Operations',
    description:
      'Liveness and readiness, outside /api/v1 (/metrics, for Prometheus, is described in docs/operations.md)',
  },
];
