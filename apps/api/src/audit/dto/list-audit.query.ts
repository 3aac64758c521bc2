import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';

import { PageQuery } from '../../common/pagination.js';

/** Query of GET /api/v1/admin/audit/: both filters are exact matches. */
export class ListAuditQuery extends PageQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(2147483647)
  orgId?: number;

  @IsOptional()
  @IsString()
  @Matches(/^[a-z0-9-]{1,32}(\.[a-z0-9-]{1,32}){1,3}$/, {
    message: 'action must be an audit action such as org.create or api-key.revoke',
  })
  action?: string;
}
