// Outside production a missing secret (MASTER_KEY, ADMIN_TOKEN) is generated once into DATA_DIR
// (git-ignored, mode 0600) and read back on later starts, so `npm start` needs no set-up. The api and
// the worker start together and must agree on the master key: the file is created exclusively, and
// whoever loses the race reads the winner's value.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The secret in `dataDir/file`, created with `bytes` random bytes in `encoding` when absent. */
export function developmentSecret(
  dataDir: string,
  file: string,
  bytes = 32,
  encoding: 'base64' | 'base64url' = 'base64url',
): string {
  const path = join(dataDir, file);
  mkdirSync(dataDir, { recursive: true });
  try {
    writeFileSync(path, `${randomBytes(bytes).toString(encoding)}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return readFileSync(path, 'utf8').trim();
}
