// Looks up API keys and access tokens for the auth guard. Lookups are cached for half a second: enough to
// take the database off the hot path of a busy client, short enough that a revocation reaches every instance
// within 1 s (docs/decisions.md, "Authentication: the credentials cache and revocation") without any
// cross-instance messaging.
import { Inject, Injectable } from '@nestjs/common';
import { isScope, type Scope } from '@svc/protocol';

import type { Principal } from '../auth/principal.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { CredentialsRepository } from './credentials.repository.js';
import { decryptSecret, sha256Hex } from './secrets.js';

export const CACHE_TTL_MS = 500;

/** "Last used" is kept to the minute. */
const TOUCH_INTERVAL_MS = 60_000;

export interface LiveApiKey {
  readonly id: string;
  readonly orgId: number;
  readonly secret: string;
}

export interface LiveToken {
  readonly id: string;
  /** The OAuth client's row id. */
  readonly clientId: string;
  readonly orgId: number;
  readonly scopes: readonly Scope[];
  readonly expiresAt: number;
}

class TtlCache<V> {
  private readonly entries = new Map<string, { value: V | null; until: number }>();
  /**
   * Loads under way: the requests that miss while a key loads wait for that load rather than each querying
   * (at every expiry, every connection of a busy client missed at once: 8 µs of TypeORM per bearer echo; for
   * its target: docs/decisions.md, "Request path: credentials on the hot path").
   */
  private readonly loading = new Map<string, Promise<V | null>>();
  /** Bumped by `clear`: a load begun before it must not cache what it read. */
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  async get(key: string, load: () => Promise<V | null>): Promise<V | null> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.until > now) return hit.value;
    const pending = this.loading.get(key);
    if (pending) return pending;
    const loaded = this.load(key, load, now);
    this.loading.set(key, loaded);
    const done = () => {
      if (this.loading.get(key) === loaded) this.loading.delete(key);
    };
    loaded.then(done, done);
    return loaded;
  }

  private async load(key: string, load: () => Promise<V | null>, now: number): Promise<V | null> {
    const generation = this.generation;
    const value = await load();
    if (generation === this.generation) {
      // Bounded: unknown keys are cached too, so a flood of made-up keys must not grow the map forever.
      if (this.entries.size >= this.maxEntries) this.entries.clear();
      this.entries.set(key, { value, until: now + this.ttlMs });
    }
    return value;
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
    this.loading.clear();
  }
}

@Injectable()
export class CredentialsService {
  private readonly apiKeys = new TtlCache<LiveApiKey>(CACHE_TTL_MS);
  private readonly tokens = new TtlCache<LiveToken>(CACHE_TTL_MS);
  /**
   * When this instance last recorded each credential's use, by kind, then by row id: the id is the cached
   * lookup's own string, so this costs no string building per request (for the bearer echo target:
   * docs/decisions.md, "Request path: credentials on the hot path").
   */
  private readonly touched = { apiKey: new Map<string, number>(), client: new Map<string, number>() };

  constructor(
    private readonly credentials: CredentialsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The live (not revoked) key with this public value, its secret decrypted; null when none. */
  findApiKey(key: string): Promise<LiveApiKey | null> {
    return this.apiKeys.get(key, async () => {
      const row = await this.credentials.findLiveApiKey(key);
      if (!row) return null;
      return {
        id: row.id,
        orgId: row.orgId,
        secret: decryptSecret(this.config.masterKey, row.secretCiphertext),
      };
    });
  }

  /** The live token with this value: not expired, not revoked, its client not revoked; null otherwise. */
  async findToken(token: string): Promise<LiveToken | null> {
    const hash = sha256Hex(token);
    const live = await this.tokens.get(hash, async () => {
      const row = await this.credentials.findLiveToken(hash);
      if (!row) return null;
      return {
        id: row.id,
        clientId: row.clientId,
        orgId: row.orgId,
        scopes: row.scopes.filter(isScope),
        expiresAt: row.expiresAt.getTime(),
      };
    });
    return live && live.expiresAt > Date.now() ? live : null;
  }

  /**
   * Records a (key, signature) pair as used until the window has passed it; false when it was used
   * before: a replay (docs/api-guide.md#api-key-signing). Shared through the database, so it holds across instances.
   */
  claimSignature(apiKeyId: string, signature: string, timestampSeconds: number): Promise<boolean> {
    const expiresAt = new Date((timestampSeconds + this.config.signatureWindow.maxAgeSeconds + 1) * 1000);
    return this.credentials.claimSignature(apiKeyId, signature, expiresAt);
  }

  /**
   * Records that the API key or OAuth client (its row id) was just used, for the dashboard's "last used":
   * at most one write per credential per minute from this instance, the database skipping the rest.
   */
  async touch(kind: 'apiKey' | 'client', id: string): Promise<void> {
    const now = Date.now();
    const touched = this.touched[kind];
    if ((touched.get(id) ?? 0) > now - TOUCH_INTERVAL_MS) return;
    if (touched.size >= 10_000) touched.clear();
    touched.set(id, now);
    await this.credentials.touch(kind === 'apiKey' ? 'api_keys' : 'oauth_clients', id);
  }

  /** Deletes used signatures whose window has passed; any instance may run it. */
  sweepUsedSignatures(): Promise<number> {
    return this.credentials.deleteExpiredSignatures();
  }

  /**
   * The callers, among `principals`, whose credential has been revoked (or, for a token, has expired) since
   * they authenticated: what holds a connection open (an event stream) checks this as it goes.
   */
  async lapsed<P extends Principal>(principals: Iterable<P>): Promise<P[]> {
    const all = [...principals];
    if (all.length === 0) return [];
    const ids = (method: Principal['method']) => [
      ...new Set(all.filter((p) => p.method === method).map((p) => p.credentialId)),
    ];
    const live = await this.credentials.liveCredentialIds(ids('hmac'), ids('bearer'));
    return all.filter((principal) => !live.has(principal.credentialId));
  }

  /** Drops cached lookups: this instance then sees a revocation at once (the others within the TTL). */
  forget(): void {
    this.apiKeys.clear();
    this.tokens.clear();
  }
}
