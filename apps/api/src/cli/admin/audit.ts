// `audit list`: the audit log, filtered and a page at a time.
import { pageQuery } from './args.js';
import { ADMIN_ROUTES } from './client.js';
import type { CommandGroup } from './command.js';
import { page } from './format.js';

export const AUDIT: CommandGroup = {
  list: {
    args: [],
    flags: ['org', 'action', 'limit', 'cursor'],
    help: '[--org <orgId>] [--action <e.g. api-key.revoke>] [--limit <n>] [--cursor <nextCursor>]',
    run: (client, _args, values) =>
      client.call(
        ADMIN_ROUTES.listAudit,
        {},
        { orgId: values.org, action: values.action, ...pageQuery(values) },
      ),
    text: (data) => page(data, ['createdAt', 'actor', 'action', 'orgId', 'details']),
  },
};
