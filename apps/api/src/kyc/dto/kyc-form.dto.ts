// Body of POST /api/v1/user/{orgUserId}/kyc/form: who the user is and where they live. Small and explicit;
// every message names the field and the rule.
import { Type } from 'class-transformer';
import {
  IsDefined,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  ValidateBy,
  ValidateNested,
  isISO31661Alpha2,
  type ValidationOptions,
} from 'class-validator';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** A letter, then letters, marks, spaces, apostrophes, dots or hyphens (José, O'Brien, Anne-Marie). */
const PERSON_NAME = /^\p{L}[\p{L}\p{M} '.-]*$/u;
const NOT_BLANK = /\S/;
const POSTAL_CODE = /^[A-Za-z0-9][A-Za-z0-9 -]{0,14}$/;
const EARLIEST_BIRTH_DATE = '1900-01-01';

/** An ISO 3166-1 alpha-2 code in capitals (GB, FR, US). */
function IsCountryCode(options: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isCountryCode',
      validator: {
        validate: (value: unknown) =>
          typeof value === 'string' && /^[A-Z]{2}$/.test(value) && isISO31661Alpha2(value),
      },
    },
    options,
  );
}

/** A real calendar day written YYYY-MM-DD, from 1900-01-01 up to today (UTC). */
export function isPastCalendarDate(value: unknown, today = new Date()): boolean {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00.000Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) return false;
  return value >= EARLIEST_BIRTH_DATE && value <= today.toISOString().slice(0, 10);
}

function IsPastCalendarDate(options: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    { name: 'isPastCalendarDate', validator: { validate: (v) => isPastCalendarDate(v) } },
    options,
  );
}

export class KycAddressDto {
  @IsDefined({ message: 'line1 is required' })
  @IsString()
  @Length(1, 200, { message: 'line1 must be 1 to 200 characters' })
  @Matches(NOT_BLANK, { message: 'line1 must not be blank' })
  @ApiProperty({ minLength: 1, maxLength: 200, pattern: NOT_BLANK.source })
  line1!: string;

  @IsOptional()
  @IsString()
  @Length(1, 200, { message: 'line2 must be 1 to 200 characters' })
  @Matches(NOT_BLANK, { message: 'line2 must not be blank' })
  @ApiPropertyOptional({ minLength: 1, maxLength: 200, pattern: NOT_BLANK.source })
  line2?: string;

  @IsDefined({ message: 'city is required' })
  @IsString()
  @Length(1, 100, { message: 'city must be 1 to 100 characters' })
  @Matches(NOT_BLANK, { message: 'city must not be blank' })
  @ApiProperty({ minLength: 1, maxLength: 100, pattern: NOT_BLANK.source })
  city!: string;

  @IsDefined({ message: 'postalCode is required' })
  @IsString()
  @Matches(POSTAL_CODE, {
    message: 'postalCode must be 1 to 15 letters, digits, spaces or hyphens, starting with a letter or digit',
  })
  @ApiProperty({ pattern: POSTAL_CODE.source, example: 'SW1A 1AA' })
  postalCode!: string;

  @IsDefined({ message: 'country is required' })
  @IsCountryCode({ message: 'country must be an ISO 3166-1 alpha-2 code in capitals, e.g. GB' })
  @ApiProperty({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2, in capitals', example: 'GB' })
  country!: string;
}

export class KycFormDto {
  @IsDefined({ message: 'firstName is required' })
  @IsString()
  @Length(1, 100, { message: 'firstName must be 1 to 100 characters' })
  @Matches(PERSON_NAME, {
    message: 'firstName must start with a letter and hold only letters, spaces, apostrophes, dots or hyphens',
  })
  @ApiProperty({ minLength: 1, maxLength: 100, pattern: PERSON_NAME.source })
  firstName!: string;

  @IsDefined({ message: 'lastName is required' })
  @IsString()
  @Length(1, 100, { message: 'lastName must be 1 to 100 characters' })
  @Matches(PERSON_NAME, {
    message: 'lastName must start with a letter and hold only letters, spaces, apostrophes, dots or hyphens',
  })
  @ApiProperty({ minLength: 1, maxLength: 100, pattern: PERSON_NAME.source })
  lastName!: string;

  @IsDefined({ message: 'dateOfBirth is required' })
  @IsPastCalendarDate({
    message: `dateOfBirth must be a real date written YYYY-MM-DD, from ${EARLIEST_BIRTH_DATE} up to today`,
  })
  @ApiProperty({
    format: 'date',
    description: `A real date, YYYY-MM-DD, from ${EARLIEST_BIRTH_DATE} up to today (UTC)`,
    example: '1990-04-01',
  })
  dateOfBirth!: string;

  @IsDefined({ message: 'nationality is required' })
  @IsCountryCode({ message: 'nationality must be an ISO 3166-1 alpha-2 code in capitals, e.g. GB' })
  @ApiProperty({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2, in capitals', example: 'GB' })
  nationality!: string;

  @IsDefined({ message: 'address is required' })
  @IsObject({ message: 'address must be an object' })
  @ValidateNested()
  @Type(() => KycAddressDto)
  @ApiProperty({ type: () => KycAddressDto })
  address!: KycAddressDto;
}

/** The form as stored and shown: the validated fields only, in a fixed order. */
export interface KycForm {
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  nationality: string;
  address: { line1: string; line2?: string; city: string; postalCode: string; country: string };
}

export function toKycForm(input: KycFormDto): KycForm {
  const { line1, line2, city, postalCode, country } = input.address;
  return {
    firstName: input.firstName,
    lastName: input.lastName,
    dateOfBirth: input.dateOfBirth,
    nationality: input.nationality,
    address: { line1, ...(line2 === undefined ? {} : { line2 }), city, postalCode, country },
  };
}
