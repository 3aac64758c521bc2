// The registration challenge (docs/api-guide.md#registration-and-the-challenge): a signed POST of
// {"challenge": "<random>"}; the receiver passes when it answers 200 with that string as its body.
import { randomBytes } from 'node:crypto';

import type { AttemptResult, WebhookSender } from './sender.js';

export interface ChallengeResult {
  readonly passed: boolean;
  /** Why it did not pass, for the organisation; null when it passed. */
  readonly reason: string | null;
  readonly attempt: AttemptResult;
}

/** Answers longer than this cannot be the challenge. */
const MAX_ANSWER_BYTES = 4096;

export async function runChallenge(
  sender: WebhookSender,
  url: URL,
  secret: string,
): Promise<ChallengeResult> {
  const challenge = randomBytes(24).toString('base64url');
  const attempt = await sender.send({
    url,
    body: JSON.stringify({ challenge }),
    secret,
    keepBytes: MAX_ANSWER_BYTES,
  });
  if (attempt.statusCode === null) {
    return { passed: false, reason: `${attempt.errorKind ?? 'error'}: ${attempt.response}`, attempt };
  }
  if (attempt.statusCode !== 200) {
    return { passed: false, reason: `the receiver answered HTTP ${attempt.statusCode}, not 200`, attempt };
  }
  if (!answers(attempt.response, challenge)) {
    return { passed: false, reason: 'the receiver did not answer with the challenge string', attempt };
  }
  return { passed: true, reason: null, attempt };
}

/** The body is the challenge itself, surrounding whitespace aside, or that string as JSON ("..."). */
function answers(body: string, challenge: string): boolean {
  const text = body.trim();
  return text === challenge || text === JSON.stringify(challenge);
}
