// What a dashboard session may do beyond reading (docs/dashboard.md#permissions). A sign-in link names its
// permissions; without any, the session only reads.
export const DASHBOARD_PERMISSIONS = ['MANAGE_WEBHOOKS', 'REVEAL_SECRET', 'MANAGE_CREDENTIALS'] as const;
export type DashboardPermission = (typeof DASHBOARD_PERMISSIONS)[number];

export const PERMISSION_DESCRIPTIONS: Readonly<Record<DashboardPermission, string>> = {
  MANAGE_WEBHOOKS: 'change the webhook URL or secret and send test events',
  REVEAL_SECRET: "show the webhook's secret (each time is audited)",
  MANAGE_CREDENTIALS: 'revoke API keys and OAuth clients',
};

export function isDashboardPermission(value: string): value is DashboardPermission {
  return (DASHBOARD_PERMISSIONS as readonly string[]).includes(value);
}

/** The session's lifetime: the default, and the most a link may ask for (7 days). */
export const SESSION_LIFETIME_SECONDS = { default: 3600, min: 60, max: 7 * 24 * 3600 } as const;
