// A web area's submitted forms, for both faces: the fields read as the api's body DTO takes them and checked
// with the same class, rules and messages (common/validation.ts), so a bad field is refused naming the
// field and the rule, and nothing is written. HTML forms send text: an amount's digits become the exact
// decimal they spell (never a double), a list is one entry a line or comma-separated, an empty optional
// field is left out. A refused form keeps the values typed so far and each field's errors, so that a page
// can show it again with them (FormState).
import { type ClassConstructor, plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';

import { NumberText } from '../common/decimal.js';
import { badRequest } from '../common/errors.js';
import { hiddenKeyMessages, VALIDATOR_OPTIONS, validationMessages } from '../common/validation.js';
import { CSRF_FIELD } from '../common/csrf-tokens.js';

/** A form's body as the form parser hands it over: field names to text (or absent). */
export type FormBody = Readonly<Record<string, unknown>> | undefined;

/** The values of a form as typed, by field name. */
export type FormValues = Readonly<Record<string, string>>;

/** The messages of each refused field, by field name (a nested rule counts for its top field). */
export type FieldErrors = Readonly<Record<string, readonly string[]>>;

const DECIMAL = /^-?[0-9]{1,60}(\.[0-9]{1,60})?$/;

/** The field's text as typed, untrimmed; '' when absent or not text. */
export function formTyped(body: FormBody, name: string): string {
  const value = body?.[name];
  return typeof value === 'string' ? value : '';
}

/** The field's text, trimmed; undefined when absent or empty. */
export function formText(body: FormBody, name: string): string | undefined {
  const trimmed = formTyped(body, name).trim();
  return trimmed === '' ? undefined : trimmed;
}

/** A number field: its exact decimal when it spells one, else its text (which the DTO's rule refuses). */
export function formNumber(body: FormBody, name: string): unknown {
  const text = formText(body, name);
  return text !== undefined && DECIMAL.test(text) ? new NumberText(text) : text;
}

/** A list field: entries split on new lines and commas, blanks dropped; undefined when absent. */
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

/**
 * Every text field of the form as typed, for showing it again: never the CSRF token, nor the fields named
 * in `withheld` (a password, an authenticator code: typed again, not sent back in a page).
 */
export function formValues(body: FormBody, withheld: readonly string[] = []): FormValues {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(body ?? {})) {
    if (typeof value !== 'string' || name === CSRF_FIELD || withheld.includes(name)) continue;
    values[name] = value;
  }
  return values;
}

/** What checking a form gave: the DTO, or each refused field's messages and the message that names them all. */
export type FormCheck<T> =
  | { readonly ok: true; readonly input: T }
  | { readonly ok: false; readonly errors: FieldErrors; readonly message: string };

/** The top field a message is about: what comes before the first space, dot, colon or bracket. */
const fieldOf = (message: string) => /^[^\s.:[]*/.exec(message)?.[0] ?? '';

/**
 * The plain fields as `dto`, checked with the api's rules (absent fields left out): the DTO, or the
 * messages of each refused field.
 */
export async function checkForm<T extends object>(
  dto: ClassConstructor<T>,
  plain: object,
): Promise<FormCheck<T>> {
  const fields = Object.fromEntries(Object.entries(plain).filter(([, value]) => value !== undefined));
  let messages = hiddenKeyMessages(dto, fields);
  if (messages.length === 0) {
    const input = plainToInstance(dto, fields);
    const errors = await validate(input, VALIDATOR_OPTIONS);
    if (errors.length === 0) return { ok: true, input };
    messages = validationMessages(errors);
  }
  const errors: Record<string, string[]> = {};
  for (const message of messages) (errors[fieldOf(message)] ??= []).push(message);
  return { ok: false, errors, message: messages.join('; ') };
}

/** The plain fields as `dto`, checked with the api's rules; else the 400 naming each bad field. */
export async function formInput<T extends object>(dto: ClassConstructor<T>, plain: object): Promise<T> {
  const checked = await checkForm(dto, plain);
  if (!checked.ok) throw badRequest(checked.message);
  return checked.input;
}

/**
 * A form as a page shows it: the values typed so far and each field's errors (empty for a fresh form).
 * A field's input takes `value(name)` and `describe(name, id)`; its error is shown by the element of id
 * `errorId(id)`.
 */
export class FormState {
  static readonly EMPTY = new FormState({}, {});

  constructor(
    readonly values: FormValues,
    readonly errors: FieldErrors,
  ) {}

  /** The state of a refused form: what was sent (less the withheld fields) and the check's errors. */
  static refused(body: FormBody, errors: FieldErrors, withheld: readonly string[] = []): FormState {
    return new FormState(formValues(body, withheld), errors);
  }

  get refused(): boolean {
    return Object.keys(this.errors).length > 0;
  }

  /** The field's value as typed, or `fallback` (a fresh form's default). */
  value(name: string, fallback = ''): string {
    return this.values[name] ?? fallback;
  }

  /** The field's error messages (none when it was accepted or not sent). */
  errorsOf(name: string): readonly string[] {
    return this.errors[name] ?? [];
  }

  /** The id of the element that shows the errors of the input of id `id`. */
  static errorId(id: string): string {
    return `${id}-error`;
  }

  /** The input's attributes saying it was refused and where its error is; none when it was not. */
  describe(
    name: string,
    id: string,
  ): { readonly 'aria-invalid'?: 'true'; readonly 'aria-describedby'?: string } {
    return this.errorsOf(name).length > 0
      ? { 'aria-invalid': 'true', 'aria-describedby': FormState.errorId(id) }
      : {};
  }
}
