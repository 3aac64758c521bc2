// The text of an event's body, `{"event":{...},"data":...}`, built in one place: the webhooks worker sends
// it, and the api's event log and event stream answer it, so the three can never disagree
// (docs/api-guide.md#events).

/** What the `event` envelope is made of, as the events table holds it. */
export interface EventBodyFields {
  readonly orgId: number;
  readonly entity: string;
  /** Set on KYC events only; null or absent leaves the field out. */
  readonly eventType?: string | null | undefined;
  readonly numRetries: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/**
 * The body as sent: the envelope's fields in the order the API guide lists them, then `dataJson`, the
 * event's data as stored (JSON text), inserted as it is so that every digit of an amount reaches the
 * receiver unchanged.
 */
export function eventBodyText(fields: EventBodyFields, dataJson: string): string {
  // Written out rather than JSON.stringify of an object: the same text at two thirds of the cost, on the
  // worker's path of every delivery (for the deliveries/s target: docs/decisions.md, "Webhooks: the worker's
  // own CPU per delivery"). The strings go through JSON.stringify.
  const eventType = fields.eventType == null ? '' : `,"eventType":${JSON.stringify(fields.eventType)}`;
  return (
    `{"event":{"orgId":${JSON.stringify(fields.orgId)},"entity":${JSON.stringify(fields.entity)}${eventType},` +
    `"numRetries":${JSON.stringify(fields.numRetries)},"createdAt":"${fields.createdAt.toISOString()}",` +
    `"updatedAt":"${fields.updatedAt.toISOString()}"},"data":${dataJson}}`
  );
}
