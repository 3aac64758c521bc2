// @svc/protocol: the wire format shared by the api, the webhooks worker and the SDK.
export * from './canonical-json.js';
export * from './envelope.js';
export * from './event-body.js';
export * from './event-parsers.js';
export * from './event-types.js';
export * from './headers.js';
export * from './json-schema.js';
export * from './oauth.js';
export * from './query.js';
export * from './record-schemas.js';
export * from './request-signing.js';
export * from './scopes.js';
export type { SignatureFailure, VerificationFailure, VerificationSuccess } from './verification.js';
export * from './webhook-signing.js';
