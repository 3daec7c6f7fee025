/**
 * A small Prometheus registry (text exposition format 0.0.4): counters and histograms with labels.
 * Written here rather than pulling prom-client: the server needs five metric families and nothing else.
 */

type Labels = Record<string, string>;

function labelKey(labels: Labels): string {
  return Object.keys(labels)
    .sort()
    .map((k) => `${k}="${escapeLabel(labels[k])}"`)
    .join(',');
}

function escapeLabel(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function fmt(n: number): string {
  if (n === Infinity) return '+Inf';
  return Number.isInteger(n) ? String(n) : String(Number(n.toPrecision(12)));
}

abstract class Metric {
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}
  abstract expose(): string;
  protected header(type: string): string {
    return `# HELP ${this.name} ${this.help}\n# TYPE ${this.name} ${type}\n`;
  }
}

export class Counter extends Metric {
  private values = new Map<string, number>();
  inc(labels: Labels = {}, by = 1): void {
    const k = labelKey(labels);
    this.values.set(k, (this.values.get(k) ?? 0) + by);
  }
  get(labels: Labels = {}): number {
    return this.values.get(labelKey(labels)) ?? 0;
  }
  expose(): string {
    let s = this.header('counter');
    if (this.values.size === 0) s += `${this.name} 0\n`;
    for (const [k, v] of this.values) s += `${this.name}${k ? `{${k}}` : ''} ${fmt(v)}\n`;
    return s;
  }
}

export class Gauge extends Metric {
  constructor(
    name: string,
    help: string,
    private readonly read: () => number,
  ) {
    super(name, help);
  }
  expose(): string {
    return this.header('gauge') + `${this.name} ${fmt(this.read())}\n`;
  }
}

export class Histogram extends Metric {
  private series = new Map<string, { counts: number[]; sum: number; count: number }>();
  constructor(
    name: string,
    help: string,
    readonly buckets: number[],
  ) {
    super(name, help);
  }
  observe(labels: Labels, value: number): void {
    const k = labelKey(labels);
    let s = this.series.get(k);
    if (!s) this.series.set(k, (s = { counts: this.buckets.map(() => 0), sum: 0, count: 0 }));
    for (let i = 0; i < this.buckets.length; i++) if (value <= this.buckets[i]) s.counts[i]++;
    s.sum += value;
    s.count++;
  }
  count(labels: Labels): number {
    return this.series.get(labelKey(labels))?.count ?? 0;
  }
  expose(): string {
    let out = this.header('histogram');
    for (const [k, s] of this.series) {
      const pre = k ? k + ',' : '';
      this.buckets.forEach((b, i) => (out += `${this.name}_bucket{${pre}le="${fmt(b)}"} ${s.counts[i]}\n`));
      out += `${this.name}_bucket{${pre}le="+Inf"} ${s.count}\n`;
      out += `${this.name}_sum${k ? `{${k}}` : ''} ${fmt(s.sum)}\n`;
      out += `${this.name}_count${k ? `{${k}}` : ''} ${s.count}\n`;
    }
    return out;
  }
}

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** The server's metrics. One instance per app (tests create several apps in one process). */
export class ServeMetrics {
  readonly requests = new Counter('askgraph_http_requests_total', 'HTTP requests by route, method and status.');
  readonly requestSeconds = new Histogram('askgraph_http_request_duration_seconds', 'HTTP request latency by route.', SECONDS);
  readonly stageSeconds = new Histogram(
    'askgraph_stage_duration_seconds',
    'Pipeline latency by stage (generate, ground, execute, fallback, total) of answered questions.',
    SECONDS,
  );
  readonly errors = new Counter('askgraph_errors_total', 'Error responses by error code.');
  readonly cacheHits = new Counter('askgraph_cache_hits_total', 'Answer cache hits.');
  readonly cacheMisses = new Counter('askgraph_cache_misses_total', 'Answer cache misses.');
  readonly answers = new Counter('askgraph_answers_total', 'Answered questions by source kind (parser, fallback, none).');
  readonly sparqlQueries = new Counter('askgraph_sparql_queries_total', 'Queries run through /sparql by kind.');
  readonly fallbackRate = new Gauge(
    'askgraph_fallback_rate',
    'Share of answered questions whose answer came from a fallback reader.',
    () => {
      const total = this.answers.get({ source: 'parser' }) + this.answers.get({ source: 'fallback' }) + this.answers.get({ source: 'none' });
      return total === 0 ? 0 : this.answers.get({ source: 'fallback' }) / total;
    },
  );

  private readonly extra: Metric[] = [];

  /** A gauge read at scrape time (e.g. the admission queue). */
  gauge(name: string, help: string, read: () => number): void {
    this.extra.push(new Gauge(name, help, read));
  }

  private all(): Metric[] {
    return [
      ...this.extra,
      this.requests,
      this.requestSeconds,
      this.stageSeconds,
      this.errors,
      this.cacheHits,
      this.cacheMisses,
      this.answers,
      this.fallbackRate,
      this.sparqlQueries,
    ];
  }

  expose(): string {
    return this.all()
      .map((m) => m.expose())
      .join('');
  }
}

export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';
