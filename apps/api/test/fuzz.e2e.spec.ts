// Every route of the served OpenAPI document, fuzzed against the real service: inputs generated from each
// operation's schemas (path and query parameters, JSON, form and multipart bodies), some valid, some
// broken, sent with the credentials the route asks for. No answer may be a 5xx, and every answer is the
// envelope (or the insufficient-scope body). FUZZ_REQUESTS sets the total (default 1,500 in npm test; the
// long run in docs/fuzzing.md used 50,000); FUZZ_SEED replays a run.
import fc from 'fast-check';

import { TestRoutesModule } from './support/test-routes.module.js';

import {
  ApiFixture,
  type OrgSession,
  type RequestOptions,
  type TestResponse,
} from './support/app-fixture.js';
import {
  nearlyValid,
  type OpenApiDocument,
  type Operation,
  type Parameter,
  valid,
} from './support/schema-arbitrary.js';

const TOTAL = Number(process.env.FUZZ_REQUESTS ?? 1500);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Values a path parameter takes besides generated ones: ids that exist, so deeper code runs too. */
function knownValues(org: OrgSession): Record<string, readonly string[]> {
  return {
    orgId: [String(org.orgId)],
    orgUserId: ['fuzz-user', 'fuzz-pending'],
    symbol: ['BTC_EUR'],
  };
}

interface Sent {
  readonly method: string;
  readonly path: string;
  readonly body: string | undefined;
  readonly response: TestResponse;
}

describe(`fuzzing every route (${TOTAL} requests, FUZZ_SEED=${SEED})`, () => {
  jest.setTimeout(Math.max(120_000, TOTAL * 60));
  let api: ApiFixture;
  let org: OrgSession;
  let document: OpenApiDocument;
  let bearer: string;

  beforeAll(async () => {
    // With the test-only routes: one of them throws, which shows the fuzzer finds a 5xx when there is one.
    api = await ApiFixture.start({}, { testModules: [TestRoutesModule] });
    org = await api.createOrg({ plan: 'ENTERPRISE' });
    bearer = await org.token(['BASE_MODULE:READWRITE', 'MANAGE_USERS:READWRITE']);
    await org.signed('POST', '/api/v1/user/', { body: { orgUserId: 'fuzz-user', kyc: true, tnc: true } });
    await org.signed('POST', '/api/v1/user/', { body: { orgUserId: 'fuzz-pending', kyc: false, tnc: true } });
    await api.admin('PUT', '/api/v1/admin/prices/BTC_EUR/', { body: { price: 50000 } });
    await api.admin('PATCH', `/api/v1/admin/orgs/${org.orgId}/policy/`, { body: { enabledAssets: ['BTC'] } });
    const served = await api.admin<never>('GET', '/openapi.json');
    document = JSON.parse(served.text) as OpenApiDocument;
  });
  afterAll(async () => {
    await api.close();
  });

  it('answers every generated request below 500, in the envelope', async () => {
    const operations = operationsOf(document).filter(({ path }) => !path.startsWith('/api/v1/test/'));
    expect(operations.length).toBeGreaterThan(40);
    const sent = await fuzz(operations, Math.max(2, Math.ceil(TOTAL / operations.length)));

    const byClass = new Map<string, number>();
    for (const { response } of sent) {
      const key = `${Math.floor(response.status / 100)}xx`;
      byClass.set(key, (byClass.get(key) ?? 0) + 1);
    }
    console.log(
      `fuzz: ${sent.length} requests over ${operations.length} operations, seed ${SEED}: ` +
        [...byClass].map(([key, count]) => `${key} ${count}`).join(', '),
    );
    expect(sent.filter(({ response }) => response.status >= 500).map(describeSent)).toEqual([]);
    expect(sent.filter(({ response, path }) => !inEnvelope(response, path)).map(describeSent)).toEqual([]);
  });

  it('finds a route that fails: the test-only route that throws answers 500 and is reported', async () => {
    const operations = operationsOf(document).filter(({ path }) => path === '/api/v1/test/boom');
    expect(operations).toHaveLength(1);
    const failures = (await fuzz(operations, 3)).filter(({ response }) => response.status >= 500);
    expect(failures.map(({ method, path }) => `${method} ${path}`)).toEqual(
      Array(3).fill('get /api/v1/test/boom'),
    );
  });

  async function fuzz(operations: ReturnType<typeof operationsOf>, perOperation: number): Promise<Sent[]> {
    const sent: Sent[] = [];
    let seed = SEED;
    for (const { path, method, operation } of operations) {
      const inputs = fc.sample(requestOf(path, operation, document, knownValues(org)), {
        numRuns: perOperation,
        seed: seed++,
      });
      for (const input of inputs) {
        const response = await send(method.toUpperCase(), input.path, input.options, operation);
        sent.push({ method, path: input.path, body: input.options.rawBody, response });
      }
    }
    return sent;
  }

  function send(method: string, path: string, options: RequestOptions, operation: Operation) {
    const schemes = new Set((operation.security ?? [{ orgCredentials: [] }]).flatMap(Object.keys));
    if (schemes.has('operatorToken')) return api.admin(method, path, options);
    if (schemes.size === 0) return api.request(method, path, options);
    // Organisation routes: a signed request one time in two (JSON bodies: the signature covers their
    // canonical form), else the bearer token.
    if (path.length % 2 === 0 && options.contentType === undefined) return org.signed(method, path, options);
    return api.request(method, path, {
      ...options,
      headers: { authorization: `Bearer ${bearer}`, ...options.headers },
    });
  }
});

function operationsOf(document: OpenApiDocument) {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({ path, method, operation: item[method]! })),
  );
}

function describeSent({ method, path, body, response }: Sent): string {
  return `${method.toUpperCase()} ${path} ${body?.slice(0, 200) ?? ''} -> ${response.status} ${response.text.slice(0, 300)}`;
}

/** One request for `operation`: its path with parameters filled in, its query, its body. */
function requestOf(
  template: string,
  operation: Operation,
  document: OpenApiDocument,
  known: Record<string, readonly string[]>,
): fc.Arbitrary<{ path: string; options: RequestOptions }> {
  const parameters = operation.parameters ?? [];
  const pathParameters = parameters.filter((parameter) => parameter.in === 'path');
  const queryParameters = parameters.filter((parameter) => parameter.in === 'query');
  const pathValues = fc.record(
    Object.fromEntries(
      pathParameters.map((parameter) => [parameter.name, pathValue(parameter, document, known)]),
    ),
  );
  const query = fc.record(
    Object.fromEntries(queryParameters.map((parameter) => [parameter.name, queryValue(parameter, document)])),
    { requiredKeys: [] },
  );
  return fc.tuple(pathValues, query, bodyOf(operation, document)).map(([values, queryValues, options]) => {
    let path = template;
    for (const [name, value] of Object.entries(values))
      path = path.replace(`{${name}}`, pathSegment(String(value)));
    const search = new URLSearchParams(
      Object.entries(queryValues).map(([name, value]) => [name, String(value)] as [string, string]),
    ).toString();
    return { path: search ? `${path}?${search}` : path, options };
  });
}

/**
 * A path parameter as one segment. URL parsing removes `.` and `..` segments (escaped as %2E too), so the
 * server would see another route than the one the answer is checked against: those get a letter more.
 */
function pathSegment(value: string): string {
  return /^\.{1,2}$/.test(value) ? `${value}x` : encodeURIComponent(value);
}

function pathValue(
  parameter: Parameter,
  document: OpenApiDocument,
  known: Record<string, readonly string[]>,
): fc.Arbitrary<unknown> {
  const generated = fc.oneof(valid(parameter.schema, document), fc.string({ minLength: 1, maxLength: 30 }));
  const values = known[parameter.name];
  return values ? fc.oneof({ arbitrary: fc.constantFrom(...values), weight: 3 }, generated) : generated;
}

function queryValue(parameter: Parameter, document: OpenApiDocument): fc.Arbitrary<unknown> {
  return fc.oneof({ arbitrary: valid(parameter.schema, document), weight: 3 }, fc.string({ maxLength: 20 }));
}

/**
 * A generated field as a form sends it: its text. An object is sent as its JSON: String() throws on one the
 * generator makes without Object.prototype's toString (a key named "toString" or "valueOf", say).
 */
function formText(field: unknown): string {
  return typeof field === 'object' && field !== null ? JSON.stringify(field) : String(field);
}

function bodyOf(operation: Operation, document: OpenApiDocument): fc.Arbitrary<RequestOptions> {
  const content = operation.requestBody?.content ?? {};
  const json = content['application/json'];
  if (content['multipart/form-data']) return multipartBody();
  if (content['application/x-www-form-urlencoded']) {
    const schema = content['application/x-www-form-urlencoded'].schema;
    return nearlyValid(schema, document).map((value) => ({
      rawBody: new URLSearchParams(
        typeof value === 'object' && value !== null
          ? Object.entries(value).map(([key, field]) => [key, formText(field)] as [string, string])
          : [],
      ).toString(),
      contentType: 'application/x-www-form-urlencoded',
    }));
  }
  if (json) return nearlyValid(json.schema, document).map((value) => ({ rawBody: JSON.stringify(value) }));
  return fc.constant({});
}

/** A multipart body as text: the KYC upload's fields and a file whose bytes may or may not be a PDF. */
function multipartBody(): fc.Arbitrary<RequestOptions> {
  const boundary = 'fuzzboundary7MA4YWxkTrZu0gW';
  return fc
    .tuple(
      fc.constantFrom('IDENTITY', 'PROOF_OF_ADDRESS', '', 'x'.repeat(70)),
      fc.constantFrom('PASSPORT', 'UTILITY_BILL', '../..'),
      fc.oneof(fc.constant('%PDF-1.4\n%fuzz\n'), fc.string({ maxLength: 64 })),
      fc.constantFrom('file', 'other'),
    )
    .map(([category, subCategory, content, field]) => ({
      rawBody: [
        `--${boundary}`,
        'Content-Disposition: form-data; name="docCategory"',
        '',
        category,
        `--${boundary}`,
        'Content-Disposition: form-data; name="docSubCategory"',
        '',
        subCategory,
        `--${boundary}`,
        `Content-Disposition: form-data; name="${field}"; filename="doc.pdf"`,
        'Content-Type: application/pdf',
        '',
        content,
        `--${boundary}--`,
        '',
      ].join('\r\n'),
      contentType: `multipart/form-data; boundary=${boundary}`,
    }));
}

/**
 * The envelope, or the insufficient-scope body; raw documents (metrics, the OpenAPI document) and an event
 * stream that opened (its messages checked against the document by the fixture) as they are.
 */
function inEnvelope(response: TestResponse, path: string): boolean {
  if (path.startsWith('/metrics') || path.startsWith('/openapi')) return true;
  if (response.status === 200 && response.headers.get('content-type')?.startsWith('text/event-stream'))
    return true;
  const body = response.body as Record<string, unknown> | undefined;
  if (!body) return false;
  if (response.status === 401 && 'message' in body && 'status' in body) return true;
  return body.code === response.status && 'data' in body && 'error' in body;
}
