// Secrets the services must read back in clear (API secrets for HMAC, webhook secrets for signing), sealed at
// rest with AES-256-GCM under the master key (docs/decisions.md, "Authentication: credentials at rest"). The
// api seals; the api and the worker open, so the helper lives here, where both import it.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** AES-256-GCM under the master key; the output is `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
export function encryptSecret(masterKey: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', masterKey, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

export function decryptSecret(masterKey: Buffer, sealed: string): string {
  const [version, iv, tag, ciphertext] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || ciphertext === undefined)
    throw new Error('unreadable sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', masterKey, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString(
    'utf8',
  );
}
