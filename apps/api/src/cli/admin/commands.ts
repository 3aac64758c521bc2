// Every command group by its first word, in the order the usage lists them.
import { API_KEYS } from './api-keys.js';
import { AUDIT } from './audit.js';
import { CLIENTS } from './clients.js';
import type { Command, CommandGroup } from './command.js';
import { NOTICES } from './notices.js';
import { OPERATORS, PERSONAL_TOKENS, SESSION } from './operators.js';
import { ORGS } from './orgs.js';
import { POLICY } from './policy.js';
import { PRICES } from './prices.js';
import { TOKENS } from './tokens.js';

export const GROUPS: Readonly<Record<string, CommandGroup>> = {
  orgs: ORGS,
  'api-keys': API_KEYS,
  clients: CLIENTS,
  tokens: TOKENS,
  audit: AUDIT,
  prices: PRICES,
  policy: POLICY,
  notices: NOTICES,
  session: SESSION,
  operators: OPERATORS,
  'personal-tokens': PERSONAL_TOKENS,
};

/** Every command by its two words, e.g. `orgs create`. */
export const COMMANDS: Readonly<Record<string, Command>> = Object.fromEntries(
  Object.entries(GROUPS).flatMap(([group, commands]) =>
    Object.entries(commands).map(([name, command]) => [`${group} ${name}`, command]),
  ),
);
