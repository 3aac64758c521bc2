import type { SystemNotice } from '@svc/db';
import type { SystemInformationData } from '@svc/protocol';

/** The SystemInformation event's data (docs/api-guide.md#events), fields in the order of its schema; times ISO 8601 UTC or null. */
export function systemInformationData(notice: SystemNotice): SystemInformationData {
  return {
    event: notice.event,
    entity: notice.entity,
    message: notice.message,
    startTime: notice.startTime?.toISOString() ?? null,
    endTime: notice.endTime?.toISOString() ?? null,
  };
}

/** A published notice on the operator surface. */
export function noticeView(notice: SystemNotice) {
  return { id: notice.id, ...systemInformationData(notice), createdAt: notice.createdAt.toISOString() };
}

export type NoticeView = ReturnType<typeof noticeView>;
