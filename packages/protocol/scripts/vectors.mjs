#!/usr/bin/env node
// Writes the signing test vectors in ../vectors/ from the hand-written cases of vector-cases.mjs.
//
//   node scripts/vectors.mjs           write (refresh) vectors/request-signing.json and webhook-signing.json
//   node scripts/vectors.mjs --check   fail (exit 1) when the files on disk differ from what this script
//   writes
//
// Independence: this script never imports @svc/protocol. It only assembles the signed message from the
// hand-written parts and computes the HMAC with plain node:crypto. Before writing, it cross-checks the
// hand-written values against the JavaScript engine where the engine can judge them
// (JSON.parse/JSON.stringify, URLSearchParams), to catch typos; it never derives them.
import { createHmac } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, URLSearchParams } from 'node:url';

import { invalidBodies, requestVectors, webhookVectors } from './vector-cases.mjs';

// --- assembly -------------------------------------------------------------------------------------

const hmac = (secret, message) => createHmac('sha256', secret).update(message, 'utf8').digest('hex');

const requestMessage = (v) =>
  `{"body":${v.canonicalBody},"query":${v.canonicalQuery},"url":${JSON.stringify(v.path)},"ts":${JSON.stringify(v.timestamp)}}`;

const webhookMessage = (v) => `{"payload":${v.payload},"timestamp":${String(v.timestamp)}}`;

// --- cross-checks of the hand-written values (typo guard; never a source of expectations) --------

const problems = [];
const fail = (name, what) => problems.push(`${name}: ${what}`);

const hasIntegerLikeKey = (value) => {
  if (Array.isArray(value)) return value.some(hasIntegerLikeKey);
  if (value === null || typeof value !== 'object') return false;
  return Object.keys(value).some((k) => /^(0|[1-9][0-9]*)$/.test(k) || hasIntegerLikeKey(value[k]));
};

function checkRequestVector(v) {
  let parsedCanonical;
  try {
    parsedCanonical = JSON.parse(v.canonicalBody);
  } catch {
    fail(v.name, 'canonicalBody is not JSON');
    return;
  }
  // Same values as the raw body (both sides go through the same engine reordering and number output).
  if (JSON.stringify(JSON.parse(v.body === '' ? '{}' : v.body)) !== JSON.stringify(parsedCanonical)) {
    fail(v.name, 'canonicalBody does not denote the same value as body');
  }
  // Already canonical: re-serializing changes nothing (skipped where the engine would reorder keys).
  if (!hasIntegerLikeKey(parsedCanonical) && JSON.stringify(parsedCanonical) !== v.canonicalBody) {
    fail(v.name, `canonicalBody is not in JSON.stringify form: ${JSON.stringify(parsedCanonical)}`);
  }
  // Query per URLSearchParams: ordered keys, repeated keys collected where they first appear.
  const grouped = new Map();
  for (const [key, value] of new URLSearchParams(v.query))
    grouped.set(key, [...(grouped.get(key) ?? []), value]);
  const entries = [...grouped].map(
    ([k, vs]) => `${JSON.stringify(k)}:${JSON.stringify(vs.length === 1 ? vs[0] : vs)}`,
  );
  if (`{${entries.join(',')}}` !== v.canonicalQuery)
    fail(v.name, 'canonicalQuery disagrees with URLSearchParams');
  if (!/^[0-9]+$/.test(v.timestamp)) fail(v.name, 'timestamp is not whole seconds');
  if (v.path.includes('?') || !v.path.startsWith('/'))
    fail(v.name, 'path must start with / and carry no query');
}

function checkInvalid(v) {
  let parsed = true;
  try {
    JSON.parse(v.body);
  } catch {
    parsed = false;
  }
  if (v.reason === 'invalid_json' && parsed) fail(v.name, 'JSON.parse accepts this body');
  if (v.reason !== 'invalid_json' && !parsed) fail(v.name, 'not otherwise valid JSON');
  if (!['invalid_json', 'duplicate_key', 'ambiguous_number'].includes(v.reason))
    fail(v.name, `unknown reason ${v.reason}`);
  if ((v.reason === 'ambiguous_number') !== (typeof v.path === 'string'))
    fail(v.name, 'an ambiguous_number body, and only one, names a path');
}

function checkNames(list, label) {
  const seen = new Set();
  for (const v of list) {
    if (seen.has(v.name)) fail(label, `duplicate vector name ${v.name}`);
    seen.add(v.name);
  }
}

requestVectors.forEach(checkRequestVector);
invalidBodies.forEach(checkInvalid);
for (const v of webhookVectors) {
  try {
    JSON.parse(v.payload);
  } catch {
    fail(v.name, 'payload is not JSON');
  }
  if (!Number.isSafeInteger(v.timestamp)) fail(v.name, 'timestamp is not an integer number of ms');
}
checkNames(requestVectors, 'request vectors');
checkNames(invalidBodies, 'invalid bodies');
checkNames(webhookVectors, 'webhook vectors');
if (problems.length > 0) {
  console.error(
    `vectors.mjs: hand-written expectations failed the cross-checks:\n  ${problems.join('\n  ')}`,
  );
  process.exit(1);
}

// --- documents ------------------------------------------------------------------------------------

const requestDoc = {
  description:
    'Request signing test vectors for @svc/protocol (docs/api-guide.md#api-key-signing). message = compact {"body":canonicalBody,"query":canonicalQuery,"url":path as a JSON string,"ts":timestamp as a JSON string}; signature = lowercase hex HMAC-SHA256 of the UTF-8 message with the UTF-8 secret as key. canonicalBody and canonicalQuery are hand-written expectations. Bodies in "invalid" must be refused with the given reason (and, for ambiguous_number, the JSONPath "path" of the number refused). See README.md.',
  algorithm: 'HMAC-SHA256, lowercase hex',
  vectors: requestVectors.map((v) => {
    const message = requestMessage(v);
    return {
      name: v.name,
      secret: v.secret,
      path: v.path,
      query: v.query,
      body: v.body,
      timestamp: v.timestamp,
      canonicalBody: v.canonicalBody,
      canonicalQuery: v.canonicalQuery,
      message,
      signature: hmac(v.secret, message),
    };
  }),
  invalid: invalidBodies,
};

const webhookDoc = {
  description:
    'Webhook signing test vectors for @svc/protocol (docs/api-guide.md#webhook-signatures). message = {"payload":<payload inserted verbatim>,"timestamp":<svc-timestamp in ms as a plain number>}; signature (header svc-signature) = lowercase hex HMAC-SHA256 of the UTF-8 message with the UTF-8 endpoint secret as key. See README.md.',
  algorithm: 'HMAC-SHA256, lowercase hex',
  vectors: webhookVectors.map((v) => {
    const message = webhookMessage(v);
    return {
      name: v.name,
      secret: v.secret,
      payload: v.payload,
      timestamp: v.timestamp,
      message,
      signature: hmac(v.secret, message),
    };
  }),
};

// Invisible or confusable characters are written as \uXXXX escapes so the files read unambiguously;
// they only ever occur inside JSON strings, where the escape means the same character.
const INVISIBLE = /[\u007f-\u009f\u00a0\u00ad\u200b-\u200f\u2028\u2029\ufeff\ufffd]/g;
const render = (doc) =>
  `${JSON.stringify(doc, null, 2).replace(INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`;

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'vectors');
const outputs = [
  [join(dir, 'request-signing.json'), render(requestDoc)],
  [join(dir, 'webhook-signing.json'), render(webhookDoc)],
];

if (process.argv.includes('--check')) {
  const stale = outputs.filter(([file, text]) => {
    try {
      return readFileSync(file, 'utf8') !== text;
    } catch {
      return true;
    }
  });
  for (const [file] of stale)
    console.error(`vectors.mjs: ${file} is out of date; run node scripts/vectors.mjs`);
  process.exit(stale.length > 0 ? 1 : 0);
}
for (const [file, text] of outputs) writeFileSync(file, text);
console.log(
  `vectors.mjs: wrote ${requestDoc.vectors.length} request vectors, ${requestDoc.invalid.length} invalid bodies, ` +
    `${webhookDoc.vectors.length} webhook vectors`,
);
