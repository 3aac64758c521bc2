// The replay guard's record (used_signatures): a signed request leaves its signature until its window
// passes, and the sweep deletes only the rows whose window has passed.
import { CredentialsService } from '../src/credentials/credentials.service.js';
import { UsedSignaturesSweeper } from '../src/credentials/used-signatures.sweeper.js';
import { ApiFixture, type OrgSession } from './support/app-fixture.js';

describe('used signatures', () => {
  let api: ApiFixture;
  let org: OrgSession;

  beforeAll(async () => {
    api = await ApiFixture.start();
    org = await api.createOrg();
  });
  afterAll(() => api.close());

  it('the sweep deletes the signatures whose window has passed, answers how many, and keeps the others', async () => {
    const response = await org.signed('GET', '/api/v1/org/');
    expect(response.status).toBe(200);
    const [key] = await api.rows<{ api_key_id: string }>(
      'SELECT api_key_id FROM used_signatures ORDER BY expires_at DESC LIMIT 1',
    );
    expect(key).toBeDefined();
    await api.rows(
      `INSERT INTO used_signatures (api_key_id, signature, expires_at)
       VALUES ($1, 'passed-1', now() - interval '1 minute'), ($1, 'passed-2', now() - interval '1 hour')`,
      [key!.api_key_id],
    );
    const before = await api.rows<{ signature: string }>('SELECT signature FROM used_signatures');

    expect(await api.app.get(CredentialsService).sweepUsedSignatures()).toBe(2);

    const after = await api.rows<{ signature: string }>('SELECT signature FROM used_signatures');
    expect(after.map((row) => row.signature).sort()).toEqual(
      before
        .map((row) => row.signature)
        .filter((signature) => !signature.startsWith('passed-'))
        .sort(),
    );
    expect(after.length).toBeGreaterThan(0);
  });

  it('runs in the app as its own upkeep, deleting only the rows whose window has passed', async () => {
    const [key] = await api.rows<{ api_key_id: string }>(
      "INSERT INTO used_signatures (api_key_id, signature, expires_at) SELECT id, 'live', now() + interval '1 minute' FROM api_keys LIMIT 1 RETURNING api_key_id",
    );
    await api.rows(
      `INSERT INTO used_signatures (api_key_id, signature, expires_at) VALUES ($1, 'passed', now() - interval '1 second')`,
      [key!.api_key_id],
    );

    await api.app.get(UsedSignaturesSweeper).run();

    const left = await api.rows<{ signature: string }>('SELECT signature FROM used_signatures');
    expect(left.map((row) => row.signature)).toContain('live');
    expect(left.map((row) => row.signature)).not.toContain('passed');
  });
});
