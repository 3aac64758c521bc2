// Sign-in and step-up attempts throttled (docs/operators.md#sign-in, docs/decisions.md, "Authentication: throttles"), in
// the database so that the limits hold across instances. An attempt is taken before any password or code
// is checked, each count in one statement that refuses once the limit is reached, so that concurrent
// guesses are checked no more often than the limit allows:
// - per address, `addressLimit` attempts per window, whatever the accounts (one address guessing many);
// - per account and address, `accountLimit` attempts per window: a success clears them, so what remains
//   are failures; an attacker's failures refuse the attacker's address, never the owner at another;
// - per account, `accountPerMinute` checks a minute from all addresses together: many addresses guessing
//   one account are slowed to that rate, and the owner waits at most a minute, never the window.
import { Inject, Injectable } from '@nestjs/common';

import { rateLimited } from '../common/errors.js';
import { throttleSource } from '../common/throttle-source.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { AttemptCountersRepository } from '../database/attempt-counters.repository.js';

const MINUTE_MS = 60_000;

/** The counters' keys for an attempt at `account` from `address`. */
function keysOf(account: string, address: string) {
  const source = throttleSource(address);
  return {
    address: `address:${source}`,
    accountAddress: `account-address:${account}|${source}`,
    account: `account:${account}`,
  };
}

@Injectable()
export class SignInThrottle {
  constructor(
    private readonly counters: AttemptCountersRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private get windowMs(): number {
    return this.config.operators.signIn.windowMinutes * MINUTE_MS;
  }

  /**
   * Takes an attempt at `account`'s credentials from `address`, or throws the 429 with Retry-After. The
   * attempt counts as a failure unless `succeeded` or `replayed` says otherwise.
   */
  async attempt(account: string, address: string): Promise<void> {
    const { accountLimit, accountPerMinute, addressLimit } = this.config.operators.signIn;
    const keys = keysOf(account, address);
    const byAddress = await this.counters.take(keys.address, addressLimit, this.windowMs);
    if (!byAddress.taken) throw rateLimited(byAddress.retryAfterSeconds);
    const byAccountAddress = await this.counters.take(keys.accountAddress, accountLimit, this.windowMs);
    if (!byAccountAddress.taken) throw rateLimited(byAccountAddress.retryAfterSeconds);
    const byAccount = await this.counters.take(keys.account, accountPerMinute, MINUTE_MS);
    if (!byAccount.taken) {
      // Slowed by the account's rate, not refused for this address's failures: it keeps its attempt.
      await this.counters.giveBack(keys.accountAddress);
      throw rateLimited(byAccount.retryAfterSeconds);
    }
  }

  /** The credentials were right: the address's failures at the account are forgotten. */
  async succeeded(account: string, address: string): Promise<void> {
    await this.counters.clear(keysOf(account, address).accountAddress);
  }

  /** The code was right but already used (a double submit, a replay): refused, but not a guess. */
  async replayed(account: string, address: string): Promise<void> {
    const keys = keysOf(account, address);
    for (const key of [keys.address, keys.accountAddress, keys.account]) await this.counters.giveBack(key);
  }
}
