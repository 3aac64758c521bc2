// What operators sign in and authenticate with (docs/operators.md): passwords under argon2id, TOTP codes
// (RFC 6238, 30 s steps, one step of clock drift either way, each step good once), and the random values of
// personal tokens, sessions and enrolments, stored as their SHA-256.
import { hash as argon2Hash, verify as argon2Verify } from '@node-rs/argon2';
import { generateSecret, generateURI, verify as verifyTotp } from 'otplib';

import { newCredential, sha256Hex } from '../credentials/secrets.js';

export { sha256Hex };

/** OWASP's argon2id minimum (19 MiB, 2 passes, 1 lane); the PHC string records them, so they may rise later. */
const ARGON2 = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const PASSWORD_RULE = 'password must be 12 to 256 characters';
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 256;

export function hashPassword(password: string): Promise<string> {
  return argon2Hash(password, ARGON2);
}

/** Whether `password` matches `stored`; false for an unreadable hash (argon2's own compare is constant-time). */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await argon2Verify(stored, password);
  } catch {
    return false;
  }
}

/**
 * A hash to verify against when the account does not exist or has no password, so that a sign-in takes as
 * long whether the e-mail is known or not.
 */
let decoy: Promise<string> | undefined;
export function decoyPasswordHash(): Promise<string> {
  decoy ??= hashPassword(newCredential('decoy', 16));
  return decoy;
}

/** The issuer authenticator apps show next to the account. */
export const TOTP_ISSUER = 'svc platform';
export const TOTP_CODE = /^[0-9]{6}$/;
export const TOTP_CODE_RULE = 'code must be the 6 digits your authenticator app shows';
const TOTP_PERIOD_SECONDS = 30;

/** A new TOTP secret (160 bits, base32) and the otpauth:// URI an authenticator app takes as a QR code. */
export function newTotpSecret(email: string): { secret: string; otpauthUri: string } {
  const secret = generateSecret();
  return { secret, otpauthUri: generateURI({ issuer: TOTP_ISSUER, label: email, secret }) };
}

/**
 * The time step `code` is good for under `secret` (the current step or the one either side); `'replayed'`
 * when it is good but not newer than `afterStep` (a code is accepted once, and a replay is no guess); null
 * when it is wrong.
 */
export async function checkTotp(
  secret: string,
  code: string,
  afterStep: number | null,
  now = Date.now(),
): Promise<number | 'replayed' | null> {
  if (!TOTP_CODE.test(code)) return null;
  const result = await verifyTotp({
    secret,
    token: code,
    epoch: Math.floor(now / 1000),
    epochTolerance: TOTP_PERIOD_SECONDS,
  });
  if (!result.valid || !('timeStep' in result)) return null;
  return afterStep !== null && result.timeStep <= afterStep ? 'replayed' : result.timeStep;
}

/** Personal API tokens: `op_` and 256 random bits. */
export const OPERATOR_TOKEN_PREFIX = 'op_';
export const newOperatorToken = () => newCredential('op', 32);
/** Session cookies' values. */
export const newSessionToken = () => newCredential('ses', 32);
/** Single-use enrolment tokens, answered by an operator's creation or reset. */
export const newSetupToken = () => newCredential('setup', 32);
