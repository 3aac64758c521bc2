import { dropTemplateDatabase } from './index.js';

export default async function globalTeardown(): Promise<void> {
  const template = globalThis.svcTestTemplate;
  // The embedded server goes with its folder; a server named by DATABASE_URL keeps running, without it.
  if (template && !globalThis.svcTestPostgres) await dropTemplateDatabase(template.serverUrl, template.name);
  await globalThis.svcTestPostgres?.stop();
}
