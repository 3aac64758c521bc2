import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional } from 'class-validator';
import { USER_STATUSES, type UserStatus } from '@svc/protocol';

import { PageQuery } from '../../common/pagination.js';
import { ApiPropertyOptional } from '@nestjs/swagger';

const toBoolean = ({ value }: { value: unknown }) =>
  value === 'true' ? true : value === 'false' ? false : value;

export class ListUsersQuery extends PageQuery {
  @IsOptional()
  @IsIn(USER_STATUSES)
  @ApiPropertyOptional({ enum: USER_STATUSES, description: 'Only users in this status' })
  userStatus?: UserStatus;

  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  @ApiPropertyOptional({ type: Boolean, description: 'Only users with this kyc flag (`true` or `false`)' })
  kyc?: boolean;

  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  @ApiPropertyOptional({ type: Boolean, description: 'Only users with this tnc flag (`true` or `false`)' })
  tnc?: boolean;
}
