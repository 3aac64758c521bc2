import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { jsonRequested, main } from './main.js';

interface Call {
  readonly url: string;
  readonly method: string | undefined;
  readonly headers: Record<string, string>;
  readonly body: unknown;
}

/** Runs the CLI against a fake api answering `status` and `body` (an envelope unless a string). */
async function cli(
  argv: string[],
  answer: { status?: number; body?: unknown } = {},
  env: Record<string, string> = {
    SVC_URL: 'http://api.test/',
    SVC_OPERATOR_TOKEN: 'tok',
  },
  demoCredentials = '/nonexistent/demo-credentials.json',
) {
  const calls: Call[] = [];
  let stdout = '';
  let stderr = '';
  const fetchFn: typeof fetch = (url, init = {}) => {
    calls.push({
      url: url instanceof Request ? url.url : url.toString(),
      method: init.method,
      headers: init.headers as Record<string, string>,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    });
    const { status = 200, body = { code: status, data: { ok: true }, error: null } } = answer;
    return Promise.resolve(new Response(typeof body === 'string' ? body : JSON.stringify(body), { status }));
  };
  const code = await main(argv, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    env,
    demoCredentials,
    fetch: fetchFn,
  });
  return { code, stdout, stderr, calls };
}

const refusal = (status: number, error: string) => ({ status, body: { code: status, data: null, error } });

describe('admin CLI usage', () => {
  it('a group alone lists its commands on stdout, and only them', async () => {
    const result = await cli(['orgs']);
    expect(result).toMatchObject({ code: 0, stderr: '', calls: [] });
    for (const command of ['create', 'list', 'get', 'update', 'bootstrap'])
      expect(result.stdout).toContain(`  orgs ${command} `);
    expect(result.stdout).not.toContain('prices');
    expect((await cli(['orgs', '--help'])).stdout).toBe(result.stdout);
  });

  it("<command> --help shows that command's flags and the common ones, and calls nothing", async () => {
    const result = await cli(['orgs', 'create', '--help']);
    expect(result).toMatchObject({ code: 0, stderr: '', calls: [] });
    expect(result.stdout).toMatch(/^usage: npm run admin -- orgs create --name <name>/);
    const flags = [...result.stdout.matchAll(/^ {2}--([a-z-]+) /gm)].map((match) => match[1]);
    expect(flags).toEqual([
      'name',
      'kyc-domain',
      'plan',
      'environment',
      'support-email',
      'json',
      'help',
      'url',
      'token',
      'otp',
      'actor',
    ]);
  });

  it('--help alone lists every command; nothing at all is a usage error', async () => {
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    for (const command of ['orgs bootstrap', 'api-keys revoke', 'tokens revoke', 'audit list', 'notices get'])
      expect(help.stdout).toContain(`  ${command} `);
    const nothing = await cli([]);
    expect(nothing).toMatchObject({ code: 2, stdout: '', stderr: help.stdout });
  });

  it.each([
    [['orgs', 'frob'], 'unknown command "orgs frob"', '  orgs create '],
    [['frob'], 'unknown command "frob"', '  prices set '],
    [['orgs', 'get'], 'orgs get takes <orgId>', 'usage: npm run admin -- orgs get <orgId>'],
    [
      ['orgs', 'get', '1', '--limit', '3'],
      'orgs get does not take --limit',
      'usage: npm run admin -- orgs get',
    ],
    [['notices', 'publish', '--message', '-dash'], "use '--message=-XYZ'", 'usage: npm run admin --'],
    [
      ['prices', 'set', 'BTC_EUR', '1e5'],
      'price must be a decimal number',
      'usage: npm run admin -- prices set',
    ],
    [['notices', 'publish', '--event', 'ASSET_DISABLE'], 'missing --entity, --message', 'notices publish'],
  ])('%j is exit 2 with %s and the usage, calling nothing', async (argv, message, usage) => {
    const result = await cli(argv);
    expect(result).toMatchObject({ code: 2, stdout: '', calls: [] });
    expect(result.stderr).toMatch(/^admin: /);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain(usage);
  });
});

describe('admin CLI calls', () => {
  it('a negative price after -- reaches the api; its refusal is exit 1 with its message', async () => {
    const result = await cli(
      ['prices', 'set', 'BTC_EUR', '--', '-5'],
      refusal(400, 'Bad Request: price must be > 0'),
    );
    expect(result.calls).toEqual([
      {
        url: 'http://api.test/api/v1/admin/prices/BTC_EUR',
        method: 'PUT',
        headers: {
          authorization: 'Bearer tok',
          'content-type': 'application/json',
        },
        body: { price: -5 },
      },
    ]);
    expect(result).toMatchObject({ code: 1, stdout: '', stderr: 'Bad Request: price must be > 0\n' });
  });

  it('a value starting with a dash after = is sent as given', async () => {
    const result = await cli([
      'notices',
      'publish',
      '--event',
      'MAINTENANCE_ALERTS',
      '--entity',
      'api',
      '--message=-dash',
    ]);
    expect(result.code).toBe(0);
    expect(result.calls[0]!.body).toEqual({ event: 'MAINTENANCE_ALERTS', entity: 'api', message: '-dash' });
  });

  it('--json prints the data as one line; without it, the readable form', async () => {
    const answer = { body: { code: 200, data: { orgId: 7, plan: 'STANDARD' }, error: null } };
    expect((await cli(['orgs', 'get', '7', '--json'], answer)).stdout).toBe(
      '{"orgId":7,"plan":"STANDARD"}\n',
    );
    expect((await cli(['orgs', 'get', '7'], answer)).stdout).toBe('orgId  7\nplan   STANDARD\n');
  });

  it.each([
    [
      ['orgs', 'get', '7', '--json'],
      refusal(404, 'Not Found: no organisation 7'),
      1,
      { kind: 'api', status: 404, message: 'Not Found: no organisation 7' },
    ],
    [['orgs', 'get', '--json'], {}, 2, { kind: 'usage', status: null, message: 'orgs get takes <orgId>' }],
    [['--json', 'orgs', 'get', '7', '--bogus'], {}, 2, { kind: 'usage', status: null }],
    [['orgs', 'get', '7', '--json'], { status: 502, body: 'bad gateway' }, 1, { kind: 'api', status: 502 }],
  ])('with --json, %j fails as one JSON line on stderr', async (argv, answer, code, error) => {
    const result = await cli(argv, answer);
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code, stdout: '' });
    expect(result.stderr).toMatch(/^\{[^\n]*\}\n$/);
    expect(JSON.parse(result.stderr)).toEqual({ error: expect.objectContaining(error) as unknown });
  });

  it('takes the address and token from the demo credentials file when no flag or variable gives them', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'svc-cli-')), 'demo-credentials.json');
    writeFileSync(file, JSON.stringify({ baseUrl: 'http://demo.test', operatorToken: 'demo-token' }));
    const result = await cli(['tokens', 'revoke', '3'], {}, {}, file);
    expect(result.code).toBe(0);
    expect(result.calls[0]).toMatchObject({
      url: 'http://demo.test/api/v1/admin/orgs/3/tokens/revoke',
      method: 'POST',
      body: undefined,
      headers: { authorization: 'Bearer demo-token' },
    });
    const flags = await cli(
      ['tokens', 'revoke', '3', '--url', 'http://flag.test', '--token', 't2'],
      {},
      {},
      file,
    );
    expect(flags.calls[0]).toMatchObject({ url: 'http://flag.test/api/v1/admin/orgs/3/tokens/revoke' });
  });

  it('ignores --actor and SVC_ADMIN_ACTOR with a warning: the token names the operator', async () => {
    const flag = await cli(['tokens', 'revoke', '3', '--actor', 'someone-else']);
    expect(flag.code).toBe(0);
    expect(flag.stderr).toBe(
      'warning: --actor and SVC_ADMIN_ACTOR are ignored: the audit log names the operator of the token\n',
    );
    expect(flag.calls[0]?.headers).toEqual({ authorization: 'Bearer tok' });
    const variable = await cli(
      ['tokens', 'revoke', '3'],
      {},
      {
        SVC_URL: 'http://api.test',
        SVC_OPERATOR_TOKEN: 'tok',
        SVC_ADMIN_ACTOR: 'someone-else',
      },
    );
    expect(variable.stderr).toContain('are ignored');
    expect(variable.calls[0]?.headers).toEqual({ authorization: 'Bearer tok' });
  });

  it('without an address anywhere, says how to give one (exit 2)', async () => {
    const result = await cli(['orgs', 'list'], {}, {});
    expect(result).toMatchObject({ code: 2, calls: [] });
    expect(result.stderr).toContain('admin: no api address: pass --url and --token');
  });
});

describe('jsonRequested', () => {
  it.each([
    [['orgs', 'list', '--json'], true],
    [['--json'], true],
    [['orgs', 'list'], false],
    [['prices', 'set', 'X', '--', '--json'], false],
    [['--name=--json'], false],
  ])('%j: %p', (argv, expected) => expect(jsonRequested(argv)).toBe(expected));
});

describe('importing the CLI modules', () => {
  it('runs nothing: no output, no exit code', async () => {
    const write = jest.spyOn(process.stdout, 'write');
    const writeErr = jest.spyOn(process.stderr, 'write');
    const modules = ['args', 'client', 'commands', 'connection', 'format', 'main', 'usage'];
    await jest.isolateModulesAsync(async () => {
      for (const name of modules) await import(`./${name}.js`);
    });
    expect(write).not.toHaveBeenCalled();
    expect(writeErr).not.toHaveBeenCalled();
    expect(process.exitCode).toBeUndefined();
    write.mockRestore();
    writeErr.mockRestore();
  });
});
