// One candidate of the event stream benchmark, run as a child process so that the producer and the 20
// stream clients (in the parent) never share its event loop:
//   node lib/events-server.mjs api|bare
// with DATABASE_URL (migrations applied at start), MASTER_KEY, ADMIN_TOKEN, LOG_LEVEL and the api's
// EVENT_STREAM* variables in the environment. Over IPC it tells the parent its port, answers 'cpu' with its
// CPU time so far, and on 'stop' closes everything and exits.
import { createApp, createLogger, loadConfig } from '@svc/api';
import { openDatabase, startBoss } from '@svc/db';

import { startBareEvents } from './bare-events.mjs';

const candidate = process.argv[2];
const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is required');

let stop;
if (candidate === 'bare') {
  // The migrations (the events table, its trigger) are the api's; the reference only runs them.
  const dataSource = await openDatabase({ url, applicationName: 'bench-migrate' });
  await dataSource.destroy();
  const bare = await startBareEvents({ url });
  stop = () => bare.close();
  report(bare.server.address().port);
} else if (candidate === 'api') {
  const config = loadConfig(process.env);
  const logger = createLogger(config.logLevel);
  const dataSource = await openDatabase({ url, applicationName: 'bench-api' });
  const boss = await startBoss({ url, supervise: false, listen: false }, (error) =>
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
} else {
  throw new Error(`unknown candidate ${candidate}: api or bare`);
}

function report(port) {
  process.send({ ready: true, port });
}

process.on('message', (message) => {
  if (message === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send({ cpu: user + system });
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
