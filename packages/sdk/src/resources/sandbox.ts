// The client's `sandbox` group: a sandbox organisation's test clock and triggered events (docs/testing.md).
// A live organisation gets NotFoundError from each.
import type { RequestOptions } from '../transport.js';
import type { AdvanceClockParams, SandboxClock, TriggeredEvent, TriggerEventParams } from '../types.js';
import { path, type Call } from './call.js';

export class SandboxResource {
  constructor(private readonly call: Call) {}

  /** GET /api/v1/sandbox/clock/: the organisation's time. */
  clock(options?: RequestOptions): Promise<SandboxClock> {
    return this.call({ method: 'GET', path: path('sandbox', 'clock'), idempotent: true }, options);
  }

  /**
   * POST /api/v1/sandbox/clock/: moves the clock forward. Retried with one Idempotency-Key, so a repeat
   * after a lost answer replays it rather than moving the clock twice.
   */
  advanceClock(params: AdvanceClockParams, options?: RequestOptions): Promise<SandboxClock> {
    if ((params.advanceBy === undefined) === (params.to === undefined)) {
      throw new TypeError('give exactly one of advanceBy (seconds) and to (an ISO 8601 time)');
    }
    const body = params.advanceBy === undefined ? { to: params.to } : { advanceBy: params.advanceBy };
    return this.call(
      {
        method: 'POST',
        path: path('sandbox', 'clock'),
        body: { kind: 'json', value: body },
        idempotent: false,
      },
      options,
    );
  }

  /** POST /api/v1/sandbox/events/: records a real event of the kind asked for (retried with one key). */
  trigger(params: TriggerEventParams, options?: RequestOptions): Promise<TriggeredEvent> {
    const body = {
      entity: params.entity,
      ...(params.eventType === undefined ? {} : { eventType: params.eventType }),
      ...(params.orgUserId === undefined ? {} : { orgUserId: params.orgUserId }),
    };
    return this.call(
      {
        method: 'POST',
        path: path('sandbox', 'events'),
        body: { kind: 'json', value: body },
        idempotent: false,
      },
      options,
    );
  }
}
