/**
 * Soak test of issue 15: hostile /sparql traffic mixed with questions. Starts the real server
 * (`askgraph serve`, embedded movies store) as a child process on 127.0.0.1 (or targets a loopback
 * --url), then for --duration seconds (bounded, ≤ 600) runs
 *  - --hostile loops sending, in turn: a cartesian COUNT (?timeout=60000), CONSTRUCT of the whole graph
 *    as N-Triples, 1,000 nested groups, 5,000 patterns, deep-and-long queries just under the limits,
 *    SERVICE, FROM, an update, a gzip body that is not gzip, a 100 KB header;
 *  - --askers loops asking MetaQA validation questions (answer cache off) and checking the first answer
 *    against the gold answers;
 *  - a /healthz probe every 250 ms.
 * Prints the answer rate and latency of the questions (p50/p95/p99/max), the count of 200s without
 * answers, 5xx, /healthz's worst latency, the hostile requests by status, store restarts, and whether
 * the server process is alive at the end.
 *
 *   npx tsx scripts/soak-sparql.ts [--duration 60] [--hostile 2] [--askers 2] [--url http://127.0.0.1:PORT] [--json]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { itemAt, packageRoot, percentile } from '../src/core';
import { checkLoopbackUrl, freePort, validationQuestions } from './loopback';

interface Args {
  duration: number;
  hostile: number;
  askers: number;
  url?: string;
  json: boolean;
}

function parseArgs(argv: string[]): Args {
  const a: Args = { duration: 60, hostile: 2, askers: 2, json: false };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const v = () => {
      const x = argv[++i];
      if (x === undefined) throw new Error(`${k} needs a value`);
      return x;
    };
    if (k === '--duration') a.duration = Math.min(600, Math.max(5, Number(v())));
    else if (k === '--hostile') a.hostile = Math.min(16, Math.max(0, Number(v())));
    else if (k === '--askers') a.askers = Math.min(16, Math.max(1, Number(v())));
    else if (k === '--url') a.url = v();
    else if (k === '--json') a.json = true;
    else throw new Error(`unknown option ${k}`);
  }
  checkLoopbackUrl(a.url);
  return a;
}


function serveCommand(port: number): { cmd: string; args: string[] } {
  const root = packageRoot();
  const args = ['serve', '--port', String(port), '--host', '127.0.0.1'];
  if (__filename.endsWith('.ts')) return { cmd: process.execPath, args: ['--require', require.resolve('tsx/cjs'), path.join(root, 'src', 'cli', 'dev.ts'), ...args] };
  return { cmd: process.execPath, args: [path.join(root, 'bin', 'askgraph.js'), ...args] };
}

interface Question {
  question: string;
  answers: string[];
}


const E = 'http://askgraph.dev/movies/entity/';
const unit = '{'.repeat(45) + '?s ?p ?o' + '}'.repeat(45);
let deepLong = 'SELECT * WHERE { ';
while (deepLong.length < 31_000) deepLong += unit + ' UNION ';
deepLong += unit + ' } LIMIT 1';

interface Attack {
  name: string;
  send: (url: string) => Promise<number>;
}

function form(query: string, extra: Record<string, string> = {}): RequestInit {
  return { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...extra }, body: 'query=' + encodeURIComponent(query) };
}

async function status(url: string, init?: RequestInit): Promise<number> {
  const r = await fetch(url, { ...init, signal: AbortSignal.timeout(90_000) });
  await r.arrayBuffer();
  return r.status;
}

function rawStatus(port: number, request: string): Promise<number> {
  return new Promise((resolve) => {
    const sock = net.connect(port, '127.0.0.1');
    let data = '';
    sock.on('data', (d) => (data += d.toString('latin1')));
    sock.on('error', () => resolve(0));
    sock.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d+)/.exec(data)?.[1] ?? 0)));
    sock.write(request);
  });
}

const ATTACKS: Attack[] = [
  { name: 'cartesian ?timeout=60000', send: (u) => status(u + '/sparql?timeout=60000', form('SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f }')) },
  { name: 'CONSTRUCT all as N-Triples', send: (u) => status(u + '/sparql', form('CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }', { accept: 'application/n-triples' })) },
  { name: '1,000 nested groups', send: (u) => status(u + '/sparql', form('SELECT * WHERE ' + '{'.repeat(1000) + ' ?s ?p ?o ' + '}'.repeat(1000))) },
  {
    name: '5,000 patterns',
    send: (u) => status(u + '/sparql', { method: 'POST', headers: { 'content-type': 'application/sparql-query' }, body: 'SELECT * WHERE { ' + Array.from({ length: 5000 }, (_, i) => `?v${i} ?p ?o.`).join('') + ' }' }),
  },
  { name: 'deep and long (31 KB, depth 45)', send: (u) => status(u + '/sparql', { method: 'POST', headers: { 'content-type': 'application/sparql-query' }, body: deepLong }) },
  { name: 'SERVICE', send: (u) => status(u + '/sparql', form('SELECT * WHERE { SERVICE <http://169.254.169.254/> { ?s ?p ?o } }')) },
  { name: 'FROM another graph', send: (u) => status(u + '/sparql', form('SELECT (COUNT(*) AS ?n) FROM <http://example.org/g> WHERE { ?s ?p ?o }')) },
  { name: 'update', send: (u) => status(u + '/sparql', { method: 'POST', headers: { 'content-type': 'application/sparql-update' }, body: `DELETE WHERE { <${E}Heat> ?p ?o }` }) },
  { name: 'gzip body that is not gzip', send: (u) => status(u + '/sparql', form('ASK {}', { 'content-encoding': 'gzip' })) },
  { name: '100 KB header', send: (u) => rawStatus(Number(new URL(u).port), `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(100_000)}\r\n\r\n`) },
];

function pct(xs: number[], p: number): number {
  return percentile(xs, p) ?? NaN;
}

async function waitHealthy(url: string, ms: number, child?: ChildProcess): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (child && child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(url + '/healthz')).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server at ${url} not healthy after ${ms} ms`);
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const qs: Question[] = validationQuestions();
  let child: ChildProcess | undefined;
  let url = args.url?.replace(/\/$/, '');
  const logFile = path.join(os.tmpdir(), 'askgraph-soak-server.log');
  if (!url) {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const { cmd, args: cargs } = serveCommand(port);
    const log = fs.openSync(logFile, 'w');
    child = spawn(cmd, cargs, {
      // one client address plays every attacker: no rate limit, and a per-client share large enough that
      // the hostile queries reach the checker and the store instead of being refused with 429
      env: { ...process.env, ASKGRAPH_CACHE_MAX: '0', ASKGRAPH_RATE_LIMIT_PER_MINUTE: '0', ASKGRAPH_SPARQL_PER_CLIENT: '64', ASKGRAPH_LOG_LEVEL: 'warn' },
      stdio: ['ignore', log, log],
    });
    process.stderr.write(`soak: starting the server on ${url} (log ${logFile})\n`);
  }
  const base = url;
  let exitedDuring: string | undefined;
  child?.on('exit', (code, signal) => (exitedDuring = `exited (${signal ?? code})`));
  try {
    await waitHealthy(base, 180_000, child);
    await fetch(base + '/v1/ask?question=' + encodeURIComponent(itemAt(qs, 0, 'validation questions').question)); // warm-up
    const end = Date.now() + args.duration * 1000;
    const hostile: Record<string, Record<string, number>> = {};
    const q = { n: 0, right: 0, wrongAnswer: 0, emptyOk: 0, errors: {} as Record<string, number>, ms: [] as number[] };
    const health: number[] = [];
    let healthFailures = 0;
    let seed = 4242;
    const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);

    const record = async (a: Attack) => {
      let st: string;
      try {
        st = String(await a.send(base));
      } catch {
        st = 'network error';
      }
      const counts = (hostile[a.name] ??= {});
      counts[st] = (counts[st] ?? 0) + 1;
    };
    // each loop keeps one cartesian query running (never waits for it) and sends the other attacks one after the other
    const pending: Promise<void>[] = [];
    const hostileLoop = async (offset: number) => {
      let cartesian: Promise<void> | undefined;
      for (let i = offset; Date.now() < end; i++) {
        const a = itemAt(ATTACKS, i % ATTACKS.length, 'attacks');
        if (a === ATTACKS[0]) {
          if (!cartesian) {
            cartesian = record(a).finally(() => (cartesian = undefined));
            pending.push(cartesian);
          }
          continue;
        }
        await record(a);
      }
    };
    const askLoop = async () => {
      while (Date.now() < end) {
        const item = itemAt(qs, Math.floor(rand() * qs.length), 'validation questions');
        const t0 = performance.now();
        try {
          const r = await fetch(base + '/v1/ask', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ question: item.question }),
            signal: AbortSignal.timeout(60_000),
          });
          const body = (await r.json()) as { answers?: { label: string | null; value: string }[]; error?: { code: string } };
          q.ms.push(performance.now() - t0);
          q.n++;
          if (r.status === 200) {
            const first = body.answers?.[0];
            if (!first) q.emptyOk++;
            else if (item.answers.includes(first.label ?? first.value)) q.right++;
            else q.wrongAnswer++;
          } else {
            const k = `${r.status} ${body.error?.code ?? ''}`;
            q.errors[k] = (q.errors[k] ?? 0) + 1;
          }
        } catch {
          q.n++;
          q.ms.push(performance.now() - t0);
          q.errors['network error'] = (q.errors['network error'] ?? 0) + 1;
        }
      }
    };
    const healthLoop = async () => {
      while (Date.now() < end) {
        const t0 = performance.now();
        try {
          const r = await fetch(base + '/healthz', { signal: AbortSignal.timeout(10_000) });
          await r.arrayBuffer();
          if (!r.ok) healthFailures++;
        } catch {
          healthFailures++;
        }
        health.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, 250));
      }
    };
    process.stderr.write(`soak: ${args.duration} s, ${args.hostile} hostile loops, ${args.askers} askers, /healthz every 250 ms\n`);
    await Promise.all([
      ...Array.from({ length: args.hostile }, (_, i) => hostileLoop(i * 3)),
      ...Array.from({ length: args.askers }, () => askLoop()),
      healthLoop(),
    ]);
    await Promise.all(pending);
    let final: { storeProcesses?: unknown } | null | undefined;
    try {
      final = (await (await fetch(base + '/healthz')).json()) as { storeProcesses?: unknown } | null;
    } catch {
      final = undefined;
    }
    const result = {
      durationSeconds: args.duration,
      questions: {
        asked: q.n,
        right: q.right,
        answerRate: q.n ? q.right / q.n : 0,
        wrongFirstAnswer: q.wrongAnswer,
        ok200WithoutAnswers: q.emptyOk,
        errors: q.errors,
        latencyMs: { p50: pct(q.ms, 50), p95: pct(q.ms, 95), p99: pct(q.ms, 99), max: Math.max(...q.ms) },
      },
      healthz: { probes: health.length, failures: healthFailures, maxMs: Math.max(...health), p99Ms: pct(health, 99) },
      hostile,
      storeProcesses: final?.storeProcesses,
      serverAlive: child ? child.exitCode === null && !exitedDuring : final !== undefined,
      ...(exitedDuring ? { serverExit: exitedDuring } : {}),
    };
    if (args.json) process.stdout.write(JSON.stringify(result, null, 2) + '\n');
    else {
      const r1 = (x: number) => Math.round(x * 10) / 10;
      const l = result.questions.latencyMs;
      process.stdout.write(
        [
          `questions: ${q.n} asked, ${q.right} right (answer rate ${(result.questions.answerRate * 100).toFixed(1)}%), ${q.wrongAnswer} wrong first answer, ${q.emptyOk} 200 without answers, errors ${JSON.stringify(q.errors)}`,
          `question latency ms: p50 ${r1(l.p50)}, p95 ${r1(l.p95)}, p99 ${r1(l.p99)}, max ${r1(l.max)}`,
          `healthz: ${health.length} probes, ${healthFailures} failed, max ${r1(result.healthz.maxMs)} ms, p99 ${r1(result.healthz.p99Ms)} ms`,
          'hostile requests by status:',
          ...Object.entries(hostile).map(([k, v]) => `  ${k}: ${JSON.stringify(v)}`),
          `store processes: ${JSON.stringify(result.storeProcesses)}`,
          `server alive at the end: ${result.serverAlive}${exitedDuring ? ' (' + exitedDuring + ')' : ''}`,
        ].join('\n') + '\n',
      );
    }
    if (!result.serverAlive) process.exitCode = 1;
  } finally {
    const server = child;
    if (server?.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    }
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`soak: ${(e as Error).message}\n`);
  process.exitCode = 1;
});
