import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional } from 'class-validator';
import { USER_STATUSES, type UserStatus } from '@svc/protocol';

import { PageQuery } from '../../common/pagination.js';

const toBoolean = ({ value }: { value: unknown }) =>
  value === 'true' ? true : value === 'false' ? false : value;

export class ListUsersQuery extends PageQuery {
  @IsOptional()
  @IsIn(USER_STATUSES)
  userStatus?: UserStatus;

  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  kyc?: boolean;

  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  tnc?: boolean;
}
