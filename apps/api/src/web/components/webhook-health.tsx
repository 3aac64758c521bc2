// An endpoint's health as every web area shows it, so the dashboard and the operator console say the same
// word for the same endpoint (docs/decisions.md, "Webhooks: one health word").
import type { EndpointHealthState } from '../../webhooks/endpoint-health.js';
import type { HealthView } from '../../webhooks/webhook.view.js';
import { Badge, Time, type Tone } from './ui.js';

const WORDS: Readonly<Record<EndpointHealthState, readonly [string, Tone]>> = {
  HEALTHY: ['Healthy', 'good'],
  DEGRADED: ['Degraded', 'warn'],
  FAILING: ['Failing', 'bad'],
  NO_ENDPOINT: ['No endpoint', 'neutral'],
};

export function HealthBadge(props: { readonly state: EndpointHealthState }) {
  const [word, tone] = WORDS[props.state];
  return (
    <Badge tone={tone}>
      <span data-health={props.state}>{word}</span>
    </Badge>
  );
}

/** A failed attempt in a line: when, what went wrong, and the first bytes of the answer. */
type ShownError = NonNullable<HealthView['lastError']>;

export function AttemptErrorText(props: { readonly error: ShownError; readonly preview?: number }) {
  const { error } = props;
  const what = error.statusCode !== null ? `HTTP ${error.statusCode}` : (error.errorKind ?? 'failed');
  const limit = props.preview ?? 120;
  const answer = error.response.length > limit ? `${error.response.slice(0, limit)}…` : error.response;
  return (
    <span class="wrap">
      {what} at <Time iso={error.at} />
      {answer && `: ${answer}`}
    </span>
  );
}

/** The facts a page lists about the health: the word, why, and the last error. */
export function healthFacts(health: HealthView) {
  return [
    ['Health', <HealthBadge state={health.state} />],
    ['Why', health.reason],
    [
      'Last error',
      health.lastError ? (
        <AttemptErrorText error={health.lastError} />
      ) : (
        <span class="muted">none among the recent attempts</span>
      ),
    ],
  ] as const;
}
