// Request validation with class-validator: unknown fields are refused, and every message names the field
// and the rule (docs/api-guide.md#errors).
import { type ArgumentMetadata, ValidationPipe, type ValidationError } from '@nestjs/common';
import { getMetadataStorage, ValidateIf } from 'class-validator';

import { badRequest } from './errors.js';

/** Field names come from the request (an unknown key is named): long ones are cut. */
const MAX_FIELD_NAME = 100;

/** Each failed rule as `field message`, nested fields by their path. */
export function validationMessages(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const name =
      error.property.length > MAX_FIELD_NAME ? `${error.property.slice(0, MAX_FIELD_NAME)}…` : error.property;
    const path = parent ? `${parent}.${name}` : name;
    const own = Object.values(error.constraints ?? {}).map((constraint) => {
      const text = constraint.replaceAll(error.property, name);
      // class-validator writes "orgUserId must be a string"; nested fields get their full path.
      return text.startsWith(name) ? `${path}${text.slice(name.length)}` : `${path}: ${text}`;
    });
    return [...own, ...validationMessages(error.children ?? [], path)];
  });
}

/** What every DTO is checked with: unknown fields refused, and no values echoed in the errors. */
export const VALIDATOR_OPTIONS = {
  whitelist: true,
  forbidNonWhitelisted: true,
  validationError: { target: false, value: false },
} as const;

export function createValidationPipe(): ValidationPipe {
  memoiseRuleLookups();
  return new UnknownKeysValidationPipe({
    ...VALIDATOR_OPTIONS,
    transform: true,
    // Types are the DTO's own business: no silent "1" -> 1 conversion of JSON bodies.
    transformOptions: { enableImplicitConversion: false },
    exceptionFactory: (errors) => badRequest(validationMessages(errors).join('; ')),
  });
}

/**
 * The ValidationPipe, with the unknown keys class-transformer would drop unseen refused first. Building
 * the DTO, class-transformer skips a key whose name the new object already answers with a function or a
 * getter: `toString`, `hasOwnProperty`, `valueOf` and the other members of Object.prototype at any depth,
 * and the DTO's own methods at the top. Such a key then never reaches the whitelist check
 * (forbidNonWhitelisted), and the request went through as if it had not been sent.
 */
class UnknownKeysValidationPipe extends ValidationPipe {
  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (this.toValidate(metadata) && metadata.metatype) refuseHiddenKeys(metadata.metatype, value);
    return super.transform(value, metadata) as Promise<unknown>;
  }
}

type DtoClass = abstract new (...args: never[]) => unknown;

/**
 * `path: property key should not exist` for each key of `plain` that class-transformer would drop building
 * a `dto` from it (see UnknownKeysValidationPipe); check it before plainToInstance wherever a DTO is built
 * by hand.
 */
export function hiddenKeyMessages(dto: DtoClass, plain: unknown): string[] {
  const prototype = dto.prototype as object;
  return inheritedKeys(plain, '', (key) => key in prototype);
}

/** Throws the 400 naming each key {@link hiddenKeyMessages} finds. */
export function refuseHiddenKeys(dto: DtoClass, plain: unknown): void {
  const problems = hiddenKeyMessages(dto, plain);
  if (problems.length > 0) throw badRequest(problems.join('; '));
}

const inObjectPrototype = (key: string) => key in Object.prototype;

/** `path: property key should not exist` for each key of `value` that class-transformer would skip. */
function inheritedKeys(value: unknown, parent: string, inherited: (key: string) => boolean): string[] {
  if (Array.isArray(value)) {
    return value.flatMap((item, index) => inheritedKeys(item, `${parent}[${index}]`, inObjectPrototype));
  }
  if (!isPlainObject(value)) return [];
  const problems: string[] = [];
  for (const key of Object.keys(value)) {
    const name = key.length > MAX_FIELD_NAME ? `${key.slice(0, MAX_FIELD_NAME)}…` : key;
    const path = parent ? `${parent}.${name}` : name;
    if (inherited(key)) problems.push(`${path}: property ${name} should not exist`);
    else problems.push(...inheritedKeys(value[key], path, inObjectPrototype));
  }
  return problems;
}

/** A record of a body or a query: an object literal, or one of null prototype (as the query parser makes). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value) as object | null;
  return prototype === null || prototype === Object.prototype || Object.getPrototypeOf(prototype) === null;
}

/** Validates the field when it is present; null is validated (and refused), unlike @IsOptional(). */
export const IfPresent = () => ValidateIf((_object: object, value: unknown) => value !== undefined);

type MetadataStorage = ReturnType<typeof getMetadataStorage>;
type Rules = ReturnType<MetadataStorage['getTargetValidationMetadatas']>;
type RulesByProperty = ReturnType<MetadataStorage['groupByPropertyName']>;
const memoised = new WeakSet<MetadataStorage>();

/**
 * class-validator finds a class's rules afresh on every validation (its own, then those of every class
 * registered that it extends: an instanceof test per DTO of the app), and the ValidationPipe a second time
 * for its binary-value check (the pipe's time on the signed write's body 17 -> 12 µs, on the order's 37 -> 24
 * µs in a micro-benchmark; for the signed routes' CPU target: docs/decisions.md, "Request path: validation
 * rules kept per DTO class"). The rules are fixed once the classes are loaded, so each lookup without groups
 * or schema is kept per class and options, with its grouping by property; registering a rule (a class loaded
 * late) forgets them all. The callers only read what they get.
 */
function memoiseRuleLookups(storage: MetadataStorage = getMetadataStorage()): void {
  if (memoised.has(storage)) return;
  memoised.add(storage);
  const lookups = new Map<unknown, Map<string, Rules>>();
  // Only a kept lookup comes back as the same array: the groupings of the others are not kept.
  const kept = new WeakSet<Rules>();
  const groupings = new WeakMap<Rules, RulesByProperty>();
  const lookUp = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    if (schema || (groups && groups.length > 0)) return lookUp(target, schema, always, strictGroups, groups);
    const options = `${always}:${strictGroups}`;
    let ofTarget = lookups.get(target);
    if (!ofTarget) {
      ofTarget = new Map<string, Rules>();
      lookups.set(target, ofTarget);
    }
    let rules = ofTarget.get(options);
    if (!rules) {
      rules = lookUp(target, schema, always, strictGroups, groups);
      ofTarget.set(options, rules);
      kept.add(rules);
    }
    return rules;
  };
  storage.groupByPropertyName = (rules) => {
    let grouped = groupings.get(rules);
    if (!grouped) {
      grouped = group(rules);
      if (kept.has(rules)) groupings.set(rules, grouped);
    }
    return grouped;
  };
  for (const register of ['addValidationMetadata', 'addConstraintMetadata', 'addValidationSchema'] as const) {
    const add: (argument: never) => void = storage[register].bind(storage);
    (storage as unknown as Record<string, (argument: never) => void>)[register] = (argument: never) => {
      lookups.clear();
      add(argument);
    };
  }
}
