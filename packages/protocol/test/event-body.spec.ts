import fc from 'fast-check';

import { eventBodyText, parseWebhookEventText } from '../src/index.js';

const createdAt = new Date('2026-11-23T10:53:33.795Z');
const updatedAt = new Date('2026-11-23T10:54:00.001Z');

describe('eventBodyText', () => {
  it('writes the envelope in the guide order, then the data text as it is', () => {
    const data =
      '{"orgUserId":"u-1","orgId":7,"kyc":false,"tnc":true,"userStatus":"PENDING","userType":"CONSUMER"}';
    const text = eventBodyText(
      { orgId: 7, entity: 'Users', eventType: 'KYC_PENDING', numRetries: 2, createdAt, updatedAt },
      data,
    );
    expect(text).toBe(
      '{"event":{"orgId":7,"entity":"Users","eventType":"KYC_PENDING","numRetries":2,' +
        '"createdAt":"2026-11-23T10:53:33.795Z","updatedAt":"2026-11-23T10:54:00.001Z"},' +
        `"data":${data}}`,
    );
    expect(parseWebhookEventText(text).event.eventType).toBe('KYC_PENDING');
  });

  it('leaves eventType out when it is null or absent', () => {
    for (const eventType of [null, undefined]) {
      const text = eventBodyText(
        { orgId: 1, entity: 'Actions', eventType, numRetries: 0, createdAt, updatedAt: createdAt },
        '{"name":"QUOTE_LIMIT","newValues":{"EUR":10}}',
      );
      expect(text).not.toContain('eventType');
      expect(text.startsWith('{"event":{"orgId":1,"entity":"Actions","numRetries":0,')).toBe(true);
    }
  });

  it('keeps every digit and the key order of the data (no parse on the way)', () => {
    const data = '{"10":1,"2":0.100000000000000000001,"big":123456789012345678901234567890.12345678}';
    const text = eventBodyText(
      { orgId: 1, entity: 'Actions', numRetries: 0, createdAt, updatedAt: createdAt },
      data,
    );
    expect(text.endsWith(`"data":${data}}`)).toBe(true);
  });

  it('writes what JSON.stringify writes of the envelope, for any field values', () => {
    const date = fc.date({
      min: new Date(0),
      max: new Date('2999-12-31T23:59:59.999Z'),
      noInvalidDate: true,
    });
    fc.assert(
      fc.property(
        fc.record({
          orgId: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
          entity: fc.string(),
          eventType: fc.option(fc.string(), { nil: undefined }),
          numRetries: fc.nat(),
          createdAt: date,
          updatedAt: date,
        }),
        (fields) => {
          const { createdAt, updatedAt, eventType, ...rest } = fields;
          const event = {
            orgId: rest.orgId,
            entity: rest.entity,
            ...(eventType === undefined ? {} : { eventType }),
            numRetries: rest.numRetries,
            createdAt: createdAt.toISOString(),
            updatedAt: updatedAt.toISOString(),
          };
          expect(eventBodyText(fields, '[1]')).toBe(JSON.stringify({ event, data: [1] }));
        },
      ),
    );
  });
});
