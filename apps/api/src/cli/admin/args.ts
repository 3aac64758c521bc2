// The command line: every flag the CLI knows, and the pure parsers that turn flag and argument text into
// what the api reads (amounts, limit maps, scopes), refusing what would not arrive intact.
import { parseArgs } from 'node:util';

import { parseScopes, ScopeError } from '@svc/protocol';

import { UsageError } from './errors.js';

/** The decimals of amounts, prices and rates (numeric(38,8) in the api). */
export const AMOUNT_DECIMALS = 8;

export const OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  url: { type: 'string' },
  token: { type: 'string' },
  otp: { type: 'string' },
  actor: { type: 'string' },
  email: { type: 'string' },
  role: { type: 'string' },
  days: { type: 'string' },
  name: { type: 'string' },
  'kyc-domain': { type: 'string' },
  plan: { type: 'string' },
  environment: { type: 'string' },
  'support-email': { type: 'string', multiple: true },
  'no-support-emails': { type: 'boolean' },
  label: { type: 'string' },
  scopes: { type: 'string' },
  org: { type: 'string' },
  action: { type: 'string' },
  operator: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  limit: { type: 'string' },
  cursor: { type: 'string' },
  'enabled-assets': { type: 'string' },
  'quote-limit': { type: 'string' },
  'total-limit': { type: 'string' },
  'total-exposure': { type: 'string' },
  'asset-exposure': { type: 'string' },
  'commission-rate': { type: 'string' },
  'vat-rate': { type: 'string' },
  event: { type: 'string' },
  entity: { type: 'string' },
  message: { type: 'string' },
  start: { type: 'string' },
  end: { type: 'string' },
} as const;

export type Values = ReturnType<
  typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>
>['values'];
export type Flag = keyof typeof OPTIONS;

/** The flags every command takes. */
export const COMMON_FLAGS: readonly Flag[] = ['json', 'help', 'url', 'token', 'otp', 'actor'];

/** `argv` as flag values and positionals; node's own messages for bad flags, as a UsageError. */
export function parseCommandLine(argv: readonly string[]): { values: Values; positionals: string[] } {
  try {
    return parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

export function requireFlags(values: Values, flags: readonly Flag[]): void {
  const missing = flags.filter((flag) => values[flag] === undefined);
  if (missing.length > 0) throw new UsageError(`missing ${missing.map((flag) => `--${flag}`).join(', ')}`);
}

/** Checked here as well as by the api, so `orgs bootstrap` fails before it creates anything. */
export function scopesFlag(values: Values): string {
  requireFlags(values, ['scopes']);
  const text = values.scopes ?? '';
  try {
    if (parseScopes(text).length === 0)
      throw new UsageError('--scopes must name at least one MODULE:PERMISSION');
  } catch (error) {
    if (error instanceof ScopeError) throw new UsageError(`--scopes: ${error.message}`);
    throw error;
  }
  return text;
}

/** --limit and --cursor as the query of a list route. */
export const pageQuery = (values: Values): { limit: string | undefined; cursor: string | undefined } => ({
  limit: values.limit,
  cursor: values.cursor,
});

/** The optional --label, as the api names it. */
export const labelField = (values: Values): { label?: string } =>
  values.label === undefined ? {} : { label: values.label };

/** `1e-8` as `0.00000001`: String(number) writes exponents for very small and very large values. */
export function plainDecimal(value: number): string {
  const text = String(value);
  const match = /^(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  const digits = (match[1] ?? '') + (match[2] ?? '');
  const point = (match[1] ?? '').length + Number(match[3]);
  if (point <= 0) return `0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return digits + '0'.repeat(point - digits.length);
  return `${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** numeric(38,8) leaves 30 digits before the point; the api refuses more. */
export const AMOUNT_INTEGER_DIGITS = 30;

const { rawJSON } = JSON as unknown as { rawJSON: (text: string) => object };

/**
 * A decimal argument as the JSON number the api reads, written with exactly the digits given
 * (`JSON.rawJSON`, so no double rounds it on the way): at most 8 decimals and 30 digits before the point.
 * A sign is passed on: the api, not the CLI, says which amounts may be negative (`prices set BTC_EUR -- -5`
 * gets the api's 400).
 */
export function amountArg(name: string, text: string): number {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new UsageError(`${name} must be a decimal number such as 1000 or 0.0015 (got "${text}")`);
  const [, sign = '', whole = '', decimals = ''] = match;
  if (decimals.length > AMOUNT_DECIMALS)
    throw new UsageError(`${name} must have at most ${AMOUNT_DECIMALS} decimals (got "${text}")`);
  const integer = whole.replace(/^0+(?=\d)/, '');
  if (integer.length > AMOUNT_INTEGER_DIGITS)
    throw new UsageError(
      `${name} must have at most ${AMOUNT_INTEGER_DIGITS} digits before the point (got "${text}")`,
    );
  const fraction = decimals.replace(/0+$/, '');
  const digits = fraction ? `${integer}.${fraction}` : integer;
  return rawJSON(digits === '0' ? '0' : `${sign}${digits}`) as unknown as number;
}

/** `EUR=1000,USD=900.5` as {EUR: 1000, USD: 900.5}; an empty value is the empty map (no limits). */
export function limitMapArg(flag: Flag, text: string): Record<string, number> {
  const map: Record<string, number> = {};
  for (const entry of text === '' ? [] : text.split(',')) {
    const [code = '', amount, extra] = entry.trim().split('=');
    if (amount === undefined || extra !== undefined || code === '')
      throw new UsageError(`--${flag} takes CODE=amount pairs separated by commas (got "${entry}")`);
    if (Object.hasOwn(map, code)) throw new UsageError(`--${flag} names ${code} twice`);
    map[code] = amountArg(`--${flag} ${code}`, amount);
  }
  return map;
}
