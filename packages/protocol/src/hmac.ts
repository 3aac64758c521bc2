// HMAC-SHA256 in lowercase hex and a constant-time comparison, on node:crypto (no dependencies).
import { createHmac, timingSafeEqual } from 'node:crypto';

export function hmacHex(secret: string, ...parts: (string | Uint8Array)[]): string {
  const hmac = createHmac('sha256', secret);
  for (const part of parts) hmac.update(part);
  return hmac.digest('hex');
}

/** Compares two signatures without leaking through timing where they first differ. */
export function signaturesEqual(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  // Lengths are public (a digest is always 64 hex characters), so this early exit leaks nothing.
  return a.length === b.length && timingSafeEqual(a, b);
}
