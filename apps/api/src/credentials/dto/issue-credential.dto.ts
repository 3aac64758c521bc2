import { IsDefined, IsString, Matches, MaxLength } from 'class-validator';

import { IfPresent } from '../../common/validation.js';

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
  label?: string;
}

/** Body of POST /api/v1/admin/orgs/{orgId}/oauth-clients/. */
export class IssueOAuthClientDto {
  /** Granted scopes in the OAuth `scope` form: space-separated MODULE:PERMISSION values. */
  @IsDefined()
  @IsString()
  @MaxLength(1000)
  scopes!: string;

  @IfPresent()
  @IsString()
  @Label()
  label?: string;
}
