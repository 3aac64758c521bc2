// `notices publish|list|get`: SystemInformation notices to every organisation with an active webhook.
import { pageQuery, requireFlags, type Values } from './args.js';
import { ADMIN_ROUTES, type NoticeFields } from './client.js';
import type { CommandGroup } from './command.js';
import { page, record } from './format.js';

/** The body of POST /api/v1/admin/notices from the flags; --event, --entity and --message are required. */
export function noticeFields(values: Values): NoticeFields {
  requireFlags(values, ['event', 'entity', 'message']);
  return {
    event: values.event ?? '',
    entity: values.entity ?? '',
    message: values.message ?? '',
    ...(values.start === undefined ? {} : { startTime: values.start }),
    ...(values.end === undefined ? {} : { endTime: values.end }),
  };
}

export const NOTICES: CommandGroup = {
  publish: {
    args: [],
    flags: ['event', 'entity', 'message', 'start', 'end'],
    help:
      '--event MAINTENANCE_ALERTS|ASSET_ENABLE|ASSET_DISABLE --entity <component or BASE_QUOTE> ' +
      '--message <text> [--start <ISO 8601>] [--end <ISO 8601>]: a SystemInformation event to every ' +
      'organisation with an active webhook; ASSET_DISABLE halts the pair until ASSET_ENABLE',
    run: (client, _args, values) => client.call(ADMIN_ROUTES.publishNotice, {}, noticeFields(values)),
    text: record,
  },
  list: {
    args: [],
    flags: ['limit', 'cursor'],
    help: '[--limit <n>] [--cursor <nextCursor>]',
    run: (client, _args, values) => client.call(ADMIN_ROUTES.listNotices, {}, pageQuery(values)),
    text: (data) => page(data, ['id', 'createdAt', 'event', 'entity', 'startTime', 'endTime', 'message']),
  },
  get: {
    args: ['id'],
    flags: [],
    help: '<id>',
    run: (client, [id = '']) => client.call(ADMIN_ROUTES.getNotice, { id }),
    text: record,
  },
};
