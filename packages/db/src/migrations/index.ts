import type { MigrationInterface } from 'typeorm';

import { Init1795000000000 } from './1795000000000-Init.js';

/** In order of application. */
export const MIGRATIONS: (new () => MigrationInterface)[] = [Init1795000000000];
