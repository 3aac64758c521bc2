// The Idempotency-Key header in the OpenAPI document: on every organisation route whose method a key covers
// (POST, PUT, PATCH, DELETE), with the two answers it adds, 409 while another request holds the key and 422
// when it was first used for another request (docs/api-guide.md#idempotent-retries).
import type { OpenAPIObject } from '@nestjs/swagger';

import { SECURITY_SCHEMES } from '../auth/decorators.js';
import { ERROR_DESCRIPTIONS } from './route.decorators.js';

type Operation = NonNullable<OpenAPIObject['paths'][string]['post']>;

const KEYED = new Set(['post', 'put', 'patch', 'delete']);

const IN_USE =
  'Another request with the same Idempotency-Key is still running (`idempotency_key_in_use`): send it again once that one has answered (Retry-After)';

export const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes the request safe to repeat: the first answer is kept under the key for 24 hours, and the same request with the same key gets it again (with `Idempotent-Replayed: true`) without running again. 1 to 255 visible ASCII characters, e.g. a UUID; bare or as a quoted string. Not part of the signature.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
} as const;

/** Adds the header and its answers to `operation` when it is an organisation route of a keyed method. */
export function declareIdempotencyKey(
  method: string,
  operation: Operation,
  security: Record<string, string[]>[],
): void {
  if (!KEYED.has(method)) return;
  if (!security.some((requirement) => SECURITY_SCHEMES.apiKey in requirement)) return;
  operation.parameters = [...(operation.parameters ?? []), IDEMPOTENCY_KEY_PARAMETER];
  const json = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } };
  const conflict = operation.responses['409'] as { description?: string } | undefined;
  operation.responses['409'] = {
    description: conflict?.description ? `${conflict.description}; or: ${IN_USE}` : IN_USE,
    content: json,
  };
  operation.responses['422'] = { description: ERROR_DESCRIPTIONS[422], content: json };
}
