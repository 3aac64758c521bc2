import { generate } from 'otplib';

import {
  checkTotp,
  hashPassword,
  newOperatorToken,
  newTotpSecret,
  verifyPassword,
} from './operator-secrets.js';

describe('operator secrets', () => {
  it('hashes passwords with argon2id and a salt of their own', async () => {
    const [a, b] = await Promise.all([
      hashPassword('correct horse battery'),
      hashPassword('correct horse battery'),
    ]);
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword(a, 'correct horse battery')).toBe(true);
    expect(await verifyPassword(a, 'correct horse batterz')).toBe(false);
    expect(await verifyPassword('not a hash', 'correct horse battery')).toBe(false);
  });

  it('takes a TOTP code of this step or the next, once, and nothing else', async () => {
    const { secret, otpauthUri } = newTotpSecret('ann@ops.example');
    expect(otpauthUri).toBe(
      `otpauth://totp/svc%20platform:ann%40ops.example?secret=${secret}&issuer=svc%20platform`,
    );
    const now = Date.UTC(2030, 0, 1, 12, 0, 10);
    const step = Math.floor(now / 30_000);
    const current = await generate({ secret, epoch: now / 1000 });
    const next = await generate({ secret, epoch: now / 1000 + 30 });
    const far = await generate({ secret, epoch: now / 1000 + 90 });
    expect(await checkTotp(secret, current, null, now)).toBe(step);
    expect(await checkTotp(secret, next, null, now)).toBe(step + 1);
    expect(await checkTotp(secret, far, null, now)).toBeNull();
    // Replay: a code of a step already used, or of an earlier one, is refused as such.
    expect(await checkTotp(secret, current, step, now)).toBe('replayed');
    expect(await checkTotp(secret, current, step + 1, now)).toBe('replayed');
    expect(await checkTotp(secret, far, step, now)).toBeNull();
    expect(await checkTotp(secret, next, step, now)).toBe(step + 1);
    expect(await checkTotp(secret, 'abcdef', null, now)).toBeNull();
    expect(await checkTotp(secret, `${current}0`, null, now)).toBeNull();
  });

  it('makes personal tokens of 256 random bits with a readable prefix', () => {
    const token = newOperatorToken();
    expect(token).toMatch(/^op_[A-Za-z0-9_-]{43}$/);
    expect(newOperatorToken()).not.toBe(token);
  });
});
