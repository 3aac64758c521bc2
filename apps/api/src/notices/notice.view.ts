import type { SystemNotice } from '@svc/db';

/** The SystemInformation event's data (docs/api-guide.md#events), fields in the order of docs/api-guide.md#systeminformation-events; times ISO 8601 UTC or null. */
export function systemInformationData(notice: SystemNotice) {
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
