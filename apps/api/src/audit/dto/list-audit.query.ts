import { Transform, Type } from 'class-transformer';
import {
  IsEmail,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';

import { PageQuery } from '../../common/pagination.js';
import { ApiPropertyOptional } from '@nestjs/swagger';

/** Query of GET /api/v1/admin/audit/: every filter sent must hold; from and to bound createdAt. */
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

  @IsOptional()
  @IsUUID('all', { message: 'operatorId must be a UUID' })
  @ApiPropertyOptional({ format: 'uuid', description: 'Only entries of this operator' })
  operatorId?: string;

  @IsOptional()
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? value.trim().toLowerCase() : value,
  )
  @IsString({ message: 'operatorEmail must be an e-mail address' })
  @MaxLength(254, { message: 'operatorEmail must be at most 254 characters' })
  @IsEmail(
    { require_tld: false, allow_ip_domain: false },
    { message: 'operatorEmail must be an e-mail address, e.g. ada@ops.example' },
  )
  @ApiPropertyOptional({
    format: 'email',
    maxLength: 254,
    description: "Only entries of the operator with this e-mail (the operator's e-mail never changes)",
  })
  operatorEmail?: string;

  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'from must be an ISO 8601 date-time, e.g. 2030-01-31T12:00:00Z' })
  @ApiPropertyOptional({ format: 'date-time', description: 'Only entries at or after this time' })
  from?: string;

  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'to must be an ISO 8601 date-time, e.g. 2030-01-31T12:00:00Z' })
  @ApiPropertyOptional({ format: 'date-time', description: 'Only entries before this time' })
  to?: string;
}
