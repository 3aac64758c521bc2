#!/usr/bin/env node
// The `svc` command of @svc/sdk (`npx svc listen --forward-to ...`): wires cli/main.ts to the process.
// Ctrl-C or SIGTERM stops it cleanly; a second Ctrl-C ends it at once.
import { main } from '../cli/main.js';

const stop = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stop.abort());

void main(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  signal: stop.signal,
}).then((code) => {
  process.exitCode = code;
});
