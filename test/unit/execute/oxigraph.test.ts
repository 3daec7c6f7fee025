import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { lookupLabels, mintEntity, mintRelation, OxigraphExecutor, openExecutor, StoreExecutor } from '../../../src/execute';
import { isAskgraphError } from '../../../src/core';

const BASE = 'http://askgraph.dev/movies/';
const E = (l: string) => mintEntity(BASE, l);
const R = (r: string) => mintRelation(BASE, r);
const LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';

const KB = [
  'Forrest Gump|directed_by|Robert Zemeckis',
  'Forrest Gump|starred_actors|Tom Hanks',
  'Forrest Gump|starred_actors|Robin Wright',
  'Forrest Gump|release_year|1994',
  'Cast Away|directed_by|Robert Zemeckis',
  'Cast Away|starred_actors|Tom Hanks',
  'Big|starred_actors|Tom Hanks',
  'Big|directed_by|Penny Marshall',
  'Big|release_year|1988',
].join('\n');

/** 6 unconstrained patterns over ~30 triples: ~10^9 rows, far beyond any test timeout. */
const RUNAWAY = 'SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l . ?m ?n1 ?o . ?p ?q ?r }';

function code(c: string) {
  return (e: unknown) => isAskgraphError(e) && e.code === c;
}

describe('execute: OxigraphExecutor (worker)', function () {
  this.timeout(60000);
  let dir: string;
  let ex: StoreExecutor | undefined;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-ox-'));
    fs.writeFileSync(path.join(dir, 'kb.txt'), KB + '\n');
    fs.writeFileSync(
      path.join(dir, 'pack.json'),
      JSON.stringify({ name: 't', data: ['kb.txt'], baseIri: BASE, vocabularyNamespace: BASE + 'relation/', labelPredicates: [LABEL] }),
    );
    ex = await openExecutor(dir);
  });
  after(async () => {
    await ex?.close();
  });

  it('select, ask, count, construct on the loaded pack', async () => {
    assert.ok(ex instanceof OxigraphExecutor);
    const res = await ex.select(`SELECT ?m WHERE { ?m <${R('starred_actors')}> <${E('Tom Hanks')}> } ORDER BY ?m`);
    assert.deepEqual(res.vars, ['m']);
    assert.deepEqual(res.rows.map((r) => r.m!.value), [E('Big'), E('Cast Away'), E('Forrest Gump')]);
    assert.equal(res.rows[0]!.m!.type, 'uri');
    assert.equal(await ex.ask(`ASK { <${E('Big')}> <${R('directed_by')}> <${E('Penny Marshall')}> }`), true);
    assert.equal(await ex.ask(`ASK { <${E('Big')}> <${R('directed_by')}> <${E('Robert Zemeckis')}> }`), false);
    assert.equal(await ex.count(`SELECT (COUNT(DISTINCT ?m) AS ?c) WHERE { ?m <${R('directed_by')}> ?d }`), 3);
    const triples = await ex.construct(`CONSTRUCT { ?m <http://ex.test/by> ?d } WHERE { ?m <${R('directed_by')}> ?d }`);
    assert.equal(triples.length, 3);
    assert.ok(triples.some((t) => t.s.value === E('Big') && t.o.value === E('Penny Marshall')));
  });

  it('literals come back typed', async () => {
    const res = await ex!.select(`SELECT ?l ?n WHERE { <${E('Big')}> <${LABEL}> ?l BIND(42 AS ?n) }`);
    assert.deepEqual(res.rows[0]!.l, { type: 'literal', value: 'Big' });
    assert.deepEqual(res.rows[0]!.n, { type: 'literal', value: '42', datatype: 'http://www.w3.org/2001/XMLSchema#integer' });
  });

  it('labels: one batched lookup, unknown IRIs absent', async () => {
    const labels = await ex!.labels([E('Tom Hanks'), E('1994'), R('directed_by'), 'http://nowhere.test/x', 'not an iri']);
    assert.equal(labels.get(E('Tom Hanks')), 'Tom Hanks');
    assert.equal(labels.get(E('1994')), '1994');
    assert.equal(labels.get(R('directed_by')), 'directed_by');
    assert.equal(labels.has('http://nowhere.test/x'), false);
    assert.equal(labels.size, 3);
  });

  it('updates are refused with UPDATE_FORBIDDEN and the store is unchanged', async () => {
    const before = await ex!.count('SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }');
    await assert.rejects(ex!.select(`INSERT DATA { <${E('Big')}> <${R('directed_by')}> <${E('X')}> }`), code('UPDATE_FORBIDDEN'));
    await assert.rejects(ex!.query('DELETE WHERE { ?s ?p ?o }'), code('UPDATE_FORBIDDEN'));
    await assert.rejects(ex!.query('CLEAR ALL'), code('UPDATE_FORBIDDEN'));
    assert.equal(await ex!.count('SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }'), before);
    assert.ok(before > 9);
  });

  it('bad SPARQL is SPARQL_SYNTAX; the wrong form for the method is BAD_REQUEST', async () => {
    await assert.rejects(ex!.select('SELECT ?x WHERE { ?x '), code('SPARQL_SYNTAX'));
    await assert.rejects(ex!.select('ASK { ?s ?p ?o }'), code('BAD_REQUEST'));
  });

  it('a runaway query times out for its caller at its timeout; the worker is killed at the floor (minKillMs, 3 s), restarts and answers the next query', async () => {
    const ox = ex as OxigraphExecutor;
    const gen = ox.generation;
    const t0 = Date.now();
    await assert.rejects(ex!.count(RUNAWAY, { timeoutMs: 500 }), code('QUERY_TIMEOUT'));
    const took = Date.now() - t0;
    assert.ok(took >= 490 && took < 3000, `timeout took ${took} ms`); // before the 3 s kill floor: the caller's timeout, not the kill, ended it
    assert.equal(ox.generation, gen, 'a caller timeout below the floor does not kill the shared process');
    // queued behind the abandoned runaway: waits for its kill at the floor and the reload, then runs
    assert.equal(await ex!.ask(`ASK { <${E('Big')}> <${R('directed_by')}> <${E('Penny Marshall')}> }`, { timeoutMs: 20000 }), true);
    assert.equal(ox.generation, gen + 1);
    // a timeout at or above the floor kills at the timeout itself
    await assert.rejects(ex!.count(RUNAWAY, { timeoutMs: 3000 }), code('QUERY_TIMEOUT'));
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(ox.generation, gen + 2);
  });

  it('queries queued behind a runaway keep their own deadlines and run after the restart', async () => {
    const runaway = assert.rejects(ex!.count(RUNAWAY, { timeoutMs: 400 }), code('QUERY_TIMEOUT'));
    // times out while still waiting in the queue
    const queuedShort = assert.rejects(ex!.count(RUNAWAY, { timeoutMs: 200 }), code('QUERY_TIMEOUT'));
    const queuedOk = ex!.count(`SELECT (COUNT(*) AS ?n) WHERE { ?m <${R('directed_by')}> ?d }`, { timeoutMs: 20000 });
    await runaway;
    await queuedShort;
    assert.equal(await queuedOk, 3);
  });

  it('a missing pack or data file is NOT_FOUND; a closed executor is STORE_UNAVAILABLE', async () => {
    await assert.rejects(openExecutor(path.join(dir, 'nope')), code('NOT_FOUND'));
    const other = await openExecutor(path.join(dir, 'kb.txt'), { baseIri: BASE });
    assert.equal(await other.count(`SELECT (COUNT(*) AS ?n) WHERE { ?s <${R('release_year')}> ?o }`), 2);
    await other.close();
    await assert.rejects(other.select('SELECT * WHERE { ?s ?p ?o }'), code('STORE_UNAVAILABLE'));
  });
});

describe('execute: label choice (several label predicates and languages)', function () {
  this.timeout(60000);
  it('earliest label predicate wins, then plain/English; the worker lookup and the SPARQL VALUES lookup agree', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-lbl-'));
    fs.writeFileSync(
      path.join(dir, 'data.ttl'),
      `@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> . @prefix skos: <http://www.w3.org/2004/02/skos/core#> . @prefix ex: <http://ex.test/> .
ex:a skos:prefLabel "A pref" ; rdfs:label "A fr"@fr, "A plain" .
ex:b rdfs:label "B fr"@fr, "B en"@en .
ex:c rdfs:label "C de"@de .
ex:d ex:p ex:a .\n`,
    );
    const preds = ['http://www.w3.org/2004/02/skos/core#prefLabel', LABEL];
    const ex = await openExecutor(path.join(dir, 'data.ttl'), { labelPredicates: preds });
    try {
      const iris = ['http://ex.test/a', 'http://ex.test/b', 'http://ex.test/c', 'http://ex.test/d'];
      const viaWorker = await ex.labels(iris);
      assert.deepEqual([...viaWorker.entries()].sort(), [
        ['http://ex.test/a', 'A pref'],
        ['http://ex.test/b', 'B en'],
        ['http://ex.test/c', 'C de'],
      ]);
      const viaSparql = await lookupLabels((q, o) => ex.select(q, o), iris, preds);
      assert.deepEqual([...viaSparql.entries()].sort(), [...viaWorker.entries()].sort());
    } finally {
      await ex.close();
    }
  });
});
