// Request validation with class-validator: unknown fields are refused, and every message names the field
// and the rule (docs/api-guide.md#errors).
import { ValidationPipe, type ValidationError } from '@nestjs/common';
import {
  type ClassTransformOptions,
  instanceToPlain,
  plainToInstance,
  TransformationType,
} from 'class-transformer';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage.js';
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

export function createValidationPipe(): ValidationPipe {
  memoiseRuleLookups();
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    // Types are the DTO's own business: no silent "1" -> 1 conversion of JSON bodies.
    transformOptions: { enableImplicitConversion: false },
    transformerPackage: { plainToInstance: plainToDto, classToPlain: instanceToPlain },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => badRequest(validationMessages(errors).join('; ')),
  });
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
 * for its binary-value check (the pipe's time on the signed write's body 17 -> 12 µs, on the order's 37 ->
 * 24 µs in a micro-benchmark, bench/README.md, "Issue 15, fourth session"). The rules are fixed once the classes are loaded, so each lookup without groups or schema is
 * kept per class and options, with its grouping by property; registering a rule (a class loaded late)
 * forgets them all. The callers only read what they get.
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

type Dto = new () => Record<string, unknown>;

/** Whether each DTO class is one {@link plainToDto} builds itself. */
const plainDtos = new WeakMap<Dto, { readonly plain: boolean }>();

/**
 * class-transformer's plainToInstance for the ValidationPipe, the library's own work done directly where it
 * is plain: a JSON object whose values are all strings, numbers, booleans or null, for a class without
 * class-transformer rules but @Transform (no @Type, @Expose or @Exclude, on it or a parent class). That is
 * what it then does, step by step: a new instance, each key of the body in its order copied (but
 * `__proto__`, `constructor`, and what the class has as a method or read-only accessor), each @Transform of
 * the key applied to the value as it would apply it. Everything else (nested objects, arrays, other classes)
 * goes to class-transformer, which looks up four kinds of rule per key, through the class's parents (the
 * pipe's time on the signed write's body 12 -> 7.5 µs, on the order's 24 -> 18 µs in a micro-benchmark,
 * bench/README.md, "Issue 15, fourth session"). Its options reach a @Transform as given (without the
 * library's defaults merged in: no transform of ours reads them). Nest's ValidationPipe keeps the
 * transformer of the last pipe made for every pipe: the api makes this one only.
 */
export function plainToDto<T>(metatype: new () => T, value: unknown, options?: ClassTransformOptions): T {
  const dto = metatype as unknown as Dto;
  if (!isFlatRecord(value) || !transformsOnly(dto)) {
    return plainToInstance(metatype, value, options);
  }
  const instance = new dto();
  const prototype = dto.prototype as object;
  const all = { ...options };
  for (const key of Object.keys(value)) {
    if (key === '__proto__' || key === 'constructor') continue;
    const descriptor = Object.getOwnPropertyDescriptor(prototype, key);
    if ((descriptor && !descriptor.set) || instance[key] instanceof Function) continue;
    let result = value[key];
    for (const transform of defaultMetadataStorage.findTransformMetadatas(
      dto,
      key,
      TransformationType.PLAIN_TO_CLASS,
    )) {
      if (transform.options.groups?.length) continue;
      result = transform.transformFn({
        value: result,
        key,
        obj: value,
        type: TransformationType.PLAIN_TO_CLASS,
        options: all,
      });
    }
    instance[key] = result;
  }
  return instance as T;
}

/** A JSON object whose values are all strings, numbers, booleans or null. */
function isFlatRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  // A plain object of any realm (the tests' too): its prototype, if any, is the root of its chain.
  const prototype = Object.getPrototypeOf(value) as object | null;
  if (prototype !== null && Object.getPrototypeOf(prototype) !== null) return false;
  for (const key in value) {
    const field = (value as Record<string, unknown>)[key];
    if (typeof field === 'object' && field !== null) return false;
    if (typeof field === 'function' || typeof field === 'undefined' || typeof field === 'symbol')
      return false;
  }
  return true;
}

/** Whether class-transformer holds no rule but @Transform for `dto` and its parent classes. */
function transformsOnly(dto: Dto): boolean {
  let known = plainDtos.get(dto);
  if (!known) {
    const storage = defaultMetadataStorage as unknown as Record<string, unknown>;
    const others = ['_typeMetadatas', '_exposeMetadatas', '_excludeMetadatas'].map((name) => storage[name]);
    let plain = others.every((rules) => rules instanceof Map);
    for (let type: unknown = dto; plain && typeof type === 'function' && type !== Function.prototype;) {
      if (others.some((rules) => (rules as Map<unknown, unknown>).has(type))) plain = false;
      type = Object.getPrototypeOf(type);
    }
    known = { plain };
    plainDtos.set(dto, known);
  }
  return known.plain;
}
