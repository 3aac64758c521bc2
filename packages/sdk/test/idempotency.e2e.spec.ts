// Idempotency-Key through the SDK against the real api (docs/api-guide.md#idempotent-retries): a write whose
// answer is lost on the way back is sent again with the same key, and the api answers it without doing the
// work twice; a caller's own key makes a call safe to repeat across processes.
import type { FetchLike } from '../src/index.js';
import { clientsOf, createOrg, newUserId, type OrgCredentials } from './support/fixture.js';

interface Sent {
  readonly method: string;
  readonly key: string | undefined;
  readonly replayed: string | null;
}

/** The global fetch, but the first answer to a keyed write is dropped after the api has sent it. */
function droppingFirstWriteAnswer(): { fetch: FetchLike; sent: Sent[] } {
  const sent: Sent[] = [];
  let dropped = false;
  const dropping: FetchLike = async (url, init) => {
    const response = await fetch(url, init);
    const headers = init.headers as Record<string, string>;
    const method = init.method ?? 'GET';
    sent.push({
      method,
      key: headers['idempotency-key'],
      replayed: response.headers.get('idempotent-replayed'),
    });
    if (headers['idempotency-key'] !== undefined && !dropped) {
      dropped = true;
      await response.arrayBuffer();
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
      });
    }
    return response;
  };
  return { fetch: dropping, sent };
}

describe.each(['signed', 'oauth'] as const)('Idempotency-Key from the SDK (%s)', (method) => {
  let org: OrgCredentials;

  beforeAll(async () => {
    org = await createOrg();
  });

  it('retries a user creation whose answer was lost with the same key: one user, one event', async () => {
    const { fetch, sent } = droppingFirstWriteAnswer();
    const client = clientsOf(org, { fetch, retry: { initialDelayMs: 10, maxDelayMs: 20 } })[method];
    const orgUserId = newUserId();

    const created = await client.users.create({ orgUserId, kyc: true, tnc: true });

    expect(created).toMatchObject({ orgUserId, userStatus: 'ACTIVE' });
    // The token request (OAuth) carries no key: it is no organisation's write.
    const userWrites = sent.filter((s) => s.key !== undefined);
    expect(userWrites).toHaveLength(2);
    expect(userWrites[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(userWrites[1]!.key).toBe(userWrites[0]!.key);
    expect(userWrites.map((s) => s.replayed)).toEqual([null, 'true']);
    const plain = clientsOf(org)[method];
    let users = 0;
    for await (const user of plain.users.list({ limit: 100 })) if (user.orgUserId === orgUserId) users++;
    let events = 0;
    for await (const event of plain.events.list({ entity: 'Users', limit: 100 }))
      if (JSON.stringify(event).includes(orgUserId)) events++;
    expect({ users, events }).toEqual({ users: 1, events: 1 });
  });

  it("sends the caller's own key: the same call again gets the first answer", async () => {
    const client = clientsOf(org)[method];
    const idempotencyKey = `own-${newUserId()}`;
    const orgUserId = newUserId();
    const first = await client.users.create({ orgUserId, kyc: false, tnc: true }, { idempotencyKey });
    const again = await client.users.create({ orgUserId, kyc: false, tnc: true }, { idempotencyKey });
    expect(again).toEqual(first);
  });
});
