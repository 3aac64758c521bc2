// A console form's fields as the admin api's body DTO: the same class, the same rules and the same messages
// (common/validation.ts), so a bad field answers the page's 400 naming the field and the rule, and nothing
// is written. HTML forms send text: an amount's digits become the exact decimal they spell (never a
// double), a list is one entry a line or comma-separated, an empty optional field is left out.
import { type ClassConstructor, plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';

import { badRequest } from '../common/errors.js';
import { NumberText } from '../common/decimal.js';
import { refuseHiddenKeys, validationMessages } from '../common/validation.js';

export type FormBody = Readonly<Record<string, unknown>> | undefined;

const DECIMAL = /^-?[0-9]{1,60}(\.[0-9]{1,60})?$/;

/** The field's text, trimmed; undefined when absent or empty. */
export function formText(body: FormBody, name: string): string | undefined {
  const value = body?.[name];
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** A number field: its exact decimal when it spells one, else its text (which the DTO's rule refuses). */
export function formNumber(body: FormBody, name: string): unknown {
  const text = formText(body, name);
  return text !== undefined && DECIMAL.test(text) ? new NumberText(text) : text;
}

/** A list field: entries split on new lines and commas, blanks dropped. */
export function formList(body: FormBody, name: string): string[] | undefined {
  const value = body?.[name];
  if (typeof value !== 'string') return undefined;
  return value
    .split(/[\n,]/)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

/**
 * A limit map field: `CODE amount` entries (or `CODE=amount`), one a line or comma-separated; an empty
 * field is the empty map. An entry that is not a code and an amount is kept as text for the rule to name.
 */
export function formMap(body: FormBody, name: string): Record<string, unknown> | undefined {
  const entries = formList(body, name);
  if (entries === undefined) return undefined;
  const map: Record<string, unknown> = {};
  for (const entry of entries) {
    const match = /^(\S+)\s*[=:\s]\s*(\S+)$/.exec(entry);
    if (!match) {
      map[entry] = entry;
      continue;
    }
    const [, code = '', amount = ''] = match;
    map[code] = DECIMAL.test(amount) ? new NumberText(amount) : amount;
  }
  return map;
}

/** The plain fields as `dto`, validated with the admin api's rules; a 400 naming each bad field. */
export async function formInput<T extends object>(dto: ClassConstructor<T>, plain: object): Promise<T> {
  const fields = Object.fromEntries(Object.entries(plain).filter(([, value]) => value !== undefined));
  refuseHiddenKeys(dto, fields);
  const input = plainToInstance(dto, fields);
  const errors = await validate(input, {
    whitelist: true,
    forbidNonWhitelisted: true,
    validationError: { target: false, value: false },
  });
  if (errors.length > 0) throw badRequest(validationMessages(errors).join('; '));
  return input;
}
