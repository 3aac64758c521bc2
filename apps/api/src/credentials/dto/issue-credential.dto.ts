import { IsDefined, IsString, Matches, MaxLength } from 'class-validator';

import { IfPresent } from '../../common/validation.js';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

const Label = () =>
  Matches(/^[^\p{Cc}]{0,100}$/u, {
    message: 'label must be at most 100 characters, without control characters',
  });

/** Body of POST /api/v1/admin/orgs/{orgId}/api-keys/ (may be empty). */
export class IssueApiKeyDto {
  /** A note for operators, e.g. which system uses the key. */
  @IfPresent()
  @IsString()
  @Label()
  @ApiPropertyOptional({
    maxLength: 100,
    pattern: '^[^\\p{Cc}]{0,100}$',
    description: 'A note for operators, e.g. which system uses the key',
  })
  label?: string;
}

/** Body of POST /api/v1/admin/orgs/{orgId}/oauth-clients/. */
export class IssueOAuthClientDto {
  /** Granted scopes in the OAuth `scope` form: space-separated MODULE:PERMISSION values. */
  @IsDefined()
  @IsString()
  @MaxLength(1000)
  @ApiProperty({
    maxLength: 1000,
    description: 'Granted scopes, space-separated MODULE:PERMISSION values',
    example: 'BASE_MODULE:READWRITE MANAGE_USERS:READ',
  })
  scopes!: string;

  @IfPresent()
  @IsString()
  @Label()
  @ApiPropertyOptional({
    maxLength: 100,
    pattern: '^[^\\p{Cc}]{0,100}$',
    description: 'A note for operators, e.g. which system uses the client',
  })
  label?: string;
}
