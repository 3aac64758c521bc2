// http_request_duration_seconds (docs/operations.md, "The api"): a histogram by method, route pattern and
// status, exposed through the prom-client registry as prom-client's Histogram exposes one, but observed
// without its per-call work. prom-client's `observe` (or a `labels()` child's) builds a labels object,
// validates it and hashes it to a string on every request: 1.5 to 2 % of the bearer echo's CPU (for its
// target: docs/decisions.md, "Request path: the request histogram"). Here each series is found through three
// maps (method, route, status code) and the request adds to its bucket, sum and count.
import type { Registry } from 'prom-client';

interface Series {
  readonly labels: { readonly method: string; readonly route: string; readonly status_code: string };
  /** Observations per bucket, not cumulative; the last one is above every bound (+Inf only). */
  readonly buckets: number[];
  sum: number;
  count: number;
}

/** A value as prom-client's registry formats it: `labels` then `sharedLabels` after them. */
interface ExposedValue {
  readonly labels: Record<string, string | number>;
  readonly sharedLabels: Series['labels'];
  readonly value: number;
  readonly metricName: string;
  /** prom-client's field; this histogram keeps none (null on buckets, undefined on sum and count, as there). */
  readonly exemplar: null | undefined;
}

export class RequestDurationHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly series = new Map<string, Map<string, Map<number, Series>>>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
    registry: Registry,
  ) {
    // The registry takes any metric with a name, `get` and `getForPromString` (it formats the values).
    registry.registerMetric(this as unknown as Parameters<Registry['registerMetric']>[0]);
  }

  observe(method: string, route: string, statusCode: number, seconds: number): void {
    let byRoute = this.series.get(method);
    if (!byRoute) this.series.set(method, (byRoute = new Map<string, Map<number, Series>>()));
    let byStatus = byRoute.get(route);
    if (!byStatus) byRoute.set(route, (byStatus = new Map<number, Series>()));
    let series = byStatus.get(statusCode);
    if (!series) {
      series = {
        labels: { method, route, status_code: String(statusCode) },
        buckets: new Array<number>(this.bounds.length + 1).fill(0),
        sum: 0,
        count: 0,
      };
      byStatus.set(statusCode, series);
    }
    const bucket = this.bucketOf(seconds);
    series.buckets[bucket] = (series.buckets[bucket] ?? 0) + 1;
    series.sum += seconds;
    series.count++;
  }

  /** The index of the first bound `seconds` is within, as prom-client's Histogram counts (le). */
  private bucketOf(seconds: number): number {
    const bounds = this.bounds;
    for (let index = 0; index < bounds.length; index++) {
      if (seconds <= (bounds[index] ?? Infinity)) return index;
    }
    return bounds.length;
  }

  /** The values as prom-client's Histogram gives them for the text exposition. */
  getForPromString() {
    const values: ExposedValue[] = [];
    for (const byRoute of this.series.values()) {
      for (const byStatus of byRoute.values()) {
        for (const series of byStatus.values()) values.push(...this.exposed(series));
      }
    }
    return Promise.resolve({
      name: this.name,
      help: this.help,
      type: this.type,
      values,
      aggregator: this.aggregator,
    });
  }

  /** The same with each value's labels in one object, as prom-client's Histogram `get` gives them. */
  async get() {
    const data = await this.getForPromString();
    return {
      ...data,
      values: data.values.map(({ labels, sharedLabels, ...value }) => ({
        ...value,
        labels: { ...labels, ...sharedLabels },
      })),
    };
  }

  reset(): void {
    this.series.clear();
  }

  private exposed(series: Series): ExposedValue[] {
    const bucketName = `${this.name}_bucket`;
    const value = (labels: ExposedValue['labels'], count: number, metricName: string): ExposedValue => ({
      labels,
      sharedLabels: series.labels,
      value: count,
      metricName,
      exemplar: metricName === bucketName ? null : undefined,
    });
    let cumulative = 0;
    return [
      ...this.bounds.map((le, index) =>
        value({ le }, (cumulative += series.buckets[index] ?? 0), bucketName),
      ),
      value({ le: '+Inf' }, series.count, bucketName),
      value({}, series.sum, `${this.name}_sum`),
      value({}, series.count, `${this.name}_count`),
    ];
  }
}
