import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';

import { Caller, RequireScope } from '../auth/decorators.js';
import type { Principal } from '../auth/principal.js';
import { CreateUserDto } from './dto/create-user.dto.js';
import { ListUsersQuery } from './dto/list-users.query.js';
import { UpdateUserDto } from './dto/update-user.dto.js';
import { UsersService } from './users.service.js';
import { ApiTags } from '@nestjs/swagger';
import { ApiRoute } from '../openapi/route.decorators.js';

@ApiTags('Users')
@Controller('user')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @ApiRoute({
    summary: 'Create a user',
    description:
      'Creates a user of the organisation. With `kyc: true` the organisation ran KYC itself and the user is ACTIVE at once; otherwise the user is PENDING until KYC completes.',
    data: 'User',
    errors: [409],
  })
  @Post()
  @HttpCode(200)
  @RequireScope('MANAGE_USERS:WRITE')
  create(@Caller() caller: Principal, @Body() body: CreateUserDto) {
    return this.users.create(caller.orgId, body);
  }

  @ApiRoute({
    summary: 'List users',
    description:
      "The organisation's users, oldest first, optionally filtered by status and flags; paginated by cursor.",
    data: { page: 'User' },
  })
  @Get()
  @RequireScope('MANAGE_USERS:READ')
  list(@Caller() caller: Principal, @Query() query: ListUsersQuery) {
    return this.users.list(caller.orgId, query);
  }

  @ApiRoute({
    summary: 'Get a user',
    description: 'One user of the organisation, by its orgUserId.',
    data: 'User',
    errors: [404],
  })
  @Get(':orgUserId')
  @RequireScope('MANAGE_USERS:READ')
  get(@Caller() caller: Principal, @Param('orgUserId') orgUserId: string) {
    return this.users.get(caller.orgId, orgUserId);
  }

  @ApiRoute({
    summary: 'Record terms and conditions',
    description: 'Records whether the user accepted the terms and conditions.',
    data: 'User',
    errors: [404],
  })
  @Patch(':orgUserId')
  @RequireScope('MANAGE_USERS:WRITE')
  update(@Caller() caller: Principal, @Param('orgUserId') orgUserId: string, @Body() body: UpdateUserDto) {
    return this.users.update(caller.orgId, orgUserId, body);
  }
}
