// `api-keys issue|list|revoke`: an organisation's API keys.
import { labelField } from './args.js';
import { ADMIN_ROUTES } from './client.js';
import type { CommandGroup } from './command.js';
import { page, record, SECRET_NOTE } from './format.js';

export const API_KEYS: CommandGroup = {
  issue: {
    args: ['orgId'],
    flags: ['label'],
    help: '<orgId> [--label <label>]',
    run: (client, [orgId = ''], values) =>
      client.call(ADMIN_ROUTES.issueApiKey, { orgId }, labelField(values)),
    text: (data) => record(data) + SECRET_NOTE,
  },
  list: {
    args: ['orgId'],
    flags: [],
    help: '<orgId>',
    run: (client, [orgId = '']) => client.call(ADMIN_ROUTES.listApiKeys, { orgId }),
    text: (data) => page(data, ['id', 'apiKey', 'label', 'createdAt', 'revokedAt']),
  },
  revoke: {
    args: ['orgId', 'id'],
    flags: [],
    help: '<orgId> <id or pk_… key>',
    run: (client, [orgId = '', id = '']) => client.call(ADMIN_ROUTES.revokeApiKey, { orgId, id }),
    text: record,
  },
};
