// System notices (DESIGN section 8): operators publish MAINTENANCE_ALERTS, ASSET_ENABLE or ASSET_DISABLE;
// every organisation with an ACTIVE webhook gets a SystemInformation event, and ASSET_DISABLE halts trading
// in the pair until an ASSET_ENABLE (or the notice's endTime). All of it in one transaction.
import { Injectable } from '@nestjs/common';
import { SystemNotice } from '@svc/db';
import { DataSource, type FindOptionsWhere, MoreThan } from 'typeorm';

import { AuditService } from '../admin/audit.service.js';
import { notFound } from '../common/errors.js';
import { DEFAULT_PAGE_SIZE, decodeCursor, type Page, type PageQuery, toPage } from '../common/pagination.js';
import { EventsService } from '../events/events.service.js';
import { parseInstant } from './dto/instant.js';
import type { PublishNoticeDto } from './dto/publish-notice.dto.js';
import { noticeView, type NoticeView, systemInformationData } from './notice.view.js';

/** The POST answer: the notice and how many organisations its event went to. */
export type PublishedNotice = NoticeView & { readonly recipients: number };

@Injectable()
export class NoticesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly audit: AuditService,
    private readonly events: EventsService,
  ) {}

  publish(actor: string, input: PublishNoticeDto): Promise<PublishedNotice> {
    const startTime = parseInstant(input.startTime) ?? null;
    const endTime = parseInstant(input.endTime) ?? null;
    return this.dataSource.transaction(async (manager) => {
      const notice = await manager.save(
        manager.create(SystemNotice, {
          event: input.event,
          entity: input.entity,
          message: input.message,
          startTime,
          endTime,
        }),
      );
      if (notice.event === 'ASSET_DISABLE') {
        // One halt per pair: a new ASSET_DISABLE replaces the previous one whole.
        await manager.query(
          `INSERT INTO trading_halts (symbol, notice_id, starts_at, ends_at) VALUES ($1, $2, $3, $4)
           ON CONFLICT (symbol) DO UPDATE
           SET notice_id = EXCLUDED.notice_id, starts_at = EXCLUDED.starts_at, ends_at = EXCLUDED.ends_at`,
          [notice.entity, notice.id, startTime, endTime],
        );
      } else if (notice.event === 'ASSET_ENABLE') {
        // The halt ends at the notice's startTime (now when absent), never later than it was to end; the
        // row stays, pointing at the ASSET_DISABLE notice that started it.
        await manager.query(
          `UPDATE trading_halts SET ends_at = LEAST(COALESCE(ends_at, 'infinity'), COALESCE($2::timestamptz, now()))
           WHERE symbol = $1`,
          [notice.entity, startTime],
        );
      }
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
    const notice = await this.dataSource.getRepository(SystemNotice).findOneBy({ id });
    if (!notice) throw notFound(`no notice ${id}`);
    return noticeView(notice);
  }

  async list(query: PageQuery): Promise<Page<NoticeView>> {
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const after = decodeCursor(query.cursor);
    const where: FindOptionsWhere<SystemNotice> = {};
    if (after !== undefined) where.id = MoreThan(after);
    const rows = await this.dataSource
      .getRepository(SystemNotice)
      .find({ where, order: { id: 'ASC' }, take: limit + 1 });
    return toPage(rows, limit, noticeView);
  }
}
