// The first `npm start` creates a demo ENTERPRISE organisation whose webhooks may go to a local receiver
// (kycDomain localhost), with an API key and an OAuth client holding every scope, and a demo ADMIN operator
// with a personal token for the admin CLI, and writes them to .data/demo-credentials.json. It may trade BTC
// and ETH, which get operator prices in EUR unless they have some, so the printed order request fills.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

import type { INestApplicationContext } from '@nestjs/common';
import { ALL_SCOPES } from '@svc/protocol';
import { generate } from 'otplib';

import { systemActor } from './audit/admin-actor.decorator.js';
import type { Principal } from './auth/principal.js';
import { ApiKeysService } from './credentials/api-keys.service.js';
import { CredentialsService } from './credentials/credentials.service.js';
import { DASHBOARD_PERMISSIONS } from './auth/dashboard-permissions.js';
import { DashboardSessionsService } from './dashboard/dashboard-sessions.service.js';
import { OAuthClientsService } from './credentials/oauth-clients.service.js';
import { EnrolmentService } from './operators/enrolment.service.js';
import { OperatorsService } from './operators/operators.service.js';
import { PersonalTokensService } from './operators/personal-tokens.service.js';
import { OrgsService } from './orgs/orgs.service.js';
import { PricesService } from './prices/prices.service.js';

/** Who the audit log says created the demo organisation. */
const DEMO_ACTOR = systemActor('npm start');

/** The demo ADMIN operator, whose personal token the admin CLI uses in development. */
export const DEMO_OPERATOR = { email: 'admin@localhost', name: 'Demo admin', role: 'ADMIN' } as const;

/** What the demo organisation trades, at what price when the operator has set none. */
const DEMO_PRICES = { BTC_EUR: '50000', ETH_EUR: '2500' };

export interface DemoCredentials {
  readonly baseUrl: string;
  readonly orgId: number;
  readonly apiKey: string;
  readonly apiSecret: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly operatorEmail: string;
  /** The demo ADMIN's password and TOTP secret, to sign in and to make step-up codes in development. */
  readonly operatorPassword: string;
  readonly operatorTotpSecret: string;
  /** The demo ADMIN's personal token (the admin CLI reads it from here). */
  readonly operatorToken: string;
}

export async function ensureDemoCredentials(
  file: string,
  baseUrl: string,
  app: INestApplicationContext,
): Promise<{ credentials: DemoCredentials; created: boolean }> {
  if (existsSync(file)) {
    // A file from before operators held the shared ADMIN_TOKEN: dropped, and an operator made instead.
    const saved = JSON.parse(readFileSync(file, 'utf8')) as DemoCredentials & { adminToken?: string };
    delete saved.adminToken;
    // The port may differ from the first start; the rest stays.
    const operator = saved.operatorToken ? {} : await ensureDemoOperator(app);
    const credentials = { ...saved, ...operator, baseUrl };
    writeCredentials(file, credentials);
    return { credentials, created: false };
  }
  const org = await app.get(OrgsService).create(
    DEMO_ACTOR,
    {
      name: 'Demo organisation',
      kycDomain: 'localhost',
      plan: 'ENTERPRISE',
      supportEmails: ['support@localhost'],
    },
    { enabledAssets: ['BTC', 'ETH'], commissionRate: '0.0015', vatRate: '0.21' },
  );
  await app.get(PricesService).setMissing(DEMO_PRICES);
  const key = await app.get(ApiKeysService).issue(DEMO_ACTOR, org.orgId, { label: 'demo' });
  const client = await app
    .get(OAuthClientsService)
    .issue(DEMO_ACTOR, org.orgId, { scopes: ALL_SCOPES.join(' '), label: 'demo' });
  const credentials: DemoCredentials = {
    baseUrl,
    orgId: org.orgId,
    apiKey: key.apiKey,
    apiSecret: key.apiSecret,
    clientId: client.clientId,
    clientSecret: client.clientSecret,
    ...(await ensureDemoOperator(app)),
  };
  mkdirSync(dirname(file), { recursive: true });
  writeCredentials(file, credentials);
  return { credentials, created: true };
}

/**
 * Written beside the file, then renamed over it: whoever reads the file as soon as it appears (a terminal,
 * the SDK's test setup) finds it whole.
 */
function writeCredentials(file: string, credentials: DemoCredentials): void {
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  renameSync(partial, file);
}

/**
 * A sign-in link to the demo organisation's dashboard with every permission, for `npm start` to print: the
 * organisation's backend would ask for it with the demo API key (POST /api/v1/dashboard/sessions/,
 * docs/dashboard.md), so it is asked for as that key; none once the key is revoked.
 */
export async function demoDashboardLink(
  c: DemoCredentials,
  app: INestApplicationContext,
): Promise<string | undefined> {
  const key = await app.get(CredentialsService).findApiKey(c.apiKey);
  if (!key) return undefined;
  const caller: Principal = {
    orgId: key.orgId,
    method: 'hmac',
    scopes: ALL_SCOPES,
    credentialId: key.id,
    clientId: null,
  };
  const link = await app
    .get(DashboardSessionsService)
    .createLink(caller, { permissions: [...DASHBOARD_PERMISSIONS], lifetimeSeconds: 8 * 3600 }, c.baseUrl);
  return link.url;
}

type DemoOperator = Pick<
  DemoCredentials,
  'operatorEmail' | 'operatorPassword' | 'operatorTotpSecret' | 'operatorToken'
>;

/** The demo ADMIN, enrolled with a password and TOTP as a person would be, and a personal token. */
async function ensureDemoOperator(app: INestApplicationContext): Promise<DemoOperator> {
  const operator = await app.get(OperatorsService).createAs(DEMO_ACTOR, DEMO_OPERATOR);
  const password = randomBytes(18).toString('base64url');
  const enrolment = app.get(EnrolmentService);
  const { totpSecret } = await enrolment.enrol(operator.setupToken, password);
  await enrolment.confirm(operator.setupToken, await generate({ secret: totpSecret }));
  const token = await app
    .get(PersonalTokensService)
    .issueFor(DEMO_ACTOR, operator.id, { label: 'npm start demo', expiresInDays: 90 });
  return {
    operatorEmail: operator.email,
    operatorPassword: password,
    operatorTotpSecret: totpSecret,
    operatorToken: token.token,
  };
}

/** A shell expression that prints the demo operator's current TOTP code (what an authenticator shows). */
const demoCode = (file: string) =>
  `$(node -p 'require("./apps/api/node_modules/otplib").generateSync({secret: require("${file}").operatorTotpSecret})')`;

/** What `npm start` prints: where the service is, the console, the dashboard, and requests to paste. */
export function demoInstructions(file: string, c: DemoCredentials, dashboardLink?: string): string {
  return [
    `API listening on ${c.baseUrl} (OpenAPI at ${c.baseUrl}/docs)`,
    `Demo organisation ${c.orgId}: credentials in ${file}`,
    `Demo operator ${c.operatorEmail} (ADMIN): the admin CLI uses its personal token from that file;`,
    'issuing credentials and managing operators also need a fresh TOTP code (--otp), here from its secret:',
    '  npm run admin -- orgs list',
    `  npm run admin -- api-keys issue ${c.orgId} --otp ${demoCode(file)}`,
    `Open the operator console at ${c.baseUrl}/console/ and sign in as ${c.operatorEmail} with the`,
    'password in that file (operatorPassword) and the code its TOTP secret gives now (docs/console.md):',
    `  echo ${demoCode(file)}`,
    '',
    ...(dashboardLink
      ? [
          "Open the demo organisation's dashboard (this link works once, within 10 minutes):",
          `  ${dashboardLink}`,
          "Another link, as the organisation's backend asks for one (docs/dashboard.md):",
          `  node -e 'const c=require("${file}"),{createHmac}=require("crypto"),b=JSON.stringify({permissions:["MANAGE_WEBHOOKS","REVEAL_SECRET","MANAGE_CREDENTIALS"]}),t=String(Math.floor(Date.now()/1000)),s=createHmac("sha256",c.apiSecret).update(JSON.stringify({body:JSON.parse(b),query:{},url:"/api/v1/dashboard/sessions/",ts:t})).digest("hex");fetch(c.baseUrl+"/api/v1/dashboard/sessions/",{method:"POST",headers:{"content-type":"application/json","x-api-key":c.apiKey,"x-timestamp":t,"x-signature":s},body:b}).then(r=>r.json()).then(r=>console.log(r.data.url))'`,
          '',
        ]
      : []),
    'Get a token and call the OAuth test endpoint:',
    `  TOKEN=$(curl -s ${c.baseUrl}/api/v1/oauth/token -d grant_type=client_credentials \\`,
    `    -d client_id=${c.clientId} -d client_secret=${c.clientSecret} \\`,
    `    --data-urlencode 'scope=BASE_MODULE:READWRITE MANAGE_USERS:READWRITE' | node -pe 'JSON.parse(require("fs").readFileSync(0)).data.access_token')`,
    `  curl -s ${c.baseUrl}/api/v1/oauth/test -H "Authorization: Bearer $TOKEN" -H 'content-type: application/json' -d '{"hello":"world"}'`,
    '',
    'Create a user with the API key signature (docs/api-guide.md#api-key-signing):',
    `  node -e 'const c=require("${file}"),{createHmac}=require("crypto"),b=JSON.stringify({orgUserId:"user-"+Date.now(),kyc:false,tnc:true}),t=String(Math.floor(Date.now()/1000)),s=createHmac("sha256",c.apiSecret).update(JSON.stringify({body:JSON.parse(b),query:{},url:"/api/v1/user/",ts:t})).digest("hex");fetch(c.baseUrl+"/api/v1/user/",{method:"POST",headers:{"content-type":"application/json","x-api-key":c.apiKey,"x-timestamp":t,"x-signature":s},body:b}).then(r=>r.text()).then(console.log)'`,
    '',
    'Create a user with kyc and tnc, and buy 0.01 BTC for them at the demo price:',
    `  node -e 'const c=require("${file}"),{createHmac,randomUUID}=require("crypto"),send=(u,o)=>{const t=String(Math.floor(Date.now()/1000)),s=createHmac("sha256",c.apiSecret).update(JSON.stringify({body:o,query:{},url:u,ts:t})).digest("hex");return fetch(c.baseUrl+u,{method:"POST",headers:{"content-type":"application/json","x-api-key":c.apiKey,"x-timestamp":t,"x-signature":s},body:JSON.stringify(o)}).then(r=>r.text())},u="trader-"+Date.now();send("/api/v1/user/",{orgUserId:u,kyc:true,tnc:true}).then(()=>send("/api/v1/orders/",{orgUserId:u,clientOrderId:randomUUID(),symbol:"BTC_EUR",side:"BUY",type:"MARKET",quantity:0.01})).then(console.log)'`,
  ].join('\n');
}
