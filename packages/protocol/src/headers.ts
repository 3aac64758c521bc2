// Header names of the wire contract, lowercase as Node and HTTP/2 present them (HTTP names are
// case-insensitive; the API guide writes X-API-KEY).
export const HEADERS = {
  apiKey: 'x-api-key',
  timestamp: 'x-timestamp',
  signature: 'x-signature',
  webhookSignature: 'svc-signature',
  webhookTimestamp: 'svc-timestamp',
  webhookEventId: 'svc-event-id',
  authorization: 'authorization',
} as const;

export type HeaderName = (typeof HEADERS)[keyof typeof HEADERS];

/** Headers as Node (`IncomingHttpHeaders`), fetch (`Headers`) or a plain object carry them. */
export type HeaderSource =
  { get(name: string): string | null } | Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * The value of one header, looked up case-insensitively; undefined when absent or empty. A header sent
 * twice counts as absent: a signature cannot be two values.
 */
export function headerValue(headers: HeaderSource, name: string): string | undefined {
  let value: string | readonly string[] | null | undefined;
  if (typeof headers.get === 'function') {
    value = (headers as { get(name: string): string | null }).get(name);
  } else {
    const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
    value = record[name] ?? record[findKey(record, name) ?? name];
  }
  if (typeof value !== 'string' || value === '') return undefined;
  return value;
}

function findKey(record: object, name: string): string | undefined {
  const lower = name.toLowerCase();
  return Object.keys(record).find((key) => key.toLowerCase() === lower);
}
