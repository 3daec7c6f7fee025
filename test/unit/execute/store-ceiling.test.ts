import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isAskgraphError } from '../../../src/core';
import { checkStoreFits, estimateTriples, openExecutor, storeMemoryLimit, STORE_BYTES_PER_TRIPLE } from '../../../src/execute';
import { startServer } from '../../../src/serve';
import { cli } from '../../helpers/cli';

/** Child processes of this process still alive (/proc). */
function children(): number[] {
  const out: number[] = [];
  for (const t of fs.readdirSync('/proc/self/task')) {
    for (const c of fs.readFileSync(`/proc/self/task/${t}/children`, 'utf8').trim().split(/\s+/)) if (c) out.push(Number(c));
  }
  return out.sort((a, b) => a - b);
}

/** N-Triples of `n` distinct triples: things with a label and a link each. */
function ntriples(n: number): string {
  const lines: string[] = [];
  for (let i = 0; lines.length < n; i++) {
    lines.push(`<http://example.org/t/thing${i}> <http://www.w3.org/2000/01/rdf-schema#label> "thing number ${i}" .`);
    if (lines.length < n) lines.push(`<http://example.org/t/thing${i}> <http://example.org/t/next> <http://example.org/t/thing${i + 1}> .`);
  }
  return lines.join('\n') + '\n';
}

/** Every file under dir (relative names), sorted. */
function listing(dir: string): string[] {
  return fs.existsSync(dir) ? (fs.readdirSync(dir, { recursive: true }) as string[]).sort() : [];
}

describe("execute: the embedded store's ceiling (STORE_TOO_LARGE before anything is loaded or written)", function () {
  this.timeout(120_000);
  let dir: string;
  let big: string;
  let small: string;
  // 64 MiB for the idle process + room for ~9,500 triples at load's bytes per triple (~7,600 when opening)
  const LIMIT = String(64 * 2 ** 20 + 10_000 * STORE_BYTES_PER_TRIPLE.load);

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-ceiling-'));
    big = path.join(dir, 'big.nt');
    small = path.join(dir, 'small.nt');
    fs.writeFileSync(big, ntriples(20_000));
    fs.writeFileSync(small, ntriples(300));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('the estimate counts N-Triples lines; the limit reads bytes, K/M/G, 0 = off, and refuses nonsense', () => {
    assert.equal(estimateTriples([big]), 20_000);
    assert.equal(estimateTriples([big, small]), 20_300);
    assert.equal(storeMemoryLimit({ ASKGRAPH_STORE_MAX_BYTES: '512M' }), 512 * 2 ** 20);
    assert.equal(storeMemoryLimit({ ASKGRAPH_STORE_MAX_BYTES: '2G' }), 2 * 2 ** 30);
    assert.equal(storeMemoryLimit({ ASKGRAPH_STORE_MAX_BYTES: '123456' }), 123456);
    assert.equal(storeMemoryLimit({ ASKGRAPH_STORE_MAX_BYTES: '0' }), undefined);
    assert.equal(storeMemoryLimit({}), Math.floor(os.totalmem() * 0.8));
    assert.throws(() => storeMemoryLimit({ ASKGRAPH_STORE_MAX_BYTES: 'lots' }), (e: unknown) => isAskgraphError(e) && e.code === 'BAD_REQUEST');
    // two store processes (the pipeline's and /sparql's) share the limit
    assert.ok(checkStoreFits([small], { purpose: 'open', copies: 1, env: { ASKGRAPH_STORE_MAX_BYTES: String(64 * 2 ** 20 + 400 * STORE_BYTES_PER_TRIPLE.open) } }));
    assert.throws(
      () => checkStoreFits([small], { purpose: 'open', copies: 2, env: { ASKGRAPH_STORE_MAX_BYTES: String(64 * 2 ** 20 + 400 * STORE_BYTES_PER_TRIPLE.open) } }),
      (e: unknown) => isAskgraphError(e) && e.code === 'STORE_TOO_LARGE' && e.message.includes('across 2 store processes'),
    );
  });

  it('askgraph load refuses a graph over the limit with STORE_TOO_LARGE and writes no folder', async () => {
    const store = path.join(dir, 'new-store');
    const r = await cli(['load', big, '--store', store], { ASKGRAPH_STORE_MAX_BYTES: LIMIT });
    assert.equal(r.code, 2, r.out);
    assert.match(r.err, /^askgraph: STORE_TOO_LARGE: this graph has ~20k triples .* the embedded store holds about 10k on this machine \(\d+ MiB for the store, ASKGRAPH_STORE_MAX_BYTES\) — use an endpoint: .*askgraph init <endpoint URL>/);
    assert.equal(r.err.trim().split('\n').length, 1);
    assert.equal(fs.existsSync(store), false, 'no store folder is left behind');
    const json = await cli(['load', big, '--store', store, '--json'], { ASKGRAPH_STORE_MAX_BYTES: LIMIT });
    const error = (JSON.parse(json.out) as { error: { code: string; details: { triples: number; maxTriples: number } } }).error;
    assert.equal(error.code, 'STORE_TOO_LARGE');
    assert.equal(error.details.triples, 20_000);
    assert.ok(error.details.maxTriples < 20_000);
  });

  it('a refused load leaves an existing store exactly as it was; under the limit the same load succeeds', async () => {
    const store = path.join(dir, 'store');
    const first = await cli(['load', small, '--store', store], { ASKGRAPH_STORE_MAX_BYTES: LIMIT });
    assert.equal(first.code, 0, first.err);
    const before = listing(store).map((f) => [f, fs.readFileSync(path.join(store, f), 'utf8')]);
    const refused = await cli(['load', big, '--store', store], { ASKGRAPH_STORE_MAX_BYTES: LIMIT });
    assert.match(refused.err, /STORE_TOO_LARGE/);
    assert.deepEqual(
      listing(store).map((f) => [f, fs.readFileSync(path.join(store, f), 'utf8')]),
      before,
      'data.nq and pack.json unchanged, no temp files',
    );
    const roomy = await cli(['load', big, '--store', store, '--json'], { ASKGRAPH_STORE_MAX_BYTES: '1G' });
    assert.equal(roomy.code, 0, roomy.err);
    assert.equal((JSON.parse(roomy.out) as { triples: number }).triples, 20_000);
  });

  it('opening a pack over the limit is STORE_TOO_LARGE before a store process starts', async () => {
    const store = path.join(dir, 'store');
    const saved = process.env.ASKGRAPH_STORE_MAX_BYTES;
    process.env.ASKGRAPH_STORE_MAX_BYTES = LIMIT;
    try {
      await assert.rejects(openExecutor(store), (e: unknown) => isAskgraphError(e) && e.code === 'STORE_TOO_LARGE' && e.message.includes('~20k triples'));
      // and the CLI that opens it says the same in one line
      const run = await cli(['run', '--store', store, '--sparql', 'ASK { ?s ?p ?o }'], { ASKGRAPH_STORE_MAX_BYTES: LIMIT });
      assert.equal(run.code, 2);
      assert.match(run.err, /^askgraph: STORE_TOO_LARGE: /);
    } finally {
      if (saved === undefined) delete process.env.ASKGRAPH_STORE_MAX_BYTES;
      else process.env.ASKGRAPH_STORE_MAX_BYTES = saved;
    }
    const ex = await openExecutor(store);
    try {
      assert.equal(await ex.ask('ASK { <http://example.org/t/thing0> ?p ?o }'), true);
    } finally {
      await ex.close();
    }
  });

  it('askgraph serve counts the /sparql store process too: one copy fits, two do not — STORE_TOO_LARGE, no store process left running', async () => {
    const store = path.join(dir, 'store');
    const saved = process.env.ASKGRAPH_STORE_MAX_BYTES;
    // 100 MiB: one store process of 20k triples fits (64 MiB + 16 MB), two (50 MiB each) do not
    process.env.ASKGRAPH_STORE_MAX_BYTES = '100M';
    const before = children();
    try {
      await assert.rejects(
        startServer({ port: 0, host: '127.0.0.1', logLevel: 'silent', store, sparql: { isolate: true, processes: 1 } }),
        (e: unknown) => isAskgraphError(e) && e.code === 'STORE_TOO_LARGE' && e.message.includes('across 2 store processes'),
      );
    } finally {
      if (saved === undefined) delete process.env.ASKGRAPH_STORE_MAX_BYTES;
      else process.env.ASKGRAPH_STORE_MAX_BYTES = saved;
    }
    // the pipeline's store process that did start is closed again
    for (let i = 0; i < 50 && children().some((p) => !before.includes(p)); i++) await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(
      children().filter((p) => !before.includes(p)),
      [],
    );
  });
});
