// For the test services and the benchmarks, which drive a freshly started api over HTTP: the first ADMIN
// bootstrapped with ADMIN_TOKEN and enrolled (password and TOTP) the way a person does it
// (docs/operators.md#bootstrap), signed in, then holding a personal token stepped up with a second code.
// The api must run with OPERATOR_STEP_UP_MINUTES long enough for what follows.
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// The api's dependency: the TOTP codes an authenticator app would show.
const { generate } = createRequire(join(root, 'apps/api/package.json'))('otplib');

async function call(baseUrl, method, path, { body, headers = {} } = {}) {
  const response = await fetch(baseUrl + path, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const envelope = await response.json();
  if (response.status !== 200) throw new Error(`${method} ${path}: ${response.status} ${envelope.error}`);
  return { data: envelope.data, response };
}

/** Bootstraps the first ADMIN; answers their stepped-up personal token, e-mail, password and TOTP secret. */
export async function bootstrapOperator(
  baseUrl,
  adminToken,
  { email = 'admin@localhost', name = 'Admin' } = {},
) {
  const created = await call(baseUrl, 'POST', '/api/v1/admin/operators', {
    body: { email, name, role: 'ADMIN' },
    headers: { authorization: `Bearer ${adminToken}` },
  });
  const { setupToken } = created.data;
  const password = `pw-${randomBytes(16).toString('base64url')}`;
  const { data: enrolment } = await call(baseUrl, 'POST', '/api/v1/admin/enrolment', {
    body: { setupToken, password },
  });
  const secret = enrolment.totpSecret;
  // Each code is good once, and the api takes one step of drift either way: the previous step's code, this
  // step's and the next one's serve the three uses below, started early enough in a step not to cross it.
  if (Date.now() % 30_000 > 25_000)
    await new Promise((resolve) => setTimeout(resolve, 30_500 - (Date.now() % 30_000)));
  const step = Math.floor(Date.now() / 30_000);
  const code = (offset) => generate({ secret, epoch: (step + offset) * 30 });
  await call(baseUrl, 'POST', '/api/v1/admin/enrolment/confirm', {
    body: { setupToken, code: await code(-1) },
  });
  const signedIn = await call(baseUrl, 'POST', '/api/v1/admin/session', {
    body: { email, password, code: await code(0) },
  });
  const session = {
    cookie: signedIn.response.headers.get('set-cookie').split(';')[0],
    'x-csrf-token': signedIn.data.csrfToken,
  };
  const { data: issued } = await call(baseUrl, 'POST', '/api/v1/admin/tokens', {
    body: { label: 'bootstrap' },
    headers: session,
  });
  await call(baseUrl, 'DELETE', '/api/v1/admin/session', { headers: session });
  // The session's step-up does not pass to the token: it shows a code of its own.
  await call(baseUrl, 'POST', '/api/v1/admin/session/step-up', {
    body: { code: await code(1) },
    headers: { authorization: `Bearer ${issued.token}` },
  });
  return { operatorToken: issued.token, email, password, totpSecret: secret };
}
