import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsString, Matches, Min } from 'class-validator';

import { IfPresent } from '../../common/validation.js';
import { TOKEN_LABEL } from './operator-fields.js';

/** The most days OPERATOR_TOKEN_MAX_DAYS may allow: the document's bound for every deployment. */
export const TOKEN_DAYS_LIMIT = 365;
export const DEFAULT_TOKEN_DAYS = 30;

/** Body of POST /api/v1/admin/tokens (may be empty). */
export class IssuePersonalTokenDto {
  @IfPresent()
  @IsString()
  @Matches(TOKEN_LABEL, { message: 'label must be at most 100 characters, without control characters' })
  @ApiPropertyOptional({
    maxLength: 100,
    pattern: '^[^\\p{Cc}]{0,100}$',
    description: 'What the token is for, e.g. "laptop CLI"',
  })
  label?: string;

  @IfPresent()
  @IsInt({ message: 'expiresInDays must be a whole number of days' })
  @Min(1, { message: 'expiresInDays must be at least 1' })
  // The upper bound is this deployment's OPERATOR_TOKEN_MAX_DAYS, which the service checks and names.
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: TOKEN_DAYS_LIMIT,
    default: DEFAULT_TOKEN_DAYS,
    description: 'Days until the token expires; at most OPERATOR_TOKEN_MAX_DAYS (default 90)',
  })
  expiresInDays?: number;
}
