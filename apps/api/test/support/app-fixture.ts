// A running api on its own fresh database, talked to over real HTTP on loopback, with helpers that create
// organisations and their credentials and sign requests the way a client does (novu's UserSession).
import { randomBytes } from 'node:crypto';

import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { OpenAPIObject } from '@nestjs/swagger';
import { openDatabase, type OperatorRole, type OrgEnvironment, type OrgPlan, startBoss } from '@svc/db';
import { createTestDatabase, TcpProxy, type TestDatabase } from '@svc/db/testing';
import { ALL_SCOPES, type Envelope, type Scope, signedRequestHeaders } from '@svc/protocol';
import type { PgBoss } from 'pg-boss';
import type { DestinationStream } from 'pino';
import type { DataSource } from 'typeorm';

import { systemActor } from '../../src/audit/admin-actor.decorator.js';
import { ApiKeysService } from '../../src/credentials/api-keys.service.js';
import { OAuthClientsService } from '../../src/credentials/oauth-clients.service.js';
import { OperatorsRepository } from '../../src/operators/operators.repository.js';
import { OperatorsService } from '../../src/operators/operators.service.js';
import { PersonalTokensService } from '../../src/operators/personal-tokens.service.js';
import { OrgsService } from '../../src/orgs/orgs.service.js';
import { createApp } from '../../src/app.js';
import type { AppDependencies } from '../../src/app.module.js';
import { createLogger } from '../../src/common/logger.js';
import { type AppConfig, loadConfig } from '../../src/config/config.js';
import { EnrolledOperator } from './enrolled-operator.js';
import { OpenApiContract } from './openapi-contract.js';

export interface TestResponse<T = unknown> {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The parsed body (the envelope for most answers); undefined when it is not JSON. */
  readonly body: Envelope<T> & Record<string, unknown>;
}

export interface RequestOptions {
  readonly body?: unknown;
  /** Raw body text, sent exactly as given (overrides `body`). */
  readonly rawBody?: string;
  readonly headers?: Record<string, string>;
  readonly contentType?: string;
}

/** An organisation with an API key and an OAuth client, and ways to call the api as it. */
export class OrgSession {
  constructor(
    readonly fixture: ApiFixture,
    readonly orgId: number,
    readonly apiKey: string,
    readonly apiSecret: string,
    readonly clientId: string,
    readonly clientSecret: string,
  ) {}

  /** The same organisation and credentials, calling another api instance. */
  on(fixture: ApiFixture): OrgSession {
    return new OrgSession(fixture, this.orgId, this.apiKey, this.apiSecret, this.clientId, this.clientSecret);
  }

  /** A request signed with the API key (docs/api-guide.md#api-key-signing); `path` may carry a query string. */
  signed<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<TestResponse<T>> {
    const text = bodyText(options);
    const [pathname = path, query] = path.split('?');
    const headers = signedRequestHeaders(
      { path: pathname, query, body: text },
      { apiKey: this.apiKey, apiSecret: this.apiSecret },
    );
    return this.fixture.request<T>(method, path, { ...options, headers: { ...headers, ...options.headers } });
  }

  /** A request with a bearer token holding `scopes` (default: every scope). */
  async bearer<T = unknown>(
    method: string,
    path: string,
    options: RequestOptions & { scopes?: readonly Scope[] } = {},
  ): Promise<TestResponse<T>> {
    const token = await this.token(options.scopes ?? ALL_SCOPES);
    return this.fixture.request<T>(method, path, {
      ...options,
      headers: { authorization: `Bearer ${token}`, ...options.headers },
    });
  }

  /** A fresh access token for `scopes`. */
  async token(scopes: readonly Scope[]): Promise<string> {
    const response = await this.fixture.request<{ access_token: string }>('POST', '/api/v1/oauth/token', {
      rawBody: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: this.clientId,
        client_secret: this.clientSecret,
        scope: scopes.join(' '),
      }).toString(),
      contentType: 'application/x-www-form-urlencoded',
    });
    if (response.status !== 200 || !response.body.data)
      throw new Error(`token request failed: ${response.text}`);
    return response.body.data.access_token;
  }
}

/** Who the fixture's own writes are audited as. */
export const FIXTURE_ACTOR = systemActor('test');

/** An operator the fixture made, with a personal token. */
export interface TestOperator {
  readonly id: string;
  readonly email: string;
  readonly role: OperatorRole;
  readonly token: string;
  readonly tokenId: string;
}

export interface FixtureOptions {
  /** Where the app logs (a pino destination); set LOG_LEVEL in `env` too, since tests default to silent. */
  readonly logTo?: DestinationStream;
  /** Modules only tests have, e.g. test-routes.module.ts. */
  readonly testModules?: AppDependencies['testModules'];
  /** The app reaches PostgreSQL through a relay the test can cut (`databaseProxy`); `rows()` does not. */
  readonly throughProxy?: boolean;
  /** Where orders execute instead of the default venue. */
  readonly venue?: AppDependencies['venue'];
  /** The port to listen on (default: any free one). */
  readonly port?: number;
  /** Start with no operator at all (to bootstrap one with ADMIN_TOKEN); `admin()` then needs `operator`. */
  readonly withoutOperators?: boolean;
  /** A second api instance on this fixture's database (and master key), as several instances run. */
  readonly besides?: ApiFixture;
}

export class ApiFixture {
  private contract?: Promise<OpenApiContract>;
  /** The bootstrap ADMIN every fixture starts with; `admin()` calls as them. */
  adminOperator!: TestOperator;

  private constructor(
    readonly app: NestFastifyApplication,
    readonly db: TestDatabase,
    readonly boss: PgBoss,
    readonly config: AppConfig,
    readonly baseUrl: string,
    /** With `throughProxy`: the relay between the app and PostgreSQL, and the app's own data source. */
    readonly databaseProxy?: TcpProxy,
    private readonly appDataSource?: DataSource,
  ) {}

  /** Starts the api on a new database; `env` overrides configuration variables. */
  static async start(env: Record<string, string> = {}, options: FixtureOptions = {}): Promise<ApiFixture> {
    const db = options.besides?.db ?? (await createTestDatabase());
    const config = loadConfig({
      NODE_ENV: 'test',
      MASTER_KEY: options.besides?.config.masterKey.toString('base64') ?? randomBytes(32).toString('base64'),
      ADMIN_TOKEN: options.besides?.config.adminToken ?? randomBytes(24).toString('hex'),
      LOG_LEVEL: 'silent',
      // The bootstrap ADMIN steps up once, at the start, for the whole file.
      OPERATOR_STEP_UP_MINUTES: '60',
      ...env,
    });
    const logger = createLogger(config.logLevel, options.logTo);
    let proxy: TcpProxy | undefined;
    let dataSource = db.dataSource;
    if (options.throughProxy) {
      const direct = new URL(db.url);
      proxy = await TcpProxy.start(direct.hostname, Number(direct.port));
      direct.port = String(proxy.port);
      dataSource = await openDatabase({ url: direct.toString(), poolSize: 5 });
    }
    const boss = await startBoss({ url: db.url, supervise: false }, () => undefined);
    const app = await createApp({
      config,
      logger,
      dataSource,
      boss,
      ...(options.testModules ? { testModules: options.testModules } : {}),
      ...(options.venue ? { venue: options.venue } : {}),
    });
    await app.listen({ port: options.port ?? 0, host: '127.0.0.1' });
    const address = app.getHttpServer().address();
    if (typeof address !== 'object' || !address) throw new Error('the api is not listening');
    const baseUrl = `http://127.0.0.1:${address.port}`;
    const fixture = new ApiFixture(app, db, boss, config, baseUrl, proxy, proxy && dataSource);
    fixture.ownsDatabase = !options.besides;
    if (options.besides) {
      // The same database: the first instance's operators are this one's too.
      fixture.adminOperator = options.besides.adminOperator;
    } else if (!options.withoutOperators) {
      fixture.adminOperator = await fixture.createOperator('ADMIN', {
        email: 'admin@ops.test',
        stepUp: true,
      });
    }
    return fixture;
  }

  /** A new operator holding `role`, with a personal token (stepped up with `stepUp`, as after a TOTP code). */
  async createOperator(
    role: OperatorRole,
    options: { email?: string; name?: string; stepUp?: boolean } = {},
  ): Promise<TestOperator> {
    const email = options.email ?? `${role.toLowerCase()}-${randomBytes(3).toString('hex')}@ops.test`;
    const operator = await this.app
      .get(OperatorsService)
      .createAs(FIXTURE_ACTOR, { email, name: options.name ?? email, role });
    const issued = await this.app
      .get(PersonalTokensService)
      .issueFor(FIXTURE_ACTOR, operator.id, { label: 'test' });
    if (options.stepUp) await this.app.get(OperatorsRepository).setTokenSecondFactor(issued.id, new Date());
    return { id: operator.id, email, role, token: issued.token, tokenId: issued.id };
  }

  /** A new operator holding `role` who enrolled over HTTP with a password and TOTP, as a person does. */
  async enrolOperator(role: OperatorRole, email?: string): Promise<EnrolledOperator> {
    const created = await this.admin<{ id: string; email: string; setupToken: string }>(
      'POST',
      '/api/v1/admin/operators',
      {
        body: {
          email: email ?? `${role.toLowerCase()}-${randomBytes(3).toString('hex')}@ops.test`,
          name: role,
          role,
        },
      },
    );
    const password = `pw-${randomBytes(12).toString('base64url')}`;
    const enrolment = await this.request<{ totpSecret: string }>('POST', '/api/v1/admin/enrolment', {
      body: { setupToken: created.body.data!.setupToken, password },
    });
    const operator = new EnrolledOperator(
      created.body.data!.id,
      created.body.data!.email,
      password,
      enrolment.body.data!.totpSecret,
      () => this.rows('UPDATE operators SET totp_last_step = NULL WHERE id = $1', [created.body.data!.id]),
    );
    const confirmed = await this.request('POST', '/api/v1/admin/enrolment/confirm', {
      body: { setupToken: created.body.data!.setupToken, code: await operator.code() },
    });
    if (confirmed.status !== 200) throw new Error(`enrolment failed: ${confirmed.text}`);
    return operator;
  }

  /** Signs `operator` in: the session cookie and its CSRF token, as a browser would hold them. */
  async signIn(operator: EnrolledOperator): Promise<{ cookie: string; csrfToken: string }> {
    const response = await this.request<{ csrfToken: string }>('POST', '/api/v1/admin/session', {
      body: { email: operator.email, password: operator.password, code: await operator.code() },
    });
    if (response.status !== 200) throw new Error(`sign-in failed: ${response.text}`);
    const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0]!;
    return { cookie, csrfToken: response.body.data!.csrfToken };
  }

  /** The bootstrap ADMIN's personal token. */
  get adminToken(): string {
    return this.adminOperator.token;
  }

  private ownsDatabase = true;

  get dataSource(): DataSource {
    return this.db.dataSource;
  }

  async close(): Promise<void> {
    await this.app.close();
    await this.boss.stop({ graceful: false });
    await this.appDataSource?.destroy();
    await this.databaseProxy?.close();
    if (this.ownsDatabase) await this.db.close();
  }

  /** A new organisation with an API key and an OAuth client granted `scopes`. */
  async createOrg(
    options: {
      plan?: OrgPlan;
      kycDomain?: string;
      scopes?: readonly Scope[];
      name?: string;
      environment?: OrgEnvironment;
    } = {},
  ): Promise<OrgSession> {
    const { orgId } = await this.app.get(OrgsService).create(FIXTURE_ACTOR, {
      name: options.name ?? `org-${randomBytes(3).toString('hex')}`,
      kycDomain: options.kycDomain ?? 'example.com',
      plan: options.plan ?? 'ENTERPRISE',
      supportEmails: ['support@example.com'],
      ...(options.environment ? { environment: options.environment } : {}),
    });
    const key = await this.app.get(ApiKeysService).issue(FIXTURE_ACTOR, orgId, { label: 'test' });
    const scopes = (options.scopes ?? ALL_SCOPES).join(' ');
    const client = await this.app
      .get(OAuthClientsService)
      .issue(FIXTURE_ACTOR, orgId, { scopes, label: 'test' });
    return new OrgSession(this, orgId, key.apiKey, key.apiSecret, client.clientId, client.clientSecret);
  }

  /** A request as given: no credentials unless `headers` carries them. */
  async request<T = unknown>(
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<TestResponse<T>> {
    const text = bodyText(options);
    const headers: Record<string, string> = { ...options.headers };
    if (text !== undefined) headers['content-type'] ??= options.contentType ?? 'application/json';
    const response = await fetch(this.baseUrl + path, {
      method,
      headers,
      ...(text === undefined ? {} : { body: text }),
    });
    const responseText = await answerText(response);
    (await this.openApiContract()).check({
      method,
      path,
      status: response.status,
      contentType: response.headers.get('content-type'),
      text: responseText,
    });
    let body: TestResponse<T>['body'];
    try {
      body = JSON.parse(responseText) as TestResponse<T>['body'];
    } catch {
      body = undefined as unknown as TestResponse<T>['body'];
    }
    return { status: response.status, headers: response.headers, text: responseText, body };
  }

  /** The served OpenAPI document, which every answer `request` receives is checked against. */
  openApiContract(): Promise<OpenApiContract> {
    this.contract ??= fetch(`${this.baseUrl}/openapi.json`)
      .then((response) => response.json())
      .then((document) => new OpenApiContract(document as OpenAPIObject));
    return this.contract;
  }

  /** An operator request as the bootstrap ADMIN (stepped up), or as `operator`. */
  admin<T = unknown>(
    method: string,
    path: string,
    options: RequestOptions & { operator?: Pick<TestOperator, 'token'> } = {},
  ): Promise<TestResponse<T>> {
    const { operator = this.adminOperator, ...rest } = options;
    return this.request<T>(method, path, {
      ...rest,
      headers: { authorization: `Bearer ${operator.token}`, ...rest.headers },
    });
  }

  /** Rows of a table matching `where` (SQL), to check what was stored. */
  rows<T = Record<string, unknown>>(sql: string, parameters: unknown[] = []): Promise<T[]> {
    return this.dataSource.query<T[]>(sql, parameters);
  }

  /**
   * A SQL expression: the attempts queued, as the worker finds them: the PENDING events and the
   * redeliveries.
   */
  get queuedDeliveries(): string {
    return `((SELECT count(*)::int FROM webhook_redeliveries) +
             (SELECT count(*)::int FROM events WHERE status = 'PENDING'))`;
  }

  /** How many of `eventIds` the worker would deliver now: PENDING and due in the events table. */
  async queuedFor(eventIds: readonly string[]): Promise<number> {
    const [row] = await this.rows<{ n: number }>(
      "SELECT count(*)::int AS n FROM events WHERE id = ANY($1::uuid[]) AND status = 'PENDING' AND next_attempt_at <= now()",
      [eventIds],
    );
    return row?.n ?? 0;
  }
}

/**
 * The answer's text; of an event stream, which does not end, only what comes until its first blank line
 * (the `retry:` hint), then the connection is let go. Streams are read with event-stream-client.ts.
 */
async function answerText(response: Response): Promise<string> {
  if (!response.headers.get('content-type')?.startsWith('text/event-stream') || !response.body)
    return response.text();
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (!text.includes('\n\n')) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    await reader.cancel();
  }
  return text;
}

function bodyText(options: RequestOptions): string | undefined {
  if (options.rawBody !== undefined) return options.rawBody;
  return options.body === undefined ? undefined : JSON.stringify(options.body);
}
