// The rules of an operator's fields, shared by the DTOs (docs/operators.md).
import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { OPERATOR_ROLES } from '@svc/db';
import { Transform } from 'class-transformer';
import { IsEmail, IsIn, IsString, Matches, MaxLength } from 'class-validator';

import { TOTP_CODE, TOTP_CODE_RULE } from '../operator-secrets.js';

const lowercase = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.toLowerCase() : value;

export const OPERATOR_NAME = /^(?=.*\S)[^\p{Cc}]{1,100}$/u;
export const TOKEN_LABEL = /^[^\p{Cc}]{0,100}$/u;

/** An e-mail address, lowercased: how the operator signs in. */
export const OperatorEmail = (required = true) =>
  applyDecorators(
    Transform(lowercase),
    IsString({ message: 'email must be an e-mail address' }),
    MaxLength(254, { message: 'email must be at most 254 characters' }),
    IsEmail({ require_tld: false, allow_ip_domain: false }, { message: 'email must be an e-mail address' }),
    (required ? ApiProperty : ApiPropertyOptional)({
      format: 'email',
      maxLength: 254,
      description: 'Lowercased when stored',
    }),
  );

export const OperatorName = (required = true) =>
  applyDecorators(
    IsString({ message: 'name must be a string' }),
    Matches(OPERATOR_NAME, {
      message: 'name must be 1 to 100 characters, not blank, without control characters',
    }),
    (required ? ApiProperty : ApiPropertyOptional)({
      pattern: OPERATOR_NAME.source,
      description: '1 to 100 characters, not blank, without control characters',
    }),
  );

export const Role = (required = true) =>
  applyDecorators(
    IsIn(OPERATOR_ROLES, { message: `role must be one of ${OPERATOR_ROLES.join(', ')}` }),
    (required ? ApiProperty : ApiPropertyOptional)({ enum: OPERATOR_ROLES }),
  );

export const TotpCode = () =>
  applyDecorators(
    IsString({ message: TOTP_CODE_RULE }),
    Matches(TOTP_CODE, { message: TOTP_CODE_RULE }),
    ApiProperty({ pattern: TOTP_CODE.source, description: 'The 6 digits your authenticator app shows now' }),
  );
