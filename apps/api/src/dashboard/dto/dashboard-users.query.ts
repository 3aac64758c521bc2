import { IsOptional, IsString, MaxLength } from 'class-validator';

import { ListUsersQuery } from '../../users/dto/list-users.query.js';

/** The users page: the api's filters, and the start of an orgUserId to search for. */
export class DashboardUsersQuery extends ListUsersQuery {
  @IsOptional()
  @IsString()
  @MaxLength(128, { message: 'q must be at most 128 characters' })
  q?: string;
}
