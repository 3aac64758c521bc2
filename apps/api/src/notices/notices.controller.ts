import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';

import { type AuditActor, AdminActor } from '../audit/admin-actor.decorator.js';
import { BigIdPipe } from '../common/params.js';
import { RequireRole } from '../auth/decorators.js';
import { PageQuery } from '../common/pagination.js';
import { PublishNoticeDto } from './dto/publish-notice.dto.js';
import { NoticesService } from './notices.service.js';
import { ApiTags } from '@nestjs/swagger';
import { ApiRoute } from '../openapi/route.decorators.js';

@ApiTags('Operator: Notices')
@Controller('admin/notices')
export class NoticesController {
  constructor(private readonly notices: NoticesService) {}

  @ApiRoute({
    summary: 'Publish a system notice',
    description:
      'Publishes a notice (maintenance, an asset enabled or disabled) that every organisation receives as a SystemInformation event. Audited.',
    data: 'PublishedNotice',
  })
  @Post()
  @HttpCode(200)
  @RequireRole('TRADING_OPS')
  publish(@AdminActor() actor: AuditActor, @Body() body: PublishNoticeDto) {
    return this.notices.publish(actor, body);
  }

  @ApiRoute({
    summary: 'List system notices',
    description: 'Every published notice, oldest first; paginated by cursor.',
    data: { page: 'Notice' },
  })
  @Get()
  @RequireRole('SUPPORT')
  list(@Query() query: PageQuery) {
    return this.notices.list(query);
  }

  @ApiRoute({
    summary: 'Get a system notice',
    description: 'One notice, by id.',
    data: 'Notice',
    errors: [404],
  })
  @Get(':id')
  @RequireRole('SUPPORT')
  get(@Param('id', BigIdPipe) id: string) {
    return this.notices.get(id);
  }
}
