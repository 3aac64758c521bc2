// `orgs create|list|get|update`, and `orgs bootstrap`: an organisation with an API key and an OAuth client.
import { labelField, pageQuery, requireFlags, scopesFlag, type Values } from './args.js';
import { ADMIN_ROUTES, type AdminClient, type OrgFields } from './client.js';
import type { CommandGroup } from './command.js';
import { CommandError } from './errors.js';
import { type Data, page, record, SECRETS_NOTE } from './format.js';

/** The organisation fields given as flags, as the api names them. */
export function orgFields(values: Values): OrgFields {
  const fields: OrgFields = {};
  if (values.name !== undefined) fields.name = values.name;
  if (values['kyc-domain'] !== undefined) fields.kycDomain = values['kyc-domain'];
  if (values.plan !== undefined) fields.plan = values.plan;
  if (values.environment !== undefined) fields.environment = values.environment;
  if (values['support-email'] !== undefined) fields.supportEmails = values['support-email'];
  if (values['no-support-emails']) fields.supportEmails = [];
  return fields;
}

/** An organisation with an API key and an OAuth client, all credentials in one flat object. */
async function bootstrap(client: AdminClient, _args: readonly string[], values: Values): Promise<Data> {
  requireFlags(values, ['name', 'kyc-domain', 'plan']);
  const scopes = scopesFlag(values);
  const org = await client.call(ADMIN_ROUTES.createOrg, {}, orgFields(values));
  const orgId = String(org.orgId);
  try {
    const key = await client.call(ADMIN_ROUTES.issueApiKey, { orgId }, labelField(values));
    const oauth = await client.call(
      ADMIN_ROUTES.issueOAuthClient,
      { orgId },
      { scopes, ...labelField(values) },
    );
    return {
      baseUrl: client.baseUrl,
      orgId: org.orgId,
      name: org.name,
      kycDomain: org.kycDomain,
      plan: org.plan,
      environment: org.environment,
      supportEmails: org.supportEmails,
      apiKey: key.apiKey,
      apiSecret: key.apiSecret,
      clientId: oauth.clientId,
      clientSecret: oauth.clientSecret,
      scopes: oauth.scopes,
    };
  } catch (error) {
    if (!(error instanceof CommandError)) throw error;
    throw new CommandError(
      `${error.message}\n(organisation ${orgId} was created; finish with \`api-keys issue ${orgId}\` and \`clients issue ${orgId}\`)`,
      error.status,
    );
  }
}

export const ORGS: CommandGroup = {
  create: {
    args: [],
    flags: ['name', 'kyc-domain', 'plan', 'environment', 'support-email'],
    help:
      '--name <name> --kyc-domain <host> --plan STANDARD|ENTERPRISE [--environment LIVE|SANDBOX] ' +
      '[--support-email <address>]...',
    run: (client, _args, values) => client.call(ADMIN_ROUTES.createOrg, {}, orgFields(values)),
    text: record,
  },
  list: {
    args: [],
    flags: ['limit', 'cursor'],
    help: '[--limit <n>] [--cursor <nextCursor>]',
    run: (client, _args, values) => client.call(ADMIN_ROUTES.listOrgs, {}, pageQuery(values)),
    text: (data) => page(data, ['orgId', 'plan', 'kycDomain', 'name']),
  },
  get: {
    args: ['orgId'],
    flags: [],
    help: '<orgId>',
    run: (client, [orgId = '']) => client.call(ADMIN_ROUTES.getOrg, { orgId }),
    text: record,
  },
  update: {
    args: ['orgId'],
    flags: ['name', 'kyc-domain', 'plan', 'support-email', 'no-support-emails'],
    help:
      '<orgId> [--name <name>] [--kyc-domain <host>] [--plan <plan>] ' +
      '[--support-email <address>]... (replaces the list) [--no-support-emails]',
    run: (client, [orgId = ''], values) => client.call(ADMIN_ROUTES.updateOrg, { orgId }, orgFields(values)),
    text: record,
  },
  bootstrap: {
    args: [],
    flags: ['name', 'kyc-domain', 'plan', 'environment', 'support-email', 'scopes', 'label'],
    help:
      '--name <name> --kyc-domain <host> --plan <plan> [--environment LIVE|SANDBOX] ' +
      '[--support-email <address>]... ' +
      '--scopes "<MODULE:PERMISSION> ..." [--label <label>]: an organisation, an API key and an OAuth client',
    run: bootstrap,
    text: (data) => record(data) + SECRETS_NOTE,
  },
};
