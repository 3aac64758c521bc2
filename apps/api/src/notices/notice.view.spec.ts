// A notice's SystemInformation data: the fields of SYSTEM_INFORMATION_DATA_SCHEMA (@svc/protocol), in its
// order.
import type { SystemNotice } from '@svc/db';
import { parseSystemInformationData, SYSTEM_INFORMATION_DATA_SCHEMA } from '@svc/protocol';

import { noticeView, systemInformationData } from './notice.view.js';

const notice = {
  id: '3',
  event: 'MAINTENANCE_ALERTS',
  entity: 'BTC_EUR',
  message: 'Trading of BTC_EUR pauses for maintenance',
  startTime: new Date('2026-01-15T10:30:00.000Z'),
  endTime: null,
  createdAt: new Date('2026-01-15T10:00:00.000Z'),
} as SystemNotice;

describe('systemInformationData', () => {
  it("has the schema's fields in the schema's order, and passes the protocol's parser", () => {
    const data = systemInformationData(notice);
    expect(Object.keys(data)).toEqual(Object.keys(SYSTEM_INFORMATION_DATA_SCHEMA.properties));
    expect(parseSystemInformationData(JSON.parse(JSON.stringify(data)))).toEqual(data);
    expect(Object.keys(noticeView(notice))).toEqual(['id', ...Object.keys(data), 'createdAt']);
  });
});
