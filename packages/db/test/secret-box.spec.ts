import { randomBytes } from 'node:crypto';

import { decryptSecret, encryptSecret } from '../src/secret-box.js';

describe('secret box', () => {
  const key = randomBytes(32);

  it('opens what it sealed, and seals the same secret differently each time', () => {
    const a = encryptSecret(key, 'whsec_é/ü');
    const b = encryptSecret(key, 'whsec_é/ü');
    expect(a).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(a).not.toBe(b);
    expect(decryptSecret(key, a)).toBe('whsec_é/ü');
  });

  it('refuses another key, a tampered text and an unknown format', () => {
    const sealed = encryptSecret(key, 'secret');
    expect(() => decryptSecret(randomBytes(32), sealed)).toThrow();
    const [v, iv, tag, text = ''] = sealed.split('.');
    const flipped = Buffer.from(text, 'base64url');
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(() => decryptSecret(key, [v, iv, tag, flipped.toString('base64url')].join('.'))).toThrow();
    expect(() => decryptSecret(key, 'v2.a.b.c')).toThrow('unreadable sealed secret');
  });
});
