// `policy set`: an organisation's trading policy, each flag replacing its field whole.
import { amountArg, limitMapArg, type Values } from './args.js';
import { ADMIN_ROUTES, type PolicyFields } from './client.js';
import type { CommandGroup } from './command.js';
import { UsageError } from './errors.js';
import { record } from './format.js';

const LIMIT_FLAGS = {
  'quote-limit': 'quoteLimit',
  'total-limit': 'totalLimit',
  'total-exposure': 'totalExposure',
  'asset-exposure': 'assetExposure',
} as const;

/** The body of PATCH .../policy from the flags given; each one replaces that field whole. */
export function policyFields(values: Values): PolicyFields {
  const fields: PolicyFields = {};
  const assets = values['enabled-assets'];
  if (assets !== undefined)
    fields.enabledAssets = assets === '' ? [] : assets.split(',').map((code) => code.trim());
  for (const flag of Object.keys(LIMIT_FLAGS) as (keyof typeof LIMIT_FLAGS)[]) {
    const text = values[flag];
    if (text !== undefined) fields[LIMIT_FLAGS[flag]] = limitMapArg(flag, text);
  }
  if (values['commission-rate'] !== undefined)
    fields.commissionRate = amountArg('--commission-rate', values['commission-rate']);
  if (values['vat-rate'] !== undefined) fields.vatRate = amountArg('--vat-rate', values['vat-rate']);
  if (Object.keys(fields).length === 0)
    throw new UsageError(
      'policy set needs at least one of --enabled-assets, --quote-limit, --total-limit, ' +
        '--total-exposure, --asset-exposure, --commission-rate, --vat-rate',
    );
  return fields;
}

export const POLICY: CommandGroup = {
  set: {
    args: ['orgId'],
    flags: [
      'enabled-assets',
      'quote-limit',
      'total-limit',
      'total-exposure',
      'asset-exposure',
      'commission-rate',
      'vat-rate',
    ],
    help:
      '<orgId> [--enabled-assets BTC,ETH] [--quote-limit EUR=1000,USD=900] [--total-limit ...] ' +
      '[--total-exposure ...] [--asset-exposure BTC=2] [--commission-rate 0.0015] [--vat-rate 0.21]: ' +
      'each flag replaces that field ("" clears a list or map); changed limits emit Actions events',
    run: (client, [orgId = ''], values) =>
      client.call(ADMIN_ROUTES.setPolicy, { orgId }, policyFields(values)),
    text: record,
  },
};
