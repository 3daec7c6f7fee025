/**
 * Options as a weapon (issue 22, item 3): per-request options may only narrow the caller's own work.
 *  - a tiny queryTimeoutMs must not make the pipeline's shared store process restart (before: every timed-out
 *    query killed it and reloaded the store, so other users' questions failed or got worse answers);
 *  - options above the server's ceilings (config `ask`) are 400, and one client's asks in flight are capped.
 * REAL server, REAL pipeline and REAL Oxigraph store process (embedded movies pack); MOCK generator (the
 * parser model is trained separately).
 */
import { strict as assert } from 'node:assert';
import { OxigraphExecutor } from '../../src/execute';
import type { Gateway } from '../../src/pipeline';
import type { RunningServer } from '../../src/serve';
import { answersOf, moviesGatewayWithMockGenerator, postJson, recordedGateway, startTestServer } from './serve-helpers';
import { closeAll } from '../helpers/close-all';

const QUESTIONS = ['who directed Jaws', 'who starred in Big', 'who directed Alien', 'who starred in Heat'];
const GOOD = { 'x-api-key': 'good-client-key-1' };
const BAD1 = { 'x-api-key': 'abusive-client-key-1' };
const BAD2 = { 'x-api-key': 'abusive-client-key-2' };

describe('serve: per-request options cannot restart the shared store or take more than a bounded share (REAL pipeline + Oxigraph store process, MOCK generator)', function () {
  this.timeout(180_000);
  let gateway: Gateway;
  let server: RunningServer;
  const quiet = new Map<string, string[]>();

  before(async () => {
    gateway = await moviesGatewayWithMockGenerator();
    server = await startTestServer(gateway, { apiKeys: [GOOD['x-api-key'], BAD1['x-api-key'], BAD2['x-api-key']], cache: { max: 0 } });
    for (const q of QUESTIONS) {
      const r = await postJson(server.url + '/v1/ask', { question: q }, GOOD);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.ok(r.body.answers.length > 0, q);
      quiet.set(q, answersOf(r.body));
    }
  });
  after(async () => {
    await closeAll(server, gateway);
  });

  it('asks with queryTimeoutMs 1 from two clients do not restart the pipeline store; a well-behaved client gets its quiet answers meanwhile', async () => {
    const ex = gateway.executor;
    assert.ok(ex instanceof OxigraphExecutor, 'the gateway runs the embedded store in its worker');
    await ex.whenReady();
    const gen0 = ex.generation;
    const attack = { running: true };
    let timedOut = 0;
    const abuse = async (headers: Record<string, string>) => {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const q = QUESTIONS[i % QUESTIONS.length];
        const r = await postJson(server.url + '/v1/ask', { question: q, options: { queryTimeoutMs: 1, adaptiveBeam: false } }, headers);
        statuses.push(r.status);
        const trace: { stage: string; code?: string; error?: { code?: string } }[] = r.body.trace ?? r.body.error?.details?.trace ?? [];
        timedOut += trace.filter((t) => t.stage === 'execute' && (t.error?.code ?? t.code) === 'QUERY_TIMEOUT').length;
      }
      return statuses;
    };
    const attackers = Promise.all([abuse(BAD1), abuse(BAD1), abuse(BAD2), abuse(BAD2)]).finally(() => (attack.running = false));
    const good: { q: string; status: number; answers?: string[]; body: string }[] = [];
    do {
      for (const q of QUESTIONS) {
        const r = await postJson(server.url + '/v1/ask', { question: q }, GOOD);
        good.push({ q, status: r.status, answers: r.status === 200 ? answersOf(r.body) : undefined, body: JSON.stringify(r.body).slice(0, 300) });
      }
    } while (attack.running);
    const statuses = (await attackers).flat();
    // the attackers' own questions time out (or are answered): never a server failure of another kind
    assert.ok(statuses.every((s) => s === 504 || s === 200), statuses.join(','));
    assert.ok(timedOut > 0, 'queries with a 1 ms timeout time out');
    assert.equal(ex.generation, gen0, `the pipeline store process was restarted ${ex.generation - gen0} times`);
    for (const g of good) {
      assert.equal(g.status, 200, `${g.q}: ${g.body}`);
      assert.deepEqual(g.answers, quiet.get(g.q), g.q);
    }
  });

  it('tuned asks (options wider than the defaults) hold at most ask.tunedConcurrency pipeline slots: a default ask is not queued behind them', async () => {
    const keys = ['tuned-client-key-1', 'tuned-client-key-2', 'tuned-client-key-3'];
    const slow = recordedGateway(gateway);
    slow.delayMs = 1500; // a slow pipeline, so the asks overlap
    const one = await startTestServer(slow, { apiKeys: [GOOD['x-api-key'], ...keys], cache: { max: 0 }, concurrency: { asks: 2, queue: 100 } });
    try {
      const done: string[] = [];
      const tunedAsks = keys.map((k, i) =>
        postJson(one.url + '/v1/ask', { question: QUESTIONS[i], options: { beam: 8, adaptiveBeam: false } }, { 'x-api-key': k }).then((r) => {
          done.push('tuned');
          return r;
        }),
      );
      await new Promise((r) => setTimeout(r, 300));
      const plain = await postJson(one.url + '/v1/ask', { question: QUESTIONS[3] }, GOOD);
      done.push('default');
      assert.equal(plain.status, 200, JSON.stringify(plain.body));
      assert.deepEqual(answersOf(plain.body), quiet.get(QUESTIONS[3]!));
      const rs = await Promise.all(tunedAsks);
      assert.deepEqual(rs.map((r) => r.status), [200, 200, 200]);
      // with 2 slots shared first come first served, the default ask waited for the third tuned one
      assert.ok(done.indexOf('default') < 2, `completion order: ${done.join(', ')}`);
    } finally {
      await one.close();
    }
  });

  it('options above the server ceilings are 400 BAD_REQUEST naming the setting; a client over its asks in flight is 429, others are served', async () => {
    const big = await postJson(server.url + '/v1/ask', { question: QUESTIONS[0], options: { beam: 32 } }, BAD1);
    assert.equal(big.status, 400, JSON.stringify(big.body));
    assert.equal(big.body.error.code, 'BAD_REQUEST');
    assert.match(big.body.error.message, /ask\.maxBeam/);
    for (const options of [{ maxAttempts: 1000 }, { k2: 10_000 }, { queryTimeoutMs: 600_000 }, { bestOf: 100 }]) {
      const r = await postJson(server.url + '/v1/ask', { question: QUESTIONS[0], options }, BAD1);
      assert.equal(r.status, 400, JSON.stringify(options) + ' ' + JSON.stringify(r.body));
    }
    const parse = await postJson(server.url + '/v1/parse', { question: QUESTIONS[0], beam: 32 }, BAD1);
    assert.equal(parse.status, 400, JSON.stringify(parse.body));

    const slow = recordedGateway(gateway);
    slow.delayMs = 1500;
    const one = await startTestServer(slow, { apiKeys: [GOOD['x-api-key'], BAD1['x-api-key']], cache: { max: 0 }, ask: { perClient: 1 } });
    try {
      const first = postJson(one.url + '/v1/ask', { question: QUESTIONS[0] }, BAD1);
      await new Promise((r) => setTimeout(r, 300));
      const second = await postJson(one.url + '/v1/ask', { question: QUESTIONS[1] }, BAD1);
      assert.equal(second.status, 429, JSON.stringify(second.body));
      assert.equal(second.body.error.code, 'RATE_LIMITED');
      const other = await postJson(one.url + '/v1/ask', { question: QUESTIONS[1] }, GOOD);
      assert.equal(other.status, 200, JSON.stringify(other.body));
      assert.deepEqual(answersOf(other.body), quiet.get(QUESTIONS[1]!));
      assert.equal((await first).status, 200);
    } finally {
      await one.close();
    }
  });
});
