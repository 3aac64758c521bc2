import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';

import { PageQuery } from '../../common/pagination.js';
import { ApiPropertyOptional } from '@nestjs/swagger';

/** Query of GET /api/v1/admin/audit/: both filters are exact matches. */
export class ListAuditQuery extends PageQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(2147483647)
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 2147483647,
    description: 'Only entries about this organisation',
  })
  orgId?: number;

  @IsOptional()
  @IsString()
  @Matches(/^[a-z0-9-]{1,32}(\.[a-z0-9-]{1,32}){1,3}$/, {
    message: 'action must be an audit action such as org.create or api-key.revoke',
  })
  @ApiPropertyOptional({
    pattern: '^[a-z0-9-]{1,32}(\\.[a-z0-9-]{1,32}){1,3}$',
    description: 'Only entries of this action, e.g. org.create or api-key.revoke',
    example: 'org.create',
  })
  action?: string;
}
