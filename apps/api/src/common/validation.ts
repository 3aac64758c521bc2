// Request validation with class-validator: unknown fields are refused, and every message names the field
// and the rule (docs/api-guide.md#errors).
import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { ValidateIf } from 'class-validator';

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
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    // Types are the DTO's own business: no silent "1" -> 1 conversion of JSON bodies.
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => badRequest(validationMessages(errors).join('; ')),
  });
}

/** Validates the field when it is present; null is validated (and refused), unlike @IsOptional(). */
export const IfPresent = () => ValidateIf((_object: object, value: unknown) => value !== undefined);
