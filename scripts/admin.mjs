#!/usr/bin/env node
// `npm run admin`: runs the built admin CLI (apps/api/dist/cli/admin.js), or says how to build it when
// it is not built yet, instead of Node's "Cannot find module" stack.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const cli = join(dirname(fileURLToPath(import.meta.url)), '..', 'apps', 'api', 'dist', 'cli', 'admin.js');

if (existsSync(cli)) {
  // The CLI reads process.argv itself: the arguments after this script's are the same.
  await import(pathToFileURL(cli).href);
} else {
  process.stderr.write(
    'admin: the CLI is not built yet: run `npm start` or `npm test` once (or `pnpm turbo run build`), ' +
      'then `npm run admin -- --help`\n',
  );
  process.exitCode = 1;
}
