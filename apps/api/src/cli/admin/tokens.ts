// `tokens revoke`: every live access token of an organisation.
import { ADMIN_ROUTES } from './client.js';
import type { CommandGroup } from './command.js';
import { record } from './format.js';

export const TOKENS: CommandGroup = {
  revoke: {
    args: ['orgId'],
    flags: [],
    help: '<orgId>: every live access token of the organisation (its clients may get new ones)',
    run: (client, [orgId = '']) => client.call(ADMIN_ROUTES.revokeTokens, { orgId }),
    text: record,
  },
};
