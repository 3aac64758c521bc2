// Credentials at rest (docs/decisions.md, "Authentication: credentials at rest"): API secrets encrypted (HMAC
// needs them in clear), OAuth client secrets under a slow hash, access tokens under SHA-256 (they carry 256
// random bits, so a fast hash is enough and keeps the bearer check cheap).
import { hash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

/** A random credential with a readable prefix: `pk_…` keys, `sk_…` secrets, `at_…` tokens. */
export function newCredential(prefix: string, bytes = 32): string {
  return `${prefix}_${randomBytes(bytes).toString('base64url')}`;
}

// Sealed at rest under the master key; shared with the webhooks worker, which opens webhook secrets.
export { decryptSecret, encryptSecret } from '@svc/db';

const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 };

/** scrypt, `scrypt$N$r$p$salt$hash`, so the cost can be raised later without breaking old hashes. */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(secret, salt, SCRYPT.keylen, { ...SCRYPT, maxmem: 64 * 1024 * 1024 });
  return [
    'scrypt',
    SCRYPT.N,
    SCRYPT.r,
    SCRYPT.p,
    salt.toString('base64url'),
    hash.toString('base64url'),
  ].join('$');
}

export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scryptAsync(secret, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: 64 * 1024 * 1024,
  });
  return timingSafeEqual(actual, expected);
}

/**
 * SHA-256 in hex, in one call (a Hash object per call costs about 0.6 µs more, on every bearer request: for
 * the bearer echo and read targets, docs/decisions.md, "Request path: credentials on the hot path").
 */
export function sha256Hex(value: string): string {
  return hash('sha256', value, 'hex');
}

/** Compares two secrets in constant time (over their SHA-256, so unequal lengths leak nothing either). */
export function constantTimeEqual(a: string, b: string): boolean {
  return timingSafeEqual(hash('sha256', a, 'buffer'), hash('sha256', b, 'buffer'));
}
