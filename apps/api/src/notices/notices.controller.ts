import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';

import { type AuditActor, AdminActor } from '../audit/admin-actor.decorator.js';
import { BigIdPipe } from '../common/params.js';
import { RequireRole } from '../auth/decorators.js';
import { PageQuery } from '../common/pagination.js';
import { OrderSweeperService } from '../orders/order-sweeper.service.js';
import { PublishNoticeDto } from './dto/publish-notice.dto.js';
import { NoticesService } from './notices.service.js';
import { ApiTags } from '@nestjs/swagger';
import { ApiRoute } from '../openapi/route.decorators.js';

@ApiTags('Operator: Notices')
@Controller('admin/notices')
export class NoticesController {
  constructor(
    private readonly notices: NoticesService,
    private readonly sweeper: OrderSweeperService,
  ) {}

  @ApiRoute({
    summary: 'Publish a system notice',
    description:
      "Publishes a notice (maintenance, an asset enabled or disabled) that every organisation receives as a SystemInformation event. ASSET_DISABLE halts the pair: its resting orders stay open and fill nothing; after ASSET_ENABLE the pair's resting orders that cross are swept before the answer. Audited.",
    data: 'PublishedNotice',
  })
  @Post()
  @HttpCode(200)
  @RequireRole('TRADING_OPS')
  async publish(@AdminActor() actor: AuditActor, @Body() body: PublishNoticeDto) {
    const notice = await this.notices.publish(actor, body);
    if (notice.event === 'ASSET_ENABLE') await this.sweeper.afterMarketChange(notice.entity);
    return notice;
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
