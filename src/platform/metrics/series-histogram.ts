import type { MetricValueWithName } from 'prom-client';

/** What prom-client's registry reads of a metric at scrape. */
interface MetricPage {
  name: string;
  help: string;
  type: 'histogram';
  aggregator: 'sum';
  values: Array<MetricValueWithName<string>>;
}

/** One series of a SeriesHistogram: its labels, its bucket counts, its sum. */
export class HistogramSeries {
  /** Per bucket, the observations at or under its bound and over the one before (not cumulative). */
  readonly counts: number[];
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Readonly<Record<string, string>>,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Array<number>(bounds.length).fill(0);
  }

  observe(value: number): void {
    const bounds = this.bounds;
    let i = 0;
    while (i < bounds.length && value > bounds[i]) i++;
    if (i < bounds.length) this.counts[i]++;
    this.sum += value;
    this.count++;
  }
}

/**
 * A Prometheus histogram for the request path, in prom-client's registry and text format:
 * the caller resolves a series once (`series(...)`, then keeps it) and an observation is a
 * walk over the bounds and three additions. prom-client's own Histogram checks and hashes the
 * label object on every observation, a cost paid on every request.
 */
export class SeriesHistogram<L extends string> {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly name: string;
  readonly help: string;
  private readonly labelNames: readonly L[];
  private readonly bounds: readonly number[];
  private readonly all = new Map<string, HistogramSeries>();

  constructor(config: { name: string; help: string; labelNames: readonly L[]; buckets: number[] }) {
    this.name = config.name;
    this.help = config.help;
    this.labelNames = config.labelNames;
    this.bounds = [...config.buckets].sort((a, b) => a - b);
  }

  /** The series of these label values, in the order of `labelNames`. */
  series(...values: string[]): HistogramSeries {
    const key = values.join('\u0000');
    let series = this.all.get(key);
    if (!series) {
      const labels: Record<string, string> = {};
      this.labelNames.forEach((name, i) => (labels[name] = values[i]));
      series = new HistogramSeries(labels, this.bounds);
      this.all.set(key, series);
    }
    return series;
  }

  reset(): void {
    this.all.clear();
  }

  /** What prom-client's registry prints: cumulative buckets, +Inf, _sum and _count per series. */
  get(): Promise<MetricPage> {
    const values: Array<MetricValueWithName<string>> = [];
    for (const s of this.all.values()) {
      let cumulative = 0;
      this.bounds.forEach((bound, i) => {
        cumulative += s.counts[i];
        values.push({ metricName: `${this.name}_bucket`, labels: { ...s.labels, le: bound }, value: cumulative });
      });
      values.push({ metricName: `${this.name}_bucket`, labels: { ...s.labels, le: '+Inf' }, value: s.count });
      values.push({ metricName: `${this.name}_sum`, labels: s.labels, value: s.sum });
      values.push({ metricName: `${this.name}_count`, labels: s.labels, value: s.count });
    }
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator });
  }
}
