// `clients issue|list|revoke`: an organisation's OAuth clients.
import { labelField, scopesFlag } from './args.js';
import { ADMIN_ROUTES } from './client.js';
import type { CommandGroup } from './command.js';
import { page, record, SECRET_NOTE } from './format.js';

export const CLIENTS: CommandGroup = {
  issue: {
    args: ['orgId'],
    flags: ['scopes', 'label'],
    help: '<orgId> --scopes "<MODULE:PERMISSION> ..." [--label <label>]',
    run: (client, [orgId = ''], values) =>
      client.call(
        ADMIN_ROUTES.issueOAuthClient,
        { orgId },
        { scopes: scopesFlag(values), ...labelField(values) },
      ),
    text: (data) => record(data) + SECRET_NOTE,
  },
  list: {
    args: ['orgId'],
    flags: [],
    help: '<orgId>',
    run: (client, [orgId = '']) => client.call(ADMIN_ROUTES.listOAuthClients, { orgId }),
    text: (data) => page(data, ['id', 'clientId', 'scopes', 'label', 'createdAt', 'revokedAt']),
  },
  revoke: {
    args: ['orgId', 'id'],
    flags: [],
    help: '<orgId> <id or cl_… client id>: revokes its access tokens too',
    run: (client, [orgId = '', id = '']) => client.call(ADMIN_ROUTES.revokeOAuthClient, { orgId, id }),
    text: record,
  },
};
