// `operators create|list|get|update|disable|reset` (ADMIN; docs/operators.md) and `personal-tokens
// create|list|revoke` (any operator, their own tokens).
import { requireFlags, type Values } from './args.js';
import { ADMIN_ROUTES, type OperatorFields } from './client.js';
import type { CommandGroup } from './command.js';
import { UsageError } from './errors.js';
import { page, record, SECRET_NOTE } from './format.js';

const SETUP_NOTE =
  '\nThe setupToken above is shown once: hand it to the operator, who enrols with it (docs/operators.md).';

function operatorFields(values: Values): OperatorFields {
  const fields: OperatorFields = {};
  if (values.email !== undefined) fields.email = values.email;
  if (values.name !== undefined) fields.name = values.name;
  if (values.role !== undefined) fields.role = values.role;
  return fields;
}

function days(values: Values): { expiresInDays?: number } {
  if (values.days === undefined) return {};
  if (!/^[1-9][0-9]{0,2}$/.test(values.days)) throw new UsageError('--days must be a whole number of days');
  return { expiresInDays: Number(values.days) };
}

export const OPERATORS: CommandGroup = {
  create: {
    args: [],
    flags: ['email', 'name', 'role'],
    help: '--email <address> --name <name> --role <role>: answers their setupToken (with ADMIN_TOKEN: the first ADMIN)',
    run: (client, _args, values) => {
      requireFlags(values, ['email', 'name', 'role']);
      return client.call(ADMIN_ROUTES.createOperator, {}, operatorFields(values));
    },
    text: (data) => record(data) + SETUP_NOTE,
  },
  list: {
    args: [],
    flags: [],
    help: '',
    run: (client) => client.call(ADMIN_ROUTES.listOperators, {}),
    text: (data) => page(data, ['id', 'role', 'status', 'email']),
  },
  get: {
    args: ['id'],
    flags: [],
    help: '<operator id>',
    run: (client, [id = '']) => client.call(ADMIN_ROUTES.getOperator, { id }),
    text: record,
  },
  update: {
    args: ['id'],
    flags: ['name', 'role'],
    help: '<operator id> [--name <name>] [--role <role>]',
    run: (client, [id = ''], values) =>
      client.call(ADMIN_ROUTES.updateOperator, { id }, operatorFields(values)),
    text: record,
  },
  disable: {
    args: ['id'],
    flags: [],
    help: '<operator id>: no more sign-in; their sessions and tokens end',
    run: (client, [id = '']) => client.call(ADMIN_ROUTES.disableOperator, { id }),
    text: record,
  },
  reset: {
    args: ['id'],
    flags: [],
    help: '<operator id>: a lost password or authenticator; answers a new setupToken',
    run: (client, [id = '']) => client.call(ADMIN_ROUTES.resetOperator, { id }),
    text: (data) => record(data) + SETUP_NOTE,
  },
};

export const PERSONAL_TOKENS: CommandGroup = {
  create: {
    args: [],
    flags: ['label', 'days'],
    help: '[--label <label>] [--days <n>]: a new personal token for you (needs --otp)',
    run: (client, _args, values) =>
      client.call(
        ADMIN_ROUTES.issuePersonalToken,
        {},
        {
          ...(values.label === undefined ? {} : { label: values.label }),
          ...days(values),
        },
      ),
    text: (data) => record(data) + SECRET_NOTE,
  },
  list: {
    args: [],
    flags: [],
    help: '',
    run: (client) => client.call(ADMIN_ROUTES.listPersonalTokens, {}),
    text: (data) => page(data, ['id', 'label', 'expiresAt', 'lastUsedAt', 'revokedAt']),
  },
  revoke: {
    args: ['id'],
    flags: [],
    help: '<token id>',
    run: (client, [id = '']) => client.call(ADMIN_ROUTES.revokePersonalToken, { id }),
    text: record,
  },
};

export const SESSION: CommandGroup = {
  show: {
    args: [],
    flags: [],
    help: 'who you are, and until when your token is stepped up',
    run: (client) => client.call(ADMIN_ROUTES.whoAmI, {}),
    text: record,
  },
  'step-up': {
    args: ['code'],
    flags: [],
    help: '<code>: a TOTP code from your authenticator; sensitive commands then need none for a few minutes',
    run: (client, [code = '']) => client.call(ADMIN_ROUTES.stepUp, {}, { code }),
    text: record,
  },
};
