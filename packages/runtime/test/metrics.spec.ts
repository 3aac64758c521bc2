// The metrics plumbing both services share: the scrape token, the pool gauges, and the exposition lint
// that `npm test` holds both services' /metrics to (each rule shown failing on a bad exposition).
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { DataSource } from 'typeorm';

import { createMetricsRegistry, metricsScrapeAllowed, observeDatabasePool } from '../src/metrics.js';
import { lintExposition, parseExposition, sampleValue } from '../src/testing/exposition.js';

const TOKEN = 't'.repeat(40);

describe('metricsScrapeAllowed', () => {
  it('without a token every scrape is allowed', () => {
    expect(metricsScrapeAllowed(undefined, undefined)).toBe(true);
    expect(metricsScrapeAllowed('Bearer anything', undefined)).toBe(true);
  });

  it.each([
    [undefined, false],
    ['', false],
    ['Bearer ', false],
    [`Basic ${TOKEN}`, false],
    [`Bearer ${TOKEN}x`, false],
    [`Bearer ${TOKEN.slice(1)}`, false],
    [`bearer ${TOKEN}`, false],
    [`Bearer ${TOKEN}`, true],
  ])('with a token, Authorization %p is %p', (header, allowed) => {
    expect(metricsScrapeAllowed(header, TOKEN)).toBe(allowed);
  });
});

describe('observeDatabasePool', () => {
  it('reads the pool TypeORM keeps as driver.master at each scrape', async () => {
    const pool = { totalCount: 5, idleCount: 2, waitingCount: 1, options: { max: 10 } };
    const registry = new Registry();
    observeDatabasePool(registry, { driver: { master: pool } } as unknown as DataSource);
    let families = parseExposition(await registry.metrics());
    expect(sampleValue(families, 'db_pool_connections')).toBe(5);
    expect(sampleValue(families, 'db_pool_idle_connections')).toBe(2);
    expect(sampleValue(families, 'db_pool_waiting_requests')).toBe(1);
    expect(sampleValue(families, 'db_pool_max_connections')).toBe(10);
    pool.totalCount = 7;
    families = parseExposition(await registry.metrics());
    expect(sampleValue(families, 'db_pool_connections')).toBe(7);
    expect(lintExposition(await registry.metrics())).toEqual([]);
  });
});

describe('lintExposition', () => {
  it('passes the process metrics prom-client exposes', async () => {
    const registry = createMetricsRegistry();
    const text = await registry.metrics();
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(lintExposition(text)).toEqual([]);
  });

  it('passes counters, gauges and labelled histograms named by the rules', async () => {
    const registry = new Registry();
    new Counter({
      name: 'jobs_done_total',
      help: 'Jobs done',
      labelNames: ['kind'],
      registers: [registry],
    }).inc({
      kind: 'a',
    });
    new Gauge({ name: 'queue_depth', help: 'Jobs waiting', registers: [registry] }).set(3);
    new Histogram({
      name: 'wait_seconds',
      help: 'Waits',
      labelNames: ['queue'],
      buckets: [1, 2],
      registers: [registry],
    }).observe({ queue: 'q' }, 1.5);
    expect(lintExposition(await registry.metrics())).toEqual([]);
  });

  it.each([
    [
      '# HELP jobs_total Jobs\n# TYPE jobs_total counter\njobs_total{a="1"} 1\njobs_total{a="1"} 2\n',
      'the same series twice',
    ],
    [
      '# HELP jobs_total Jobs\n# TYPE jobs_total counter\njobs_total{a="1",b="2"} 1\njobs_total{b="2",a="1"} 2\n',
      'the same series twice',
    ],
    ['# HELP jobs Jobs\n# TYPE jobs counter\njobs 1\n', 'counter names end in "_total"'],
    [
      '# HELP depth_total Depth\n# TYPE depth_total gauge\ndepth_total 1\n',
      'only counter names end in "_total"',
    ],
    ['# TYPE jobs_total counter\njobs_total 1\n', 'no HELP text'],
    ['# HELP jobs_total Jobs\njobs_total 1\n', 'no TYPE'],
    [
      '# HELP wait_milliseconds Wait\n# TYPE wait_milliseconds gauge\nwait_milliseconds 1\n',
      'use the base unit "seconds", not "milliseconds"',
    ],
    ['# HELP wait_ms Wait\n# TYPE wait_ms gauge\nwait_ms 1\n', 'abbreviated unit "ms"'],
    ['# HELP age_hours Age\n# TYPE age_hours gauge\nage_hours 1\n', 'use "seconds", not "hours"'],
    ['# HELP queueDepth Depth\n# TYPE queueDepth gauge\nqueueDepth 1\n', 'snake_case'],
    ['# HELP depth_gauge Depth\n# TYPE depth_gauge gauge\ndepth_gauge 1\n', 'the type "gauge" in the name'],
    ['# HELP a:b Depth\n# TYPE a:b gauge\na:b 1\n', 'recording rules'],
    ['# HELP depth Depth\n# TYPE depth gauge\ndepth{le="1"} 1\n', '"le" is the label of histogram buckets'],
    ['# HELP depth_count Depth\n# TYPE depth_count gauge\ndepth_count 1\n', '"_count" is for histograms'],
    [
      '# HELP depth Depth\n# TYPE depth gauge\ndepth 1\n# HELP depth Depth\n# TYPE depth gauge\ndepth 2\n',
      'declared twice',
    ],
    ['# HELP depth Depth\n# TYPE depth gauge\ndepth{a="1" 1\n', 'does not parse'],
  ])('finds the problem in %p', (text, problem) => {
    const problems = lintExposition(text);
    expect(problems.join('\n')).toContain(problem);
  });
});
