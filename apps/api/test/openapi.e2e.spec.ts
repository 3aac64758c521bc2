// The served OpenAPI document as a contract: every operation typed and described, and clean under Redocly's
// `recommended` rules and Spectral's `oas` ruleset (both CLIs, pinned in package.json).
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import type { OpenAPIObject } from '@nestjs/swagger';
import {
  ACTIONS_DATA_SCHEMA,
  KYC_DOCUMENT_USER_SCHEMA,
  ORDER_SCHEMA,
  SYSTEM_INFORMATION_DATA_SCHEMA,
  USER_SCHEMA,
} from '@svc/protocol';

import { ApiFixture } from './support/app-fixture.js';

const run = promisify(execFile);
const BIN = join(__dirname, '..', 'node_modules', '.bin');

type Operation = {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: { in: string; schema?: object }[];
  requestBody?: {
    content: Record<
      string,
      { schema?: { $ref?: string; properties?: object; additionalProperties?: unknown } }
    >;
  };
  responses: Record<string, { content?: Record<string, { schema?: object }> }>;
};

function operations(document: OpenAPIObject): [string, Operation][] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item as Record<string, Operation>).map(([method, operation]): [string, Operation] => [
      `${method.toUpperCase()} ${path}`,
      operation,
    ]),
  );
}

describe('the OpenAPI document', () => {
  let api: ApiFixture;
  let document: OpenAPIObject;
  let directory: string;
  let file: string;

  beforeAll(async () => {
    api = await ApiFixture.start();
    document = (await api.request('GET', '/openapi.json')).body as unknown as OpenAPIObject;
    directory = await mkdtemp(join(tmpdir(), 'openapi-'));
    file = join(directory, 'openapi.json');
    await writeFile(file, JSON.stringify(document));
  });
  afterAll(async () => {
    await api.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('gives every operation an id, a summary, a description and a described tag', () => {
    const described = new Set((document.tags ?? []).filter((tag) => tag.description).map((tag) => tag.name));
    for (const [name, operation] of operations(document)) {
      expect({ name, id: typeof operation.operationId, summary: !!operation.summary }).toEqual({
        name,
        id: 'string',
        summary: true,
      });
      expect({ name, description: !!operation.description }).toEqual({ name, description: true });
      expect({ name, tags: operation.tags?.every((tag) => described.has(tag)) }).toEqual({
        name,
        tags: true,
      });
    }
  });

  it('types every request body, parameter and 2xx answer', () => {
    for (const [name, operation] of operations(document)) {
      for (const media of Object.values(operation.requestBody?.content ?? {})) {
        const schema = media.schema ?? {};
        const typed = '$ref' in schema || 'properties' in schema || 'additionalProperties' in schema;
        expect({ name, typed }).toEqual({ name, typed: true });
      }
      for (const parameter of operation.parameters ?? []) {
        expect({ name, parameter, typed: !!parameter.schema }).toEqual({ name, parameter, typed: true });
      }
      // A typed 200, or (single sign-on's browser redirects) a 303 with a Location and no body.
      const ok = operation.responses['200']?.content ?? {};
      const redirect = (operation.responses['303'] as { headers?: object } | undefined)?.headers;
      expect({ name, ok: Object.keys(ok).length > 0 || redirect !== undefined }).toEqual({ name, ok: true });
    }
  });

  it('declares the content types the upload and the token endpoint take', () => {
    const upload = document.paths['/api/v1/user/{orgUserId}/kyc/documents']?.post as Operation;
    expect(Object.keys(upload.requestBody?.content ?? {})).toEqual(['multipart/form-data']);
    expect(upload.requestBody?.content['multipart/form-data']?.schema?.properties).toHaveProperty('file');
    const token = document.paths['/api/v1/oauth/token']?.post as Operation & { security?: object[] };
    expect(Object.keys(token.requestBody?.content ?? {})).toEqual(['application/x-www-form-urlencoded']);
    expect(token.security).toEqual(expect.arrayContaining([{ clientBasic: [] }]));
  });

  it('puts the organisation routes first and the operator routes under their own tags', () => {
    const paths = Object.keys(document.paths);
    const firstAdmin = paths.findIndex((path) => path.startsWith('/api/v1/admin/'));
    const lastOrg = paths.findLastIndex(
      (path) => path.startsWith('/api/v1/') && !path.startsWith('/api/v1/admin/'),
    );
    expect(lastOrg).toBeLessThan(firstAdmin);
    for (const [name, operation] of operations(document)) {
      const operator = name.includes(' /api/v1/admin/');
      expect({ name, operator: operation.tags?.every((tag) => tag.startsWith('Operator: ')) }).toEqual({
        name,
        operator,
      });
    }
  });

  it("serves the records as the protocol package's schemas, to the byte, fields in their order", () => {
    const components = document.components?.schemas ?? {};
    const records = {
      Order: ORDER_SCHEMA,
      UserRecord: USER_SCHEMA,
      KycDocumentUserRecord: KYC_DOCUMENT_USER_SCHEMA,
      ActionsData: ACTIONS_DATA_SCHEMA,
      SystemInformationData: SYSTEM_INFORMATION_DATA_SCHEMA,
    };
    for (const [name, schema] of Object.entries(records)) {
      expect({ name, schema: JSON.stringify(components[name]) }).toEqual({
        name,
        schema: JSON.stringify(schema),
      });
    }
    // The views that carry a record start with its fields.
    const properties = (name: string) => Object.keys((components[name] as { properties: object }).properties);
    expect(properties('User').slice(0, properties('UserRecord').length)).toEqual(properties('UserRecord'));
    expect(properties('Notice').slice(1, 1 + properties('SystemInformationData').length)).toEqual(
      properties('SystemInformationData'),
    );
  });

  it('passes Redocly recommended with no error and no warning', async () => {
    const result = await run(
      join(BIN, 'redocly'),
      ['lint', '--extends', 'recommended', '--format', 'json', file],
      {
        cwd: directory,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    ).catch((error: unknown) => error as { stdout: string });
    const report = JSON.parse(result.stdout) as {
      totals: { errors: number; warnings: number };
      problems: object[];
    };
    expect(report.problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60000);

  it('passes Spectral oas with no error and no warning', async () => {
    const ruleset = join(directory, '.spectral.json');
    await writeFile(ruleset, JSON.stringify({ extends: ['spectral:oas'] }));
    const output = join(directory, 'spectral.json');
    await run(
      join(BIN, 'spectral'),
      ['lint', '--ruleset', ruleset, '--format', 'json', '--output', output, '--fail-severity', 'hint', file],
      { cwd: directory },
    ).catch(() => undefined);
    const problems = (JSON.parse(await readFile(output, 'utf8')) as { severity: number }[]).filter(
      (problem) => problem.severity <= 1,
    );
    expect(problems).toEqual([]);
  }, 60000);
});
