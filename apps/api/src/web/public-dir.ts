import { join } from 'node:path';

/** apps/api/public, from src/web (tests) and dist/web (the build) alike: the assets of the web areas. */
export const PUBLIC_DIR = join(__dirname, '..', '..', 'public');
