// One candidate of the api benchmarks, run as a child process so that the load generator (autocannon, in
// the parent) never shares an event loop with the server it measures:
//   node lib/api-server.mjs api|api@<folder>|bare|bare-resting|<layer>
// (a layer: one of the framework layers of bench/layers.bench.mjs, lib/layers.mjs, for the route in
// BENCH_ROUTE)
// with DATABASE_URL (migrations are applied at start, as `npm start` does), MASTER_KEY, ADMIN_TOKEN and
// LOG_LEVEL in the environment. Over IPC it tells the parent its port, answers 'cpu' with its CPU time so
// far, and on 'stop' closes the server, the queue and the pool, then exits (so a --cpu-prof profile is
// written).
import { openDatabase, startBoss } from '@svc/db';

import { startBareApi } from './bare-api.mjs';
import { startBareResting } from './bare-resting.mjs';

// `api@<folder>`: the api built into apps/api/<folder> instead (an earlier build kept to compare with).
const [candidate, apiFolder] = process.argv[2].split('@');
const { createApp, createLogger, loadConfig } = apiFolder
  ? await import(new URL(`../../apps/api/${apiFolder}/index.js`, import.meta.url).href)
  : await import('@svc/api');
const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is required');

// The api's own configuration loader, so that every candidate runs with the same window and body limit.
const config = loadConfig(process.env);

let stop;
if (candidate === 'bare') {
  // The migrations are the api's; the reference only runs them, as the api does, before serving.
  const dataSource = await openDatabase({ url, applicationName: 'bench-migrate' });
  await dataSource.destroy();
  const bare = await startBareApi({ url, config });
  stop = () => bare.close();
  report(bare.server.address().port);
} else if (candidate === 'bare-resting') {
  // The resting-order reference (bench/orders.bench.mjs), on a database the api migrated.
  const bare = await startBareResting({ url, config });
  stop = () => bare.close();
  report(bare.server.address().port);
} else if (candidate === 'api') {
  const logger = createLogger(config.logLevel);
  const dataSource = await openDatabase({ url, applicationName: `bench-${candidate}` });
  const boss = await startBoss({ url, supervise: false }, (error) =>
    logger.warn({ err: error }, 'queue error'),
  );
  const app = await createApp({ config, logger, dataSource, boss });
  await app.listen(0, '127.0.0.1');
  stop = async () => {
    await app.close();
    await boss.stop({ graceful: false });
    await dataSource.destroy();
  };
  report(app.getHttpServer().address().port);
} else if (candidate === 'fastify' || candidate.startsWith('nest')) {
  // Loaded only here: the other candidates' processes carry no framework they do not use.
  const { startLayer } = await import('./layers.mjs');
  const layer = await startLayer(candidate, process.env.BENCH_ROUTE ?? 'bearer echo', { url, config });
  stop = () => layer.close();
  report(layer.port);
} else {
  throw new Error(`unknown candidate ${candidate}: api, bare, bare-resting or a layer of lib/layers.mjs`);
}

function report(port) {
  process.send({ ready: true, port });
}

process.on('message', (message) => {
  if (message === 'cpu') {
    // CPU time used so far (user + system, microseconds): the parent takes the difference over a run.
    const { user, system } = process.cpuUsage();
    process.send({ cpu: user + system, user, system });
    return;
  }
  if (message !== 'stop') return;
  stop().then(
    () => process.exit(0),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
});
process.on('disconnect', () => process.exit(0));
