// Where webhooks may go (docs/decisions.md, "Webhooks: where they may go"): https only and public addresses
// only, unless development asks for less. The WEBHOOK_* variables that choose a policy are read by
// @svc/runtime.
export interface ReceiverPolicy {
  /** Plain http receivers are accepted (development only). */
  readonly allowHttp: boolean;
  /** Networks (CIDR) accepted although they are not public, e.g. loopback in development. */
  readonly allowedNetworks: readonly string[];
}

/** Production: https to public addresses only. */
export const STRICT_POLICY: ReceiverPolicy = Object.freeze({ allowHttp: false, allowedNetworks: [] });

/** `npm start`: also http://localhost:<port> receivers, for an organisation whose kycDomain is localhost. */
export const DEVELOPMENT_POLICY: ReceiverPolicy = Object.freeze({
  allowHttp: true,
  allowedNetworks: ['127.0.0.0/8', '::1/128'],
});

/** docs/api-guide.md#delivery-retries-and-the-24-hour-window, docs/api-guide.md#limits: failed events are not delivered after one day. */
export const DELIVERY_WINDOW_MS = 24 * 60 * 60 * 1000;
