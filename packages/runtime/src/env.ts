// Reading an environment through a class-validator class (immich's env.dto.ts): every bad variable is
// one line `NAME: rule (got "value")`, secrets never echoed, and a start refused with all of them at once.
import 'reflect-metadata';

import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';

export type EnvSource = Readonly<Record<string, string | undefined>>;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';

  constructor(readonly problems: readonly string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
  }
}

/** The variables of `source` as an instance of `Env` (numbers converted by its @Type), and one line per bad one. */
export function readEnvironment<Env extends object>(
  Env: new () => Env,
  source: EnvSource,
): { env: Env; problems: string[] } {
  const env = plainToInstance(Env, source, { enableImplicitConversion: false });
  const problems = validateSync(env, { whitelist: false }).map((error) =>
    problemLine(error, source[error.property]),
  );
  return { env, problems };
}

/** Rules on the kind of value: when one fails, range rules (checked on NaN for "abc") only add noise. */
const KIND_RULES = new Set(['isInt', 'isIn', 'isUrl', 'isBase64', 'isString']);
/** Never echoed back: a near miss would print the secret to the terminal and the logs. */
const SECRET_VARIABLES = new Set(['MASTER_KEY', 'ADMIN_TOKEN', 'METRICS_TOKEN', 'OIDC_CLIENT_SECRET']);

/** `NAME: the rule (got the value as set)`, e.g. `PORT: must be an integer number (got "abc")`. */
function problemLine(error: ValidationError, raw: string | undefined): string {
  const failed = Object.entries(error.constraints ?? {});
  const kind = failed.filter(([rule]) => KIND_RULES.has(rule));
  const rules = (kind.length > 0 ? kind : failed).map(([, message]) =>
    message.startsWith(`${error.property} `) ? message.slice(error.property.length + 1) : message,
  );
  const shown = SECRET_VARIABLES.has(error.property)
    ? `${raw?.length ?? 0} characters, not shown`
    : // A URL's password (DATABASE_URL, SMTP_URL) is a secret too.
      JSON.stringify(raw?.replace(/\/\/([^:/@]*):[^@/]*@/, '//$1:***@'));
  return `${error.property}: ${rules.join('; ')} (got ${shown})`;
}
