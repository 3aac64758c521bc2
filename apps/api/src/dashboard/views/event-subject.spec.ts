import { eventSubject } from './event-subject.js';

describe('what an event concerns', () => {
  it('names the user of a Users event', () => {
    expect(eventSubject('Users', '{"orgUserId":"ada","orgId":1,"kyc":false}')).toEqual({
      text: 'user ada',
      orgUserId: 'ada',
    });
  });

  it('names the side, pair and id of an Orders event, and its user', () => {
    const data = '{"id":12,"orgUserId":"ada","symbol":"BTC_EUR","side":"BUY","quantity":0.01}';
    expect(eventSubject('Orders', data)).toEqual({ text: 'BUY BTC_EUR · order 12', orgUserId: 'ada' });
  });

  it('names a policy change and a notice', () => {
    expect(eventSubject('Actions', '{"name":"QUOTE_LIMIT","newValues":{"EUR":1}}').text).toBe(
      'policy: QUOTE_LIMIT',
    );
    expect(
      eventSubject('SystemInformation', '{"event":"MAINTENANCE","entity":"BTC_EUR","message":"m"}').text,
    ).toBe('notice: MAINTENANCE BTC_EUR');
  });

  it('falls back to the entity for data of an unexpected shape', () => {
    expect(eventSubject('Users', 'not json')).toEqual({ text: 'a user', orgUserId: null });
    expect(eventSubject('Orders', '[1,2]')).toEqual({ text: 'an order', orgUserId: null });
    expect(eventSubject('SystemInformation', '{}').text).toBe('notice: system information');
  });
});
