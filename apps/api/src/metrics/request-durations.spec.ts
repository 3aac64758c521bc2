import { Histogram, Registry } from 'prom-client';

import { RequestDurationHistogram } from './request-durations.js';

const NAME = 'http_request_duration_seconds';
const HELP = 'Time to answer';
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const OBSERVATIONS: [string, string, number, number][] = [
  ['POST', '/api/v1/oauth/test', 200, 0.0004],
  ['POST', '/api/v1/oauth/test', 200, 0.005],
  ['POST', '/api/v1/oauth/test', 401, 0.0051],
  ['GET', '/api/v1/user/:orgUserId', 404, 2.5],
  ['GET', '(unmatched)', 404, 12],
  ['POST', '/api/v1/oauth/test', 200, 0.3],
];

describe('the request duration histogram', () => {
  it('exposes what prom-client’s Histogram exposes for the same observations', async () => {
    const ours = new Registry();
    const theirs = new Registry();
    const histogram = new RequestDurationHistogram(NAME, HELP, BUCKETS, ours);
    const reference = new Histogram({
      name: NAME,
      help: HELP,
      labelNames: ['method', 'route', 'status_code'],
      buckets: BUCKETS,
      registers: [theirs],
    });
    for (const [method, route, status, seconds] of OBSERVATIONS) {
      histogram.observe(method, route, status, seconds);
      reference.observe({ method, route, status_code: String(status) }, seconds);
    }
    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text).toContain(
      'http_request_duration_seconds_bucket{le="0.005",method="POST",route="/api/v1/oauth/test",status_code="200"} 2',
    );
    expect(await ours.getMetricsAsJSON()).toEqual(await theirs.getMetricsAsJSON());
    ours.resetMetrics();
    expect(await ours.metrics()).toBe(`# HELP ${NAME} ${HELP}\n# TYPE ${NAME} histogram\n`);
  });
});
