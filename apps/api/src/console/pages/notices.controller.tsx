// System notices (/console/notices): the published notices, the trading halts they caused that have not
// ended, and for TRADING_OPS the form that publishes one through the admin api's NoticesService (the
// SystemInformation events, the halt and the audit entry in its one transaction).
import { Body, Controller, Get, Post, Query } from '@nestjs/common';

import { auditActor } from '../../audit/admin-actor.decorator.js';
import { RequireRole } from '../../auth/decorators.js';
import { PublishNoticeDto } from '../../notices/dto/publish-notice.dto.js';
import { NoticesService } from '../../notices/notices.service.js';
import { page, redirectTo } from '../../web/web-answer.js';
import { WebPages } from '../../web/web-pages.decorator.js';
import { type ConsoleContext, OperatorConsole } from '../../operators/console-context.js';
import { ConsolePageQuery } from '../dto/console-queries.js';
import { type FormBody, formInput, formText } from '../../web/forms.js';
import { NoticesPage } from '../views/notices.js';

@WebPages()
@Controller('console/notices')
export class ConsoleNoticesController {
  constructor(private readonly notices: NoticesService) {}

  @Get()
  @RequireRole('SUPPORT')
  async list(@OperatorConsole() ctx: ConsoleContext, @Query() query: ConsolePageQuery) {
    const { done, ...paging } = query;
    const [found, halts] = await Promise.all([this.notices.list(paging), this.notices.halts()]);
    return page(<NoticesPage ctx={ctx} notices={found} halts={halts} cursor={query.cursor} done={done} />);
  }

  @Post()
  @RequireRole('TRADING_OPS')
  async publish(@OperatorConsole() ctx: ConsoleContext, @Body() body: FormBody) {
    const entity = formText(body, 'entity');
    const event = formText(body, 'event');
    const input = await formInput(PublishNoticeDto, {
      event,
      // A pair is written in capitals; any other entity as typed.
      entity: event === 'MAINTENANCE_ALERTS' ? entity : entity?.toUpperCase(),
      message: formText(body, 'message'),
      startTime: formText(body, 'startTime'),
      endTime: formText(body, 'endTime'),
    });
    await this.notices.publish(auditActor(ctx.operator), input);
    return redirectTo('/console/notices?done=published');
  }
}
