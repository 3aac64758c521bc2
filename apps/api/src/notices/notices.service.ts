// System notices (docs/decisions.md, "Notices: system notices and halts"): operators publish
// MAINTENANCE_ALERTS, ASSET_ENABLE or ASSET_DISABLE; every organisation with an ACTIVE webhook gets a
// SystemInformation event, and ASSET_DISABLE halts trading in the pair until an ASSET_ENABLE (or the notice's
// endTime). All of it in one transaction.
import { Injectable } from '@nestjs/common';
import { transaction } from '@svc/db';
import { DataSource } from 'typeorm';

import { AuditService } from '../audit/audit.service.js';
import type { AuditActor } from '../audit/admin-actor.decorator.js';
import { notFound } from '../common/errors.js';
import { mapPage, type Page, type PageQuery } from '../common/pagination.js';
import { OutboxService } from '../outbox/outbox.service.js';
import { parseInstant } from '../common/instant.js';
import type { PublishNoticeDto } from './dto/publish-notice.dto.js';
import { noticeView, type NoticeView, systemInformationData } from './notice.view.js';
import { NoticesRepository, type TradingHalt } from './notices.repository.js';

/** The POST answer: the notice and how many organisations its event went to. */
export type PublishedNotice = NoticeView & { readonly recipients: number };

@Injectable()
export class NoticesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly notices: NoticesRepository,
    private readonly audit: AuditService,
    private readonly events: OutboxService,
  ) {}

  publish(actor: AuditActor, input: PublishNoticeDto): Promise<PublishedNotice> {
    const startTime = parseInstant(input.startTime) ?? null;
    const endTime = parseInstant(input.endTime) ?? null;
    return transaction(this.dataSource, async (manager) => {
      const notice = await this.notices.insert(manager, {
        event: input.event,
        entity: input.entity,
        message: input.message,
        startTime,
        endTime,
      });
      if (notice.event === 'ASSET_DISABLE') await this.notices.haltPair(manager, notice);
      else if (notice.event === 'ASSET_ENABLE') await this.notices.endHalt(manager, notice.entity, startTime);
      const recipients = await this.events.broadcast(manager, {
        entity: 'SystemInformation',
        data: systemInformationData(notice),
      });
      await this.audit.record(manager, {
        actor,
        action: 'notice.publish',
        orgId: null,
        details: { noticeId: notice.id, ...systemInformationData(notice), recipients },
      });
      return { ...noticeView(notice), recipients };
    });
  }

  async get(id: string): Promise<NoticeView> {
    const notice = await this.notices.find(id);
    if (!notice) throw notFound(`no notice ${id}`);
    return noticeView(notice);
  }

  /** The trading halts notices caused that have not ended. */
  halts(): Promise<TradingHalt[]> {
    return this.notices.currentHalts();
  }

  async list(query: PageQuery): Promise<Page<NoticeView>> {
    return mapPage(await this.notices.list(query), noticeView);
  }
}
