/**
 * Several gateways behind nginx (issue 25 item 5): starts R `askgraph serve --store <endpoint>` replicas
 * (remote mode: the endpoint holds the graph) on free loopback ports, sharing one entity-index cache
 * folder (the second replica reads the index the first built) — or, with --pack DIR, R `askgraph serve
 * --store DIR` over an endpoint pack (`askgraph init URL`), sharing the pack's own cache (DIR/.cache: each
 * replica loads the index from it; ~45 s warm for the 28M-triple graph's 402 MiB cache, and a replica gets
 * 10 minutes to be ready) — then for each replica count n of --replicas
 * writes an nginx config (Debian's nginx; round robin over the first n replicas, keep-alive upstream,
 * X-Forwarded-For / X-Request-Id, replicas started with ASKGRAPH_TRUST_PROXY=loopback) on a free loopback
 * port, starts nginx, warms the replicas up, runs autocannon (POST /v1/ask with the questions in a fixed
 * order, answer cache off so every request runs the pipeline), and measures the CPU seconds each part
 * used (/proc: replicas, nginx, Virtuoso when VIRTUOSO_DIR names it, this process with autocannon, the
 * rest of the machine) and the load average. Prints a table; cleans everything up.
 *
 * Questions: `--questions metaqa` (default) the MetaQA validation questions; `--questions large` the seeded
 * questions about scripts/build-large-graph.ts's graph (its `questions`, as scripts/bench-large.ts ask:
 * --count, --scale and --seed of the graph, --qseed) with gold answers from the endpoint — then every 2xx
 * response under load is checked: right (exactly the gold answers) and whether a question's answers
 * differed between responses.
 *
 *   npx tsx scripts/bench-replicas.ts [--endpoint URL | --pack DIR] [--questions metaqa|large] [--replicas 1,2] [--duration 20] [--connections 16] [--cache] [--json]
 * Default endpoint: the movies graph of scripts/virtuoso.sh on $VIRTUOSO_HTTP_PORT (graph http://askgraph.dev/test/movies).
 * The large graph: `VIRTUOSO_DIR=… npx tsx scripts/bench-replicas.ts --pack /tmp/scale4-pack --questions large --duration 30`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Command } from 'commander';
import { defined, itemAt, packageRoot, percentile } from '../src/core';
import { EndpointExecutor, loadPack } from '../src/execute';
import { questions, sameAnswers, World } from './build-large-graph';
import { freePort, loadAutocannon, validationQuestions, type AutocannonResult } from './loopback';

interface Args {
  /** The SPARQL endpoint the replicas serve (`--store URL`), or the endpoint of --pack. */
  endpoint: string;
  pack?: string;
  questions: 'metaqa' | 'large';
  count: number;
  scale: number;
  seed: number;
  qseed: number;
  replicas: string;
  duration: number;
  connections: number;
  cache: boolean;
  json: boolean;
}

async function parseArgs(argv: string[]): Promise<Args> {
  const port = process.env.VIRTUOSO_HTTP_PORT ?? '8890';
  const a = new Command('bench-replicas')
    .option('--endpoint <url>', 'SPARQL endpoint (loopback); default the movies graph on $VIRTUOSO_HTTP_PORT')
    .option('--pack <dir>', 'endpoint pack (askgraph init URL): the replicas serve it, over its endpoint')
    .option('--questions <set>', 'metaqa (the MetaQA validation questions) or large (seeded questions about the large graph, with gold answers)', 'metaqa')
    .option('--count <n>', 'large: number of questions', Number, 100)
    .option('--scale <x>', 'large: --scale of the graph', Number, 1)
    .option('--seed <n>', 'large: --seed of the graph', Number, 1)
    .option('--qseed <n>', 'large: seed of the questions', Number, 11)
    .option('--replicas <list>', 'replica counts to measure, comma-separated', '1,2')
    .option('--duration <s>', 'seconds per measurement', Number, 20)
    .option('--connections <n>', 'autocannon connections', Number, 16)
    .option('--cache', 'answer cache on (repeats are served from it)', false)
    .option('--json', 'print JSON', false)
    .parse(argv, { from: 'user' })
    .opts<Omit<Args, 'endpoint' | 'questions'> & { endpoint?: string; questions: string }>();
  const set = a.questions;
  if (set !== 'metaqa' && set !== 'large') throw new Error(`--questions must be metaqa or large, got ${set}`);
  if (a.pack !== undefined && a.endpoint !== undefined) throw new Error('give --endpoint or --pack, not both');
  let endpoint = a.endpoint ?? `http://127.0.0.1:${port}/sparql?default-graph-uri=${encodeURIComponent('http://askgraph.dev/test/movies')}`;
  if (a.pack !== undefined) {
    const { config } = await loadPack(a.pack); // pack.json as the gateway reads it (DATA_FORMAT when malformed)
    if (config.endpoint === undefined) throw new Error(`${a.pack} is not an endpoint pack (its pack.json names no endpoint)`);
    endpoint = config.endpoint;
  }
  if (!/^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?\//.test(endpoint)) throw new Error(`the endpoint must be a loopback http URL, got ${endpoint}`);
  return { ...a, endpoint, questions: set };
}

const TICK = 100; // USER_HZ of /proc/<pid>/stat
/** How long a replica may take to be ready: building an index, or loading a large pack's cache (~45 s for the 28M-triple graph on an idle machine, minutes under load). */
const READY_MS = 600_000;

/** CPU seconds (user + system) of a process and its threads, 0 when it is gone. */
function cpuOf(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / TICK;
  } catch {
    return 0;
  }
}

/** A process and its descendants (via /proc/<pid>/task/<tid>/children). */
function tree(pid: number): number[] {
  const out = [pid];
  // the loop also visits the children pushed while it runs
  for (const p of out) {
    let tasks: string[] = [];
    try {
      tasks = fs.readdirSync(`/proc/${p}/task`);
    } catch {
      continue;
    }
    for (const t of tasks) {
      try {
        for (const c of fs.readFileSync(`/proc/${p}/task/${t}/children`, 'utf8').trim().split(/\s+/)) if (c) out.push(Number(c));
      } catch {
        // gone
      }
    }
  }
  return out;
}

/** Busy CPU seconds of the whole machine (all cores) from /proc/stat. */
function machineBusy(): number {
  const f = itemAt(fs.readFileSync('/proc/stat', 'utf8').split('\n'), 0, '/proc/stat lines').trim().split(/\s+/).slice(1).map(Number);
  const idle = (f[3] ?? 0) + (f[4] ?? 0);
  return (f.reduce((a, b) => a + b, 0) - idle) / TICK;
}

function virtuosoPid(): number | undefined {
  const dir = process.env.VIRTUOSO_DIR;
  if (!dir) return undefined;
  try {
    const m = /^VIRT_PID=(\d+)/m.exec(fs.readFileSync(path.join(dir, 'virtuoso.lck'), 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

async function waitHealthy(url: string, ms: number, child?: ChildProcess): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (child && child.exitCode !== null) throw new Error(`${url}: exited with code ${child.exitCode}`);
    try {
      const r = await fetch(url + '/healthz');
      if (r.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} not healthy after ${ms} ms`);
}

function nginxConfig(dir: string, port: number, upstreams: number[]): string {
  return `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream askgraph {
${upstreams.map((p) => `    server 127.0.0.1:${p};`).join('\n')}
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://askgraph;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Request-Id $request_id;
      proxy_read_timeout 60s;
    }
  }
}
`;
}

/** Whether the process still runs (read afresh each call: it changes while we wait). */
function running(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || !running(child)) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  if (running(child)) child.kill('SIGKILL');
}

/** Peak resident memory of a process (VmHWM), MiB; 0 when it is gone. */
function peakRssMiB(pid: number): number {
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : 0;
  } catch {
    return 0;
  }
}

/** The questions sent, and for --questions large each one's gold answers. */
interface QuestionSet {
  questions: string[];
  gold?: Map<string, Set<string>>;
}

async function questionSet(args: Args): Promise<QuestionSet> {
  if (args.questions === 'metaqa') return { questions: validationQuestions().map((q) => q.question) };
  const t = Date.now();
  const ex = new EndpointExecutor(args.endpoint);
  try {
    const qs = await questions(new World(args.scale, args.seed), ex, args.count, args.qseed);
    const gold = new Map(qs.map((q) => [q.question, q.answers]));
    process.stderr.write(`bench-replicas: ${qs.length} questions of ${new Set(qs.map((q) => q.kind)).size} kinds with gold answers in ${((Date.now() - t) / 1000).toFixed(1)} s\n`);
    return { questions: qs.map((q) => q.question), gold };
  } finally {
    await ex.close();
  }
}

/** Checks the 2xx responses of --questions large: right or not, and answers that differ between responses of one question. */
class AnswerCheck {
  judged = 0;
  right = 0;
  unknown = 0;
  differ = 0;
  /** Each question's first answers (sorted, joined), over the whole run: an answer never depends on load. */
  private readonly seen = new Map<string, string>();
  constructor(private readonly gold: Map<string, Set<string>>) {}

  record(body: string): void {
    let r: { question?: unknown; answers?: unknown };
    try {
      r = JSON.parse(body) as typeof r;
    } catch {
      this.unknown++;
      return;
    }
    const gold = typeof r.question === 'string' ? this.gold.get(r.question) : undefined;
    if (!gold || typeof r.question !== 'string' || !Array.isArray(r.answers)) {
      this.unknown++;
      return;
    }
    const got = (r.answers as { value?: unknown }[]).map((x) => String(x.value));
    this.judged++;
    if (sameAnswers(got, gold)) this.right++;
    const key = [...new Set(got)].sort().join('\n');
    const first = this.seen.get(r.question);
    if (first === undefined) this.seen.set(r.question, key);
    else if (first !== key) this.differ++;
  }

  /** The counts since the last call (per row), the answers seen kept. */
  take(): { judged: number; right: number; unknown: number; differ: number } {
    const out = { judged: this.judged, right: this.right, unknown: this.unknown, differ: this.differ };
    this.judged = this.right = this.unknown = this.differ = 0;
    return out;
  }
}

/** One load run: n replicas behind nginx. */
interface Row {
  replicas: number;
  rps: number;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  responses: number;
  non2xx: number;
  errors: number;
  cpuS: { replicas: number; nginx: number; virtuoso: number; bench: number; machine: number };
  cores: number;
  seconds: number;
  /** 1-minute load average at the end of the run. */
  load: number;
  /** Peak RSS of each replica so far, MiB. */
  rssMiB: number[];
  /** --questions large: the 2xx responses checked against the gold answers. */
  answers?: { judged: number; right: number; unknown: number; differ: number };
}

async function main(): Promise<void> {
  const args = await parseArgs(process.argv.slice(2));
  const counts = args.replicas.split(',').map(Number).filter((n) => n >= 1);
  const max = Math.max(...counts);
  const autocannon = loadAutocannon();
  const set = await questionSet(args);
  const qs = set.questions;
  if (qs.length === 0) throw new Error('no questions');
  const check = set.gold ? new AnswerCheck(set.gold) : undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-bench-replicas-'));
  fs.chmodSync(dir, 0o755); // nginx's worker runs as nobody
  const replicas: { child: ChildProcess; port: number; url: string }[] = [];
  let nginx: ChildProcess | undefined;
  const rows: Row[] = [];
  try {
    for (let i = 0; i < max; i++) {
      const port = await freePort();
      const log = fs.openSync(path.join(dir, `replica-${i}.log`), 'w');
      const child = spawn(process.execPath, [path.join(packageRoot(), 'bin', 'askgraph.js'), 'serve', '--port', String(port), '--host', '127.0.0.1', '--store', args.pack ?? args.endpoint], {
        env: {
          ...process.env,
          ASKGRAPH_CACHE_MAX: args.cache ? '1000' : '0',
          ASKGRAPH_RATE_LIMIT_PER_MINUTE: '0',
          ASKGRAPH_ASK_PER_CLIENT: '100000',
          ASKGRAPH_TRUST_PROXY: 'loopback',
          // an endpoint URL: one cache folder for all replicas; a pack: its own DIR/.cache (ASKGRAPH_CACHE_DIR is not read)
          ...(args.pack === undefined ? { ASKGRAPH_CACHE_DIR: path.join(dir, 'shared-cache') } : {}),
          ASKGRAPH_LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', log, log],
      });
      const url = `http://127.0.0.1:${port}`;
      const t0 = Date.now();
      await waitHealthy(url, READY_MS, child);
      process.stderr.write(`bench-replicas: replica ${i + 1} ready on ${url} in ${((Date.now() - t0) / 1000).toFixed(1)} s, peak RSS ${peakRssMiB(defined(child.pid, 'replica pid'))} MiB (log ${dir}/replica-${i}.log)\n`);
      replicas.push({ child, port, url });
      // warm-up: the ONNX session and the JIT (the answer cache is off, so this does not serve answers later)
      for (const q of qs.slice(0, 20)) await fetch(url + '/v1/ask', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ question: q }) });
    }
    for (const n of counts) {
      const port = await freePort();
      const conf = path.join(dir, `nginx-${n}.conf`);
      fs.writeFileSync(conf, nginxConfig(dir, port, replicas.slice(0, n).map((r) => r.port)));
      nginx = spawn('nginx', ['-p', dir, '-c', conf, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'inherit'] });
      const lb = `http://127.0.0.1:${port}`;
      await waitHealthy(lb, 10_000, nginx);
      let next = 0;
      const ask = {
        method: 'POST',
        path: '/v1/ask',
        headers: { 'content-type': 'application/json' },
        setupRequest: (req: Record<string, unknown>) => ({ ...req, body: JSON.stringify({ question: qs[next++ % qs.length] }) }),
        ...(check ? { onResponse: (status: number, body: string) => (status >= 200 && status < 300 ? check.record(body) : undefined) } : {}),
      };
      const parts = { replicas: replicas.slice(0, n).map((r) => defined(r.child.pid, 'replica pid')), nginx: [defined(nginx.pid, 'nginx pid')], virtuoso: virtuosoPid() };
      const cpu = () => ({
        replicas: parts.replicas.flatMap(tree).reduce((s, p) => s + cpuOf(p), 0),
        nginx: parts.nginx.flatMap(tree).reduce((s, p) => s + cpuOf(p), 0),
        virtuoso: parts.virtuoso ? cpuOf(parts.virtuoso) : 0,
        bench: cpuOf(process.pid),
        machine: machineBusy(),
      });
      const c0 = cpu();
      const times: number[] = [];
      const r = await new Promise<AutocannonResult>((resolve, reject) => {
        const inst = autocannon({ url: lb, connections: args.connections, duration: args.duration, timeout: 60, requests: [ask] }, (err, result) => (err ? reject(err) : resolve(result)));
        inst.on('response', (_c: unknown, _s: number, _b: number, ms: number) => times.push(ms));
      });
      const c1 = cpu();
      times.sort((a, b) => a - b);
      const pct = (p: number) => {
        const v = percentile(times, p);
        return v === null ? null : Math.round(v);
      };
      const d = (k: keyof ReturnType<typeof cpu>) => +(c1[k] - c0[k]).toFixed(1);
      const secs = r.duration;
      const row: Row = {
        replicas: n,
        rps: +(r.requests.total / secs).toFixed(1),
        p50: pct(50),
        p95: pct(95),
        p99: pct(99),
        responses: times.length,
        non2xx: r.non2xx,
        errors: r.errors + r.timeouts,
        cpuS: { replicas: d('replicas'), nginx: d('nginx'), virtuoso: d('virtuoso'), bench: d('bench'), machine: d('machine') },
        cores: os.cpus().length,
        seconds: secs,
        load: +(os.loadavg()[0] ?? 0).toFixed(1),
        rssMiB: parts.replicas.map(peakRssMiB),
        ...(check ? { answers: check.take() } : {}),
      };
      rows.push(row);
      process.stderr.write(`bench-replicas: ${JSON.stringify(row)}\n`);
      await stop(nginx);
      nginx = undefined;
    }
    const base = rows[0]?.rps;
    if (args.json) process.stdout.write(JSON.stringify({ endpoint: args.endpoint, pack: args.pack, questions: args.questions, count: qs.length, connections: args.connections, cache: args.cache, rows }, null, 2) + '\n');
    else {
      const right = (w: Row) => (w.answers ? `${((100 * w.answers.right) / Math.max(1, w.answers.judged)).toFixed(1)}% of ${w.answers.judged}${w.answers.differ ? `, ${w.answers.differ} differ` : ''}${w.answers.unknown ? `, ${w.answers.unknown} unread` : ''}` : '–');
      const lines = [
        `${args.pack ? `pack ${args.pack}, ` : ''}endpoint ${args.endpoint}; ${qs.length} ${args.questions} questions; ${args.connections} connections, ${args.duration} s each, answer cache ${args.cache ? 'on' : 'off'}; ${os.cpus().length} cores`,
        '| replicas | req/s | × | p50 ms | p95 ms | p99 ms | non-2xx | right | CPU s: replicas | nginx | Virtuoso | autocannon | machine (all processes) | load | replica peak RSS MiB |',
        '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
        ...rows.map((w) =>
          [w.replicas, w.rps, base ? (w.rps / base).toFixed(2) : '', w.p50, w.p95, w.p99, w.non2xx + w.errors, right(w), w.cpuS.replicas, w.cpuS.nginx, w.cpuS.virtuoso, w.cpuS.bench, `${w.cpuS.machine} of ${w.cores * w.seconds}`, w.load, w.rssMiB.join(', ')]
            .join(' | ')
            .replace(/^/, '| ') + ' |',
        ),
      ];
      process.stdout.write(lines.join('\n') + '\n');
    }
  } finally {
    await stop(nginx);
    for (const r of replicas) await stop(r.child);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`bench-replicas: ${(e as Error).message}\n`);
  process.exitCode = 2;
});
