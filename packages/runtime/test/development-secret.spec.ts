import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { developmentSecret } from '../src/development-secret.js';

describe('developmentSecret', () => {
  it('creates the secret once, mode 0600, and every later caller reads the same value', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'devsecret-')), 'data');
    const first = developmentSecret(dir, 'master.key');
    expect(Buffer.from(first, 'base64url')).toHaveLength(32);
    expect(developmentSecret(dir, 'master.key')).toBe(first);
    expect(statSync(join(dir, 'master.key')).mode & 0o777).toBe(0o600);
  });

  it('never overwrites a secret another process wrote first', () => {
    const dir = mkdtempSync(join(tmpdir(), 'devsecret-'));
    writeFileSync(join(dir, 'admin-token'), 'written-by-the-other-process\n');
    expect(developmentSecret(dir, 'admin-token')).toBe('written-by-the-other-process');
    expect(readFileSync(join(dir, 'admin-token'), 'utf8')).toBe('written-by-the-other-process\n');
  });
});
