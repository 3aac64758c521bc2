#!/usr/bin/env node
// Marks a build folder as CommonJS, so Node and TypeScript read its .js and .d.ts files as CJS
// although the package itself is "type": "module".
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

writeFileSync(join(process.argv[2], 'package.json'), '{ "type": "commonjs" }\n');
