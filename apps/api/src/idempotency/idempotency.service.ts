// Idempotency-Key (docs/api-guide.md#idempotent-retries; docs/decisions.md, "Requests: Idempotency-Key"):
// the first request with a key claims it and runs; its answer is kept under the key for 24 hours, and a repeat
// of the request gets that answer again without running. A key claimed by a request still running is a 409;
// one first used for another request is a 422.
import { Injectable } from '@nestjs/common';

import { AppError, conflict, quoted, unprocessable } from '../common/errors.js';
import { type Claim, IdempotencyRepository, type StoredAnswer } from './idempotency.repository.js';
import {
  CLAIM_LOCK_MS,
  KEY_LIFETIME_MS,
  keepsAnswer,
  REPLAYED_HEADER,
  type RequestFingerprint,
  sameRequest,
} from './idempotency-rules.js';

export type { Claim } from './idempotency.repository.js';

/**
 * The answer kept under a key, given again: raised where the request would have started its work, and
 * written as it is by the exception filter (the one place that answers for a handler that did not run).
 */
export class ReplayedAnswer extends Error {
  override readonly name = 'ReplayedAnswer';

  constructor(readonly answer: StoredAnswer) {
    super('the answer kept under the Idempotency-Key');
  }

  /** The headers to send: those kept with the answer, and the mark that it is a replay. */
  get headers(): Record<string, string> {
    return { ...this.answer.headers, [REPLAYED_HEADER]: 'true' };
  }
}

@Injectable()
export class IdempotencyService {
  constructor(private readonly keys: IdempotencyRepository) {}

  /**
   * Claims `key` of the organisation for `request`, answering the claim; or throws the answer kept under it
   * (ReplayedAnswer), a 409 while another request holds it, a 422 when it was first used for another request.
   */
  async begin(orgId: number, key: string, request: RequestFingerprint): Promise<Claim> {
    // Twice at most: a key found expired or lapsed between the claim and the look (pruned, or taken over and
    // given up) is claimed again.
    for (let attempt = 0; ; attempt++) {
      const claim = await this.keys.claim(orgId, key, request, CLAIM_LOCK_MS, KEY_LIFETIME_MS);
      if (claim) return claim;
      const record = await this.keys.find(orgId, key);
      if (record === null && attempt === 0) continue;
      if (record !== null && !sameRequest(record, request)) throw reused(key, record, request);
      if (record?.answer) throw new ReplayedAnswer(record.answer);
      throw inUse(key);
    }
  }

  /** Keeps the answer under the claimed key, or gives the key up when the answer is not one to keep. */
  async finish(claim: Claim, answer: StoredAnswer): Promise<void> {
    if (keepsAnswer(answer.status)) await this.keys.store(claim, answer);
    else await this.keys.release(claim);
  }

  /** Gives the key up: the answer could not be kept (not bytes), so a repeat runs afresh. */
  release(claim: Claim): Promise<void> {
    return this.keys.release(claim);
  }
}

function inUse(key: string): AppError {
  const error = conflict(
    `idempotency_key_in_use: a request with the Idempotency-Key ${quoted(key)} is still running; ` +
      'send it again once that one has answered',
  );
  return new AppError(error.code, error.detail, { 'retry-after': '1' });
}

function reused(key: string, first: RequestFingerprint, request: RequestFingerprint): AppError {
  const what =
    first.method !== request.method || first.target !== request.target
      ? `${first.method} ${first.target}`
      : `${first.method} ${first.target} with another body`;
  return unprocessable(
    `idempotency_key_reused: the Idempotency-Key ${quoted(key)} was first used for ${what}; ` +
      'use a new key for a new request',
  );
}
