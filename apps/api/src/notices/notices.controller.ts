import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';

import { AdminActor } from '../audit/admin-actor.decorator.js';
import { BigIdPipe } from '../common/params.js';
import { AdminOnly } from '../auth/decorators.js';
import { PageQuery } from '../common/pagination.js';
import { PublishNoticeDto } from './dto/publish-notice.dto.js';
import { NoticesService } from './notices.service.js';

@Controller('admin/notices')
export class NoticesController {
  constructor(private readonly notices: NoticesService) {}

  @Post()
  @HttpCode(200)
  @AdminOnly()
  publish(@AdminActor() actor: string, @Body() body: PublishNoticeDto) {
    return this.notices.publish(actor, body);
  }

  @Get()
  @AdminOnly()
  list(@Query() query: PageQuery) {
    return this.notices.list(query);
  }

  @Get(':id')
  @AdminOnly()
  get(@Param('id', BigIdPipe) id: string) {
    return this.notices.get(id);
  }
}
