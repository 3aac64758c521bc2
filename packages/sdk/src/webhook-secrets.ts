// The secret or secrets a receiver verifies with (docs/api-guide.md#changing-the-url-or-the-secret): checked
// once where they are given, so verification never runs with no key or an empty one.
import type { WebhookSecrets } from '@svc/protocol';

const SECRET_RULE =
  'secret must be the non-empty secret you registered the endpoint with, or a non-empty list of them ' +
  'while it changes';

/** The secrets as a list of non-empty strings; a TypeError otherwise. */
export function checkSecrets(secret: WebhookSecrets): readonly string[] {
  const list: readonly unknown[] = typeof secret === 'string' ? [secret] : secret;
  if (
    !Array.isArray(list) ||
    list.length === 0 ||
    list.some((key) => typeof key !== 'string' || key === '')
  ) {
    throw new TypeError(SECRET_RULE);
  }
  return Object.freeze([...(list as readonly string[])]);
}
