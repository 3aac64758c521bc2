// Sign-in attempts throttled per account and per address (docs/operators.md#sign-in): the address's
// attempts and the account's failures are counted in the database in a fixed window, so the limits hold
// across instances; over either, a 429 with Retry-After, before any password is checked.
import { Inject, Injectable } from '@nestjs/common';

import { rateLimited } from '../common/errors.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { AttemptCountersRepository } from '../database/attempt-counters.repository.js';

@Injectable()
export class SignInThrottle {
  constructor(
    private readonly counters: AttemptCountersRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private get windowMs(): number {
    return this.config.operators.signIn.windowMinutes * 60_000;
  }

  /** Counts an attempt from `address` for `account`; throws the 429 when either is over its limit. */
  async attempt(account: string, address: string): Promise<void> {
    const { accountLimit, addressLimit } = this.config.operators.signIn;
    const byAddress = await this.counters.countAttempt(`address:${address}`, this.windowMs);
    if (byAddress.attempts > addressLimit) throw rateLimited(secondsUntil(byAddress.resetAt));
    const byAccount = await this.counters.attempts(`account:${account}`, this.windowMs);
    if (byAccount.attempts >= accountLimit && byAccount.resetAt)
      throw rateLimited(secondsUntil(byAccount.resetAt));
  }

  async failed(account: string): Promise<void> {
    await this.counters.countAttempt(`account:${account}`, this.windowMs);
  }

  async succeeded(account: string): Promise<void> {
    await this.counters.clearAttempts(`account:${account}`);
  }
}

function secondsUntil(at: Date): number {
  return Math.max(1, Math.ceil((at.getTime() - Date.now()) / 1000));
}
