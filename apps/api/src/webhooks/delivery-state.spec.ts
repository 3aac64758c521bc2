import { deliveryState } from './delivery-state.js';

const at = new Date('2030-01-31T10:00:00.000Z');

describe('deliveryState', () => {
  it('tells a first attempt still to make from a retry that is scheduled', () => {
    expect(deliveryState({ status: 'PENDING', numRetries: 0, nextAttemptAt: at })).toEqual({
      state: 'PENDING',
      nextAttemptAt: at,
    });
    expect(deliveryState({ status: 'PENDING', numRetries: 2, nextAttemptAt: at })).toEqual({
      state: 'RETRYING',
      nextAttemptAt: at,
    });
  });

  it.each(['DELIVERED', 'FAILED', 'SKIPPED'] as const)('has no next attempt once %s', (status) => {
    expect(deliveryState({ status, numRetries: 3, nextAttemptAt: at })).toEqual({
      state: status,
      nextAttemptAt: null,
    });
  });
});
