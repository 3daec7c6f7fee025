/**
 * Soak test of issue 22 (items 2, 3, 7): askgraph in REMOTE mode over a loopback SPARQL endpoint
 * (Virtuoso with the movies graph: scripts/virtuoso.sh, graph http://askgraph.dev/test/movies) under
 * hostile traffic, for --minutes (default 10, at most 30; it stops by itself). Starts `askgraph serve
 * --store <endpoint>` on a free loopback port (answer cache off, rate limit off, API keys so that each
 * client is one client), or targets a loopback --url started with the same keys.
 *  1. quiet: the well-behaved clients' questions (MetaQA validation) are asked once with nothing else
 *     running; their answers are recorded;
 *  2. then, for the duration, at once:
 *     - hostile /sparql from 2 clients: cartesian COUNTs, deeply nested groups (just under the depth
 *       limit), CONCAT-bloated SELECT … LIMIT 1000;
 *     - /v1/ask options abuse from the same 2 clients: queryTimeoutMs 1; the largest beam / attempts /
 *       best-of / candidate counts the server allows; options above its ceilings;
 *     - 2 well-behaved clients asking the quiet questions, each answer compared with its quiet one;
 *     - a /healthz probe every second.
 * Prints the wrong answers seen by the well-behaved clients (a 200 whose answers differ from the quiet
 * ones), their 504s (count, and the minutes in which any was seen), other failures, their latency, the
 * hostile requests by status, /healthz's states, and whether the server stayed up.
 *
 *   npx tsx scripts/soak-remote.ts [--minutes 10] [--endpoint URL] [--questions 40] [--url http://127.0.0.1:PORT] [--json]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { defined, itemAt, packageRoot } from '../src/core';
import { checkLoopbackUrl, freePort, validationQuestions } from './loopback';

const KEYS = { good1: 'soak-good-client-1', good2: 'soak-good-client-2', bad1: 'soak-hostile-client-1', bad2: 'soak-hostile-client-2' };
const GRAPH = 'http://askgraph.dev/test/movies';

interface Args {
  minutes: number;
  endpoint: string;
  questions: number;
  url?: string;
  json: boolean;
}

function parseArgs(argv: string[]): Args {
  const port = process.env.VIRTUOSO_HTTP_PORT ?? '8890';
  const a: Args = { minutes: 10, endpoint: `http://127.0.0.1:${port}/sparql?default-graph-uri=${encodeURIComponent(GRAPH)}`, questions: 40, json: false };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const v = () => {
      const x = argv[++i];
      if (x === undefined) throw new Error(`${k} needs a value`);
      return x;
    };
    if (k === '--minutes') a.minutes = Math.min(30, Math.max(0.25, Number(v())));
    else if (k === '--endpoint') a.endpoint = v();
    else if (k === '--questions') a.questions = Math.min(500, Math.max(1, Number(v())));
    else if (k === '--url') a.url = v();
    else if (k === '--json') a.json = true;
    else throw new Error(`unknown option ${k}`);
  }
  if (!Number.isFinite(a.minutes)) throw new Error('--minutes must be a number');
  checkLoopbackUrl(a.url);
  if (!/^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?\//.test(a.endpoint)) throw new Error('--endpoint must be a loopback http URL');
  return a;
}

function serveCommand(port: number, endpoint: string): { cmd: string; args: string[] } {
  const root = packageRoot();
  const args = ['serve', '--port', String(port), '--host', '127.0.0.1', '--store', endpoint];
  if (__filename.endsWith('.ts')) return { cmd: process.execPath, args: ['--require', require.resolve('tsx/cjs'), path.join(root, 'src', 'cli', 'dev.ts'), ...args] };
  return { cmd: process.execPath, args: [path.join(root, 'bin', 'askgraph.js'), ...args] };
}

async function waitHealthy(url: string, ms: number, child?: ChildProcess): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (child && child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`);
    try {
      const r = await fetch(url + '/healthz', { signal: AbortSignal.timeout(2000) });
      if (r.status === 200) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`server not healthy after ${ms} ms`);
}

interface Reply {
  status: number;
  /** The parsed JSON, or the text where it is not JSON (or the fetch error). */
  body: unknown;
  ms: number;
}

/** What the script reads of a reply body. */
interface ReplyFields {
  answers?: { value: string; label: string | null }[];
  error?: { code?: string };
  status?: unknown;
}

/** The fields of a JSON object body; none for a text or null body. */
function fieldsOf(body: unknown): ReplyFields {
  return typeof body === 'object' && body !== null ? body : {};
}

async function call(url: string, key: string, init: RequestInit = {}): Promise<Reply> {
  const t0 = Date.now();
  try {
    const r = await fetch(url, { ...init, headers: { ...(init.headers as Record<string, string>), 'x-api-key': key }, signal: AbortSignal.timeout(90_000) });
    const text = await r.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: r.status, body, ms: Date.now() - t0 };
  } catch (e) {
    return { status: 0, body: String(e), ms: Date.now() - t0 };
  }
}

function ask(base: string, key: string, question: string, options?: Record<string, unknown>): Promise<Reply> {
  return call(base + '/v1/ask', key, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ question, ...(options ? { options } : {}) }) });
}

function sparql(base: string, key: string, query: string): Promise<Reply> {
  return call(base + '/sparql', key, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/sparql-results+json' }, body: 'query=' + encodeURIComponent(query) });
}

const answerKey = (body: unknown): string => JSON.stringify((fieldsOf(body).answers ?? []).map((a) => `${a.value} ${String(a.label)}`).sort());

const nested = (depth: number) => 'SELECT * WHERE ' + '{ '.repeat(depth) + '?s ?p ?o' + ' }'.repeat(depth) + ' LIMIT 1';
const HOSTILE_SPARQL: { name: string; query: string }[] = [
  { name: 'cartesian-count', query: 'SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }' },
  { name: 'deep-nesting', query: nested(44) },
  { name: 'bloated-concat', query: `SELECT ?s (CONCAT(${Array.from({ length: 200 }, () => 'STR(?s), STR(?o)').join(', ')}) AS ?big) WHERE { ?s ?p ?o } LIMIT 1000` },
];
const ABUSIVE_OPTIONS: { name: string; options: Record<string, unknown> }[] = [
  { name: 'queryTimeoutMs-1', options: { queryTimeoutMs: 1 } },
  { name: 'queryTimeoutMs-20-full-beam', options: { queryTimeoutMs: 20, adaptiveBeam: false } },
  { name: 'max-allowed', options: { beam: 16, maxAttempts: 48, bestOf: 5, strategy: 'best-of-n', adaptiveBeam: false, kE: 100, kR: 100, k1: 100, k2: 100, timeoutMs: 30_000 } },
  { name: 'above-ceilings', options: { beam: 32, maxAttempts: 1000, k2: 10_000 } },
];

function pct(xs: number[], p: number): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return itemAt(s, Math.min(s.length - 1, Math.floor((p / 100) * s.length)), 'sorted latencies');
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  let base = args.url?.replace(/\/$/, '');
  let child: ChildProcess | undefined;
  const logFile = path.join(os.tmpdir(), 'askgraph-soak-remote-server.log');
  if (!base) {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const { cmd, args: cargs } = serveCommand(port, args.endpoint);
    const log = fs.openSync(logFile, 'w');
    child = spawn(cmd, cargs, {
      env: {
        ...process.env,
        ASKGRAPH_CACHE_MAX: '0',
        ASKGRAPH_RATE_LIMIT_PER_MINUTE: '0',
        ASKGRAPH_API_KEYS: Object.values(KEYS).join(','),
        ASKGRAPH_LOG_LEVEL: process.env.ASKGRAPH_LOG_LEVEL ?? 'warn',
      },
      stdio: ['ignore', log, log],
    });
    process.stderr.write(`soak-remote: server ${base} over ${args.endpoint} (log ${logFile})\n`);
  }
  const baseUrl = base;
  let exitedDuring: string | undefined;
  child?.on('exit', (code, signal) => (exitedDuring = `exited (${signal ?? code})`));
  try {
    await waitHealthy(base, 300_000, child);
    // 1. quiet answers
    const questions = validationQuestions()
      .slice(0, args.questions)
      .map((q) => q.question);
    const quiet = new Map<string, string>();
    for (const q of questions) {
      const r = await ask(base, KEYS.good1, q);
      if (r.status === 200) quiet.set(q, answerKey(r.body));
    }
    process.stderr.write(`soak-remote: ${quiet.size} of ${questions.length} questions answered quietly (200); the others are not compared\n`);
    const compared = [...quiet.keys()];

    // 2. the soak
    const t0 = Date.now();
    const end = t0 + args.minutes * 60_000;
    const running = () => Date.now() < end;
    const wrong: { question: string; quiet: string; got: string; at: number }[] = [];
    const good = { asks: 0, ok: 0, t504: 0, other: {} as Record<string, number>, ms: [] as number[], minutes504: new Set<number>() };
    const hostile: Record<string, Record<number, number>> = {};
    const health: Record<string, number> = {};
    const tally = (name: string, status: number) => ((hostile[name] ??= {})[status] = (hostile[name][status] ?? 0) + 1);

    const wellBehaved = async (key: string, offset: number) => {
      for (let i = offset; running(); i++) {
        const q = compared[i % compared.length];
        if (q === undefined) break; // no question was answered quietly: nothing to compare
        const r = await ask(baseUrl, key, q);
        good.asks++;
        good.ms.push(r.ms);
        if (r.status === 200) {
          good.ok++;
          const got = answerKey(r.body);
          const want = defined(quiet.get(q), 'the quiet answer of a compared question');
          if (got !== want) wrong.push({ question: q, quiet: want, got, at: Math.round((Date.now() - t0) / 1000) });
        } else if (r.status === 504) {
          good.t504++;
          good.minutes504.add(Math.floor((Date.now() - t0) / 60_000));
        } else {
          const code = `${r.status} ${fieldsOf(r.body).error?.code ?? ''}`.trim();
          good.other[code] = (good.other[code] ?? 0) + 1;
        }
      }
    };
    const hostileSparql = async (key: string, offset: number) => {
      for (let i = offset; running(); i++) {
        const h = itemAt(HOSTILE_SPARQL, i % HOSTILE_SPARQL.length, 'hostile queries');
        tally('sparql:' + h.name, (await sparql(baseUrl, key, h.query)).status);
      }
    };
    const abusiveAsks = async (key: string, offset: number) => {
      for (let i = offset; running(); i++) {
        const a = itemAt(ABUSIVE_OPTIONS, i % ABUSIVE_OPTIONS.length, 'abusive options');
        tally('ask:' + a.name, (await ask(baseUrl, key, compared[i % compared.length] ?? 'who directed Jaws', a.options)).status);
      }
    };
    const probe = async () => {
      while (running()) {
        const r = await call(baseUrl + '/healthz', KEYS.good1);
        const s = r.status === 200 ? String(fieldsOf(r.body).status) : `HTTP ${r.status}`;
        health[s] = (health[s] ?? 0) + 1;
        await new Promise((res) => setTimeout(res, 1000));
      }
    };
    await Promise.all([
      wellBehaved(KEYS.good1, 0),
      wellBehaved(KEYS.good2, Math.floor(compared.length / 2)),
      hostileSparql(KEYS.bad1, 0),
      hostileSparql(KEYS.bad2, 1),
      abusiveAsks(KEYS.bad1, 0),
      abusiveAsks(KEYS.bad2, 2),
      probe(),
    ]);
    const final = await call(base + '/healthz', KEYS.good1);
    const result = {
      minutes: args.minutes,
      endpoint: args.endpoint,
      questionsCompared: compared.length,
      wellBehaved: {
        asks: good.asks,
        ok: good.ok,
        wrongAnswers: wrong.length,
        timeouts504: good.t504,
        minutesWith504: [...good.minutes504].sort((a, b) => a - b),
        otherFailures: good.other,
        p50ms: pct(good.ms, 50),
        p95ms: pct(good.ms, 95),
        maxms: pct(good.ms, 100),
      },
      wrong: wrong.slice(0, 20),
      hostile,
      healthz: health,
      serverAlive: child ? child.exitCode === null && !exitedDuring : final.status === 200,
      ...(exitedDuring ? { serverExit: exitedDuring } : {}),
    };
    if (args.json) process.stdout.write(JSON.stringify(result, null, 2) + '\n');
    else {
      const w = result.wellBehaved;
      process.stdout.write(
        [
          `soak-remote: ${args.minutes} min in remote mode over ${args.endpoint}`,
          `well-behaved clients: ${w.asks} asks, ${w.ok} 200, ${w.wrongAnswers} wrong answers, ${w.timeouts504} 504s (in minutes ${JSON.stringify(w.minutesWith504)} of the run), other failures ${JSON.stringify(w.otherFailures)}`,
          `  latency p50 ${w.p50ms} ms, p95 ${w.p95ms} ms, max ${w.maxms} ms`,
          ...wrong.slice(0, 20).map((x) => `  WRONG at ${x.at} s: ${x.question}\n    quiet: ${x.quiet.slice(0, 200)}\n    got:   ${x.got.slice(0, 200)}`),
          `hostile requests by status: ${JSON.stringify(hostile)}`,
          `/healthz: ${JSON.stringify(health)}`,
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
  process.stderr.write(`soak-remote: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
});
