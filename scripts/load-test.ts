/**
 * Load test of the gateway: starts the real server (`askgraph serve`) as a child process on 127.0.0.1
 * (or targets --url), then runs autocannon: 32 connections for 30 s (both bounded), a mix of
 * POST /v1/ask with MetaQA validation questions (answer cache off, so every ask runs the pipeline)
 * and GET /healthz (1 in 4). Prints throughput, p50/p95/p99 latency, errors, and the server's own
 * stage latencies and answer sources from /metrics.
 *
 *   npx tsx scripts/load-test.ts [--connections 32] [--duration 30] [--cache] [--url http://127.0.0.1:PORT] [--json]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Command } from 'commander';
import { defined, packageRoot, percentile } from '../src/core';
import { checkLoopbackUrl, freePort, loadAutocannon, validationQuestions, type AutocannonResult } from './loopback';

interface Args {
  connections: number;
  duration: number;
  cache: boolean;
  url?: string;
  json: boolean;
  timeout: number;
}

function parseArgs(argv: string[]): Args {
  const bounded = (lo: number, hi: number) => (v: string) => Math.min(hi, Math.max(lo, Number(v)));
  const a = new Command('load-test')
    .option('--connections <n>', 'concurrent connections (1–256)', bounded(1, 256), 32)
    .option('--duration <s>', 'seconds (1–300)', bounded(1, 300), 30)
    .option('--timeout <s>', 'request timeout in seconds', Number, 60)
    .option('--cache', 'let the answer cache serve repeats', false)
    .option('--url <url>', 'a running server (loopback only) instead of a fresh one')
    .option('--json', 'print JSON', false)
    .parse(argv, { from: 'user' })
    .opts<Args>();
  checkLoopbackUrl(a.url);
  return a;
}



/** The CLI from the sources (tsx) or the build (bin/askgraph.js), whichever this script runs as. */
function serveCommand(port: number): { cmd: string; args: string[] } {
  const root = packageRoot();
  const args = ['serve', '--port', String(port), '--host', '127.0.0.1'];
  if (__filename.endsWith('.ts')) return { cmd: process.execPath, args: ['--require', require.resolve('tsx/cjs'), path.join(root, 'src', 'cli', 'dev.ts'), ...args] };
  return { cmd: process.execPath, args: [path.join(root, 'bin', 'askgraph.js'), ...args] };
}

async function waitHealthy(url: string, ms: number, child?: ChildProcess): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (child && child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`);
    try {
      const r = await fetch(url + '/healthz');
      if (r.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server at ${url} not healthy after ${ms} ms`);
}

/** Mean of a Prometheus histogram per label value, from the exposition text. */
function histogramMeans(text: string, name: string, label: string): Record<string, { mean: number; count: number }> {
  const out: Record<string, { sum: number; count: number }> = {};
  const re = new RegExp(`^${name}_(sum|count)\\{${label}="([^"]+)"\\} ([0-9.e+-]+)$`, 'gm');
  for (const m of text.matchAll(re)) {
    const o = (out[defined(m[2], 'histogram label')] ??= { sum: 0, count: 0 });
    if (m[1] === 'sum') o.sum = Number(m[3]);
    else o.count = Number(m[3]);
  }
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, { mean: v.count ? v.sum / v.count : 0, count: v.count }]));
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const autocannon = loadAutocannon();
  const qs = validationQuestions().map((q) => q.question);
  let child: ChildProcess | undefined;
  let url = args.url?.replace(/\/$/, '');
  const logFile = path.join(os.tmpdir(), 'askgraph-load-server.log');
  if (!url) {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const { cmd, args: cargs } = serveCommand(port);
    const log = fs.openSync(logFile, 'w');
    child = spawn(cmd, cargs, {
      env: {
        ...process.env,
        ASKGRAPH_CACHE_MAX: args.cache ? '1000' : '0',
        ASKGRAPH_RATE_LIMIT_PER_MINUTE: '0', // one client address: the limiter would measure itself
        ASKGRAPH_ASK_PER_CLIENT: '100000', // and so would the per-client share of the pipeline
        ASKGRAPH_LOG_LEVEL: process.env.ASKGRAPH_LOG_LEVEL ?? 'info',
      },
      stdio: ['ignore', log, log],
    });
    process.stderr.write(`load-test: starting the server on ${url} (log ${logFile})\n`);
  }
  try {
    await waitHealthy(url, 180_000, child);
    // warm-up: the first ask loads lazy parts (ONNX sessions)
    await fetch(url + '/v1/ask', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ question: qs[0] }) });
    let seed = 12345;
    const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const ask = {
      method: 'POST',
      path: '/v1/ask',
      headers: { 'content-type': 'application/json' },
      setupRequest: (req: Record<string, unknown>) => ({ ...req, body: JSON.stringify({ question: qs[Math.floor(rand() * qs.length)] }) }),
    };
    process.stderr.write(`load-test: autocannon ${url}, ${args.connections} connections, ${args.duration} s, asks:health = 3:1, cache ${args.cache ? 'on' : 'off'}\n`);
    const times: number[] = [];
    const r = await new Promise<AutocannonResult>((resolve, reject) => {
      const inst = autocannon(
        { url, connections: args.connections, duration: args.duration, timeout: args.timeout, requests: [{ method: 'GET', path: '/healthz' }, ask, ask, ask] },
        (err, result) => (err ? reject(err) : resolve(result)),
      );
      // every response time, for exact percentiles (autocannon's summary has no p95)
      inst.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => times.push(ms));
    });
    times.sort((a, b) => a - b);
    const pct = (p: number) => {
      const v = percentile(times, p);
      return v === null ? null : +v.toFixed(1);
    };
    const metrics = await (await fetch(url + '/metrics')).text();
    const routeLatency = histogramMeans(metrics, 'askgraph_http_request_duration_seconds', 'route');
    const stages = histogramMeans(metrics, 'askgraph_stage_duration_seconds', 'stage');
    const sources = Object.fromEntries([...metrics.matchAll(/^askgraph_answers_total\{source="([^"]+)"\} (\d+)$/gm)].map((m): [string, number] => [defined(m[1], 'answer source'), Number(m[2])]));
    const statuses = [...metrics.matchAll(/^askgraph_http_requests_total\{method="([A-Z]+)",route="([^"]+)",status="(\d+)"\} (\d+)$/gm)].map((m) => `${m[1]} ${m[2]} ${m[3]}: ${m[4]}`);
    const summary = {
      url,
      connections: args.connections,
      durationS: r.duration,
      cache: args.cache,
      requests: r.requests.total,
      throughputRps: r.requests.average,
      latencyMs: { p50: pct(50), p90: pct(90), p95: pct(95), p99: pct(99), max: pct(100), mean: times.length ? +(times.reduce((a, b) => a + b, 0) / times.length).toFixed(1) : null },
      responses: times.length,
      errors: r.errors,
      timeouts: r.timeouts,
      non2xx: r.non2xx,
      server: {
        meanMsByRoute: Object.fromEntries(Object.entries(routeLatency).map(([k, v]) => [k, { meanMs: +(v.mean * 1000).toFixed(1), count: v.count }])),
        meanMsByStage: Object.fromEntries(Object.entries(stages).map(([k, v]) => [k, +(v.mean * 1000).toFixed(1)])),
        answerSources: sources,
        statuses,
      },
    };
    if (args.json) process.stdout.write(JSON.stringify(summary, null, 2) + '\n');
    else {
      const l = summary.latencyMs;
      process.stdout.write(
        [
          `requests ${summary.requests} in ${summary.durationS} s → ${summary.throughputRps.toFixed(1)} req/s (${args.connections} connections, cache ${args.cache ? 'on' : 'off'})`,
          `latency ms (${summary.responses} responses): p50 ${l.p50}  p90 ${l.p90}  p95 ${l.p95}  p99 ${l.p99}  max ${l.max}  mean ${l.mean}`,
          `errors ${summary.errors}  timeouts ${summary.timeouts}  non-2xx ${summary.non2xx}`,
          `server mean ms by route: ${JSON.stringify(summary.server.meanMsByRoute)}`,
          `server mean ms by stage: ${JSON.stringify(summary.server.meanMsByStage)}`,
          `answer sources: ${JSON.stringify(summary.server.answerSources)}`,
          `statuses: ${summary.server.statuses.join('; ')}`,
        ].join('\n') + '\n',
      );
    }
    if (summary.errors + summary.non2xx + summary.timeouts > 0) process.exitCode = 1;
  } finally {
    const server = child;
    if (server?.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    }
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`load-test: ${(e as Error).message}\n`);
  process.exitCode = 2;
});
