// `audit list`: the audit log, filtered by organisation, action, operator and time, a page at a time.
import { pageQuery } from './args.js';
import { ADMIN_ROUTES } from './client.js';
import type { CommandGroup } from './command.js';
import { page } from './format.js';

/** `--operator` names the operator by id or, holding an @, by e-mail. */
export function operatorFilter(value: string | undefined): {
  operatorId?: string;
  operatorEmail?: string;
} {
  if (value === undefined) return {};
  return value.includes('@') ? { operatorEmail: value } : { operatorId: value };
}

export const AUDIT: CommandGroup = {
  list: {
    args: [],
    flags: ['org', 'action', 'operator', 'from', 'to', 'limit', 'cursor'],
    help:
      '[--org <orgId>] [--action <e.g. api-key.revoke>] [--operator <operator id or e-mail>] [--from <time>] ' +
      '[--to <time>] [--limit <n>] [--cursor <nextCursor>]',
    run: (client, _args, values) =>
      client.call(
        ADMIN_ROUTES.listAudit,
        {},
        {
          orgId: values.org,
          action: values.action,
          ...operatorFilter(values.operator),
          from: values.from,
          to: values.to,
          ...pageQuery(values),
        },
      ),
    text: (data) => page(data, ['createdAt', 'actor', 'action', 'orgId', 'details']),
  },
};
