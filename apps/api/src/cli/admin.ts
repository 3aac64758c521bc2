#!/usr/bin/env node
// The operator CLI (`npm run admin -- <command>`): a thin client of a running api's admin surface
// (/api/v1/admin/...). With --json, stdout holds exactly the answer's data as one line of JSON, so a
// script can create an organisation and read its credentials; errors go to stderr with a non-zero exit.
// Only Node built-ins and @svc/protocol, on Node 21 or later (JSON.rawJSON keeps amounts digit for digit):
// scripts/admin.mjs runs it on the toolchain's Node when the one it was started with is older. This file
// only wires admin/main.ts to the process; the commands are in admin/, one module per group.
import { join } from 'node:path';

import { main } from './admin/main.js';

void main(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  demoCredentials: join(__dirname, '..', '..', '..', '..', '.data', 'demo-credentials.json'),
}).then((code) => {
  process.exitCode = code;
});
