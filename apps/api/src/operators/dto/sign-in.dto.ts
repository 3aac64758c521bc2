import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsString, Matches, MaxLength, MinLength } from 'class-validator';

import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, PASSWORD_RULE } from '../operator-secrets.js';
import { OperatorEmail, TotpCode } from './operator-fields.js';

const SETUP_TOKEN = /^setup_[A-Za-z0-9_-]{43}$/;

const SETUP_TOKEN_RULE = 'setupToken must be the setupToken your operator creation answered';

const Password = () =>
  applyDecorators(
    IsString({ message: PASSWORD_RULE }),
    MinLength(MIN_PASSWORD_LENGTH, { message: PASSWORD_RULE }),
    MaxLength(MAX_PASSWORD_LENGTH, { message: PASSWORD_RULE }),
    ApiProperty({ minLength: MIN_PASSWORD_LENGTH, maxLength: MAX_PASSWORD_LENGTH, format: 'password' }),
  );

const SetupToken = () =>
  applyDecorators(
    IsString({ message: SETUP_TOKEN_RULE }),
    Matches(SETUP_TOKEN, { message: SETUP_TOKEN_RULE }),
    ApiProperty({ pattern: SETUP_TOKEN.source, description: 'From the creation (or reset) of your account' }),
  );

/** Body of POST /api/v1/admin/enrolment. */
export class EnrolDto {
  @IsDefined()
  @SetupToken()
  setupToken!: string;

  @IsDefined()
  @Password()
  password!: string;
}

/** Body of POST /api/v1/admin/enrolment/confirm. */
export class ConfirmEnrolmentDto {
  @IsDefined()
  @SetupToken()
  setupToken!: string;

  @IsDefined()
  @TotpCode()
  code!: string;
}

/** Body of POST /api/v1/admin/session. */
export class SignInDto {
  @IsDefined()
  @OperatorEmail()
  email!: string;

  /** Any length is checked (a wrong one simply fails), up to the longest a password may be. */
  @IsDefined()
  @IsString({ message: 'password must be a string' })
  @MaxLength(MAX_PASSWORD_LENGTH, { message: PASSWORD_RULE })
  @ApiProperty({ maxLength: MAX_PASSWORD_LENGTH, format: 'password' })
  password!: string;

  @IsDefined()
  @TotpCode()
  code!: string;
}

/** Body of POST /api/v1/admin/session/step-up. */
export class StepUpDto {
  @IsDefined()
  @TotpCode()
  code!: string;
}
