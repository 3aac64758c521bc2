// What the soak run checks at its end, from the events table as PostgreSQL holds it, the writes the api was
// sent (load.mjs's ledger), what the webhook receiver got and what the event stream carried: no event lost,
// none invented, none twice, delivered and streamed in order. Pure: the run gathers, this judges.
import { eventKey } from './load.mjs';

/** The organisation's events in the stream's order (the writing transaction, then the insertion order). */
export async function readEvents(pool, orgId) {
  const { rows } = await pool.query(
    `SELECT id, entity, event_type, data::text AS data, status
       FROM events WHERE org_id = $1 ORDER BY txid, position`,
    [orgId],
  );
  return rows.map((row) => ({
    ...row,
    key: eventKey(row.entity, row.event_type, JSON.parse(row.data)),
  }));
}

/**
 * Judges the run. Answers the figures to print and the violations, by rule, each with the ids or keys that
 * break it (empty when the run passed).
 */
export function judge({ writes, events, receiver, streamed }) {
  const violations = {};
  const violate = (rule, what) => (violations[rule] ??= []).push(what);
  const byId = new Map(events.map((event, rank) => [event.id, { ...event, rank }]));

  // Writes and their events: an event per accepted write, none for a refused one, all or none for one
  // whose answer never came, and no event that no write asked for.
  const eventsByKey = new Map();
  for (const event of events) eventsByKey.set(event.key, (eventsByKey.get(event.key) ?? 0) + 1);
  const declared = new Set();
  for (const write of writes) {
    const found = write.keys.map((key) => eventsByKey.get(key) ?? 0);
    write.keys.forEach((key) => declared.add(key));
    const describe = `${write.route} (${write.keys.join(', ')})`;
    if (write.outcome === 'accepted' && found.some((n) => n === 0)) {
      violate('an accepted write has no event', describe);
    }
    if (write.outcome === 'refused' && found.some((n) => n > 0)) {
      violate('a refused write has an event', `${describe}: ${write.detail}`);
    }
    if (write.outcome === 'unknown' && found.some((n) => n > 0) && found.some((n) => n === 0)) {
      violate('a write committed part of its events', describe);
    }
  }
  for (const [key, count] of eventsByKey) {
    if (!declared.has(key)) violate('an event no write asked for', key);
    if (count > 1) violate('one write has its event more than once', `${key} (${count} events)`);
  }

  // Webhooks: every event DELIVERED and received; a second delivery of an id is a retry (at least once),
  // but a delivery must be of an event that exists, with its body.
  const status = {};
  for (const event of events) {
    status[event.status] = (status[event.status] ?? 0) + 1;
    if (event.status !== 'DELIVERED') violate('an event is not DELIVERED', `${event.id} ${event.status}`);
    const received = receiver.deliveries.get(event.id);
    if (!received || received.bodies.length === 0) violate('an event never reached the receiver', event.id);
  }
  let deliveries = 0;
  for (const [id, received] of receiver.deliveries) {
    deliveries += received.bodies.length;
    const event = byId.get(id);
    if (!event) {
      violate('the receiver got an event that does not exist', id);
      continue;
    }
    for (const body of received.bodies) {
      if (!sameEvent(body, event)) violate('a delivery differs from its event', id);
    }
  }
  if (receiver.counts.badSignatures > 0) {
    violate('a request to the receiver was not signed with the secret', `${receiver.counts.badSignatures}`);
  }

  // The stream: each event once, in the events' order, with its body.
  const streamedIds = new Set();
  let lastRank = -1;
  for (const { id, body } of streamed.events) {
    const event = byId.get(id);
    if (!event) {
      violate('the stream carried an event that does not exist', id);
      continue;
    }
    if (streamedIds.has(id)) violate('the stream carried an event twice', id);
    else if (event.rank < lastRank) violate('the stream carried an event out of order', id);
    streamedIds.add(id);
    lastRank = Math.max(lastRank, event.rank);
    if (!sameEvent(body, event)) violate('a streamed body differs from its event', id);
  }
  for (const event of events) {
    if (!streamedIds.has(event.id)) violate('an event is missing from the stream', event.id);
  }

  const outcomes = { accepted: 0, refused: 0, unknown: 0 };
  const routes = new Map();
  const reasons = {};
  for (const write of writes) {
    outcomes[write.outcome]++;
    if (write.outcome !== 'accepted') reasons[write.reason] = (reasons[write.reason] ?? 0) + 1;
    const route = routes.get(write.route) ?? { attempted: 0, accepted: 0, refused: 0, unknown: 0 };
    route.attempted++;
    route[write.outcome]++;
    routes.set(write.route, route);
  }
  const eventIdsReceived = [...receiver.deliveries.values()].filter((r) => r.bodies.length > 0).length;
  return {
    figures: {
      writes: {
        attempted: writes.length,
        ...outcomes,
        reasons,
        // Answers a valid write should never get, even while something is down: a 4xx, or a 500 (an
        // outage is a 503).
        unexpected: writes.filter((write) => write.outcome === 'refused' || write.reason === '500'),
      },
      routes,
      events: { total: events.length, byStatus: status, byEntity: countBy(events, entityName) },
      webhooks: {
        eventsReceived: eventIdsReceived,
        deliveries,
        duplicates: deliveries - eventIdsReceived,
        refusedOnPurpose: receiver.counts.refusedOnPurpose,
        challenges: receiver.counts.challenges,
        badSignatures: receiver.counts.badSignatures,
      },
      stream: { streamed: streamed.events.length, distinct: streamedIds.size, ...streamed.counts },
    },
    violations,
  };
}

/** Whether a delivered or streamed body is the stored event: entity, type and the data's text alike. */
function sameEvent(body, event) {
  const parsed = JSON.parse(body);
  return (
    parsed.event.entity === event.entity &&
    (parsed.event.eventType ?? null) === event.event_type &&
    JSON.stringify(parsed.data) === JSON.stringify(JSON.parse(event.data))
  );
}

function entityName(event) {
  return event.event_type ?? event.entity;
}

function countBy(items, keyOf) {
  const counts = {};
  for (const item of items) counts[keyOf(item)] = (counts[keyOf(item)] ?? 0) + 1;
  return counts;
}
