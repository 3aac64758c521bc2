// The reference of bench/events.bench.mjs: an event stream with nothing but node:http and pg, written here
// and sharing no code with the api. GET /stream?org=<id> answers Server-Sent Events; one LISTEN connection
// (writers NOTIFY 'svc_events' with the organisations' ids, delivered at commit) wakes the organisation's
// reader, which reads the rows after its cursor whose transaction is below the snapshot's xmin (so that a
// transaction committing late is not skipped), writes `id:` and `data:` to each of that organisation's
// streams, and reads again shortly while committed rows wait behind an older transaction. No
// authentication, no resume, no cap, no heartbeat: the measured path only.
import { createServer } from 'node:http';

import pg from 'pg';

const BATCH = 500;

/** Starts the reference on `url`; answers the server and a close(). */
export async function startBareEvents({ url }) {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  const listener = new pg.Client({ connectionString: url });
  await listener.connect();
  await listener.query('LISTEN svc_events');
  /** orgId -> { cursor: [txid, position], streams: Set<res>, busy, again, timer } */
  const feeds = new Map();
  listener.on('notification', ({ payload }) => {
    if (payload === '*') for (const feed of feeds.values()) read(feed);
    else
      for (const id of payload.split(',')) {
        const feed = feeds.get(Number(id));
        if (feed) read(feed);
      }
  });

  async function read(feed) {
    if (feed.busy) {
      feed.again = true;
      return;
    }
    feed.busy = true;
    try {
      do {
        feed.again = false;
        const { rows } = await pool.query(
          `SELECT s.xmin::text AS xmin, e.id, e.entity, e.event_type, e.created_at, e.data::text AS data,
                  e.txid::text AS txid, e.position::text AS position
             FROM (SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint AS xmin) s
             LEFT JOIN LATERAL (SELECT * FROM events WHERE org_id = $1 AND (txid, position) > ($2, $3)
                                 ORDER BY txid, position LIMIT $4) e ON true`,
          [feed.orgId, feed.cursor[0], feed.cursor[1], BATCH],
        );
        const xmin = BigInt(rows[0].xmin);
        let waiting = false;
        let frames = '';
        let last;
        for (const row of rows) {
          if (row.id === null) continue;
          if (BigInt(row.txid) >= xmin) {
            waiting = true;
            break;
          }
          const event = { orgId: feed.orgId, entity: row.entity };
          if (row.event_type !== null) event.eventType = row.event_type;
          const at = row.created_at.toISOString();
          Object.assign(event, { numRetries: 0, createdAt: at, updatedAt: at });
          frames += `id: ${row.id}\ndata: {"event":${JSON.stringify(event)},"data":${row.data}}\n\n`;
          last = [row.txid, row.position];
        }
        if (frames) for (const res of feed.streams) res.write(frames);
        if (last) feed.cursor = last;
        if (rows.length < BATCH) {
          // Every final row after the cursor was read: nothing below (xmin, 0) can come any more.
          if (BigInt(feed.cursor[0]) < xmin) feed.cursor = [xmin.toString(), '0'];
        } else if (!waiting) feed.again = true;
        if (waiting && !feed.timer) {
          feed.timer = setTimeout(() => {
            feed.timer = undefined;
            read(feed);
          }, 2);
        }
      } while (feed.again);
    } catch (error) {
      console.error('reference read failed:', error.message);
    } finally {
      feed.busy = false;
    }
  }

  const server = createServer(async (req, res) => {
    const orgId = Number(new URL(req.url, 'http://x').searchParams.get('org'));
    let feed = feeds.get(orgId);
    if (!feed) {
      const { rows } = await pool.query('SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin');
      feed = feeds.get(orgId);
      if (!feed) {
        feed = { orgId, cursor: [rows[0].xmin, '0'], streams: new Set(), busy: false, again: false };
        feeds.set(orgId, feed);
      }
    }
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store' });
    res.write('retry: 2000\n\n');
    feed.streams.add(res);
    res.on('close', () => feed.streams.delete(res));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    async close() {
      for (const feed of feeds.values()) for (const res of feed.streams) res.end();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await listener.end();
      await pool.end();
    },
  };
}
