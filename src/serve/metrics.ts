import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The server's Prometheus metrics on prom-client. Each ServeMetrics owns its registry (never the
 * global one): tests create several apps in one process, and each app exposes only its own numbers.
 * prom-client writes labels in the order of the first observation's object, so call sites pass them
 * in alphabetical order (method, route, status). The registry also carries prom-client's default
 * process and Node.js metrics (CPU, resident memory, heap, event loop lag, GC, open handles).
 */

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export const PROMETHEUS_CONTENT_TYPE: string = Registry.PROMETHEUS_CONTENT_TYPE;

export class ServeMetrics {
  readonly registry = new Registry();
  private readonly registers = [this.registry];

  readonly requests = new Counter({
    name: 'askgraph_http_requests_total',
    help: 'HTTP requests by route, method and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: this.registers,
  });
  readonly requestSeconds = new Histogram({
    name: 'askgraph_http_request_duration_seconds',
    help: 'HTTP request latency by route.',
    labelNames: ['route'] as const,
    buckets: SECONDS,
    registers: this.registers,
  });
  readonly stageSeconds = new Histogram({
    name: 'askgraph_stage_duration_seconds',
    help: 'Pipeline latency by stage (generate, ground, execute, fallback, total) of answered questions.',
    labelNames: ['stage'] as const,
    buckets: SECONDS,
    registers: this.registers,
  });
  readonly errors = new Counter({ name: 'askgraph_errors_total', help: 'Error responses by error code.', labelNames: ['code'] as const, registers: this.registers });
  readonly cacheHits = new Counter({ name: 'askgraph_cache_hits_total', help: 'Answer cache hits.', registers: this.registers });
  readonly cacheMisses = new Counter({ name: 'askgraph_cache_misses_total', help: 'Answer cache misses.', registers: this.registers });
  readonly answers = new Counter({
    name: 'askgraph_answers_total',
    help: 'Answered questions by source kind (parser, fallback, none).',
    labelNames: ['source'] as const,
    registers: this.registers,
  });
  readonly fallbackRate: Gauge;
  readonly sparqlQueries = new Counter({ name: 'askgraph_sparql_queries_total', help: 'Queries run through /sparql by kind.', labelNames: ['kind'] as const, registers: this.registers });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    const answers = this.answers;
    this.fallbackRate = new Gauge({
      name: 'askgraph_fallback_rate',
      help: 'Share of answered questions whose answer came from a fallback reader.',
      registers: this.registers,
      async collect() {
        let total = 0;
        let fallback = 0;
        for (const { labels, value } of (await answers.get()).values) {
          total += value;
          if (labels.source === 'fallback') fallback += value;
        }
        this.set(total === 0 ? 0 : fallback / total);
      },
    });
  }

  /** A gauge read at scrape time (e.g. the admission queue). */
  gauge(name: string, help: string, read: () => number): void {
    new Gauge({
      name,
      help,
      registers: this.registers,
      collect() {
        this.set(read());
      },
    });
  }

  /**
   * A counter read at scrape time from a running total kept elsewhere (e.g. store restarts): it
   * grows by what the total grew since the last scrape, so it never goes down.
   */
  counter(name: string, help: string, readTotal: () => number): void {
    let seen = 0;
    new Counter({
      name,
      help,
      registers: this.registers,
      collect() {
        const n = readTotal();
        if (n > seen) {
          this.inc(n - seen);
          seen = n;
        }
      },
    });
  }

  /** The Prometheus text exposition (format 0.0.4) of this app's metrics. */
  expose(): Promise<string> {
    return this.registry.metrics();
  }
}
