import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';

import { Caller, RequireScope } from '../auth/decorators.js';
import type { Principal } from '../auth/principal.js';
import { CreateUserDto } from './dto/create-user.dto.js';
import { ListUsersQuery } from './dto/list-users.query.js';
import { UpdateUserDto } from './dto/update-user.dto.js';
import { UsersService } from './users.service.js';

@Controller('user')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Post()
  @HttpCode(200)
  @RequireScope('MANAGE_USERS:WRITE')
  create(@Caller() caller: Principal, @Body() body: CreateUserDto) {
    return this.users.create(caller.orgId, body);
  }

  @Get()
  @RequireScope('MANAGE_USERS:READ')
  list(@Caller() caller: Principal, @Query() query: ListUsersQuery) {
    return this.users.list(caller.orgId, query);
  }

  @Get(':orgUserId')
  @RequireScope('MANAGE_USERS:READ')
  get(@Caller() caller: Principal, @Param('orgUserId') orgUserId: string) {
    return this.users.get(caller.orgId, orgUserId);
  }

  @Patch(':orgUserId')
  @RequireScope('MANAGE_USERS:WRITE')
  update(@Caller() caller: Principal, @Param('orgUserId') orgUserId: string, @Body() body: UpdateUserDto) {
    return this.users.update(caller.orgId, orgUserId, body);
  }
}
