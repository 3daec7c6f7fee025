/**
 * The two routes the web inspector reads besides /v1/ask: GET /v1/overview (what the graph covers, the
 * model card, example questions) and POST /v1/labels (labels for IRIs it shows). Against the stand-in
 * gateway (real Oxigraph store with the mini movies graph, no pack → the store's own figures).
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { RunningServer } from '../../src/serve';
import { modelCard } from '../../src/serve/routes-inspector';
import { entity, getJson, postJson, relation, standInGateway, startTestServer, type StandIn } from './serve-helpers';
import { closeAll } from '../helpers/close-all';

describe('serve: /v1/overview, /v1/labels and /v1/query-graph for the inspector (stand-in gateway: real in-process Oxigraph, mini graph)', () => {
  let g: StandIn;
  let srv: RunningServer;
  before(async () => {
    g = standInGateway();
    (g as { pack?: unknown }).pack = {
      dir: '/nowhere',
      config: { name: 'mini', title: 'Mini movies', description: 'Eight facts.', examples: ['who directed Heat'], baseIri: 'http://askgraph.dev/movies/', vocabularyNamespace: relation(''), labelPredicates: ['http://www.w3.org/2000/01/rdf-schema#label'] },
    };
    srv = await startTestServer(g);
  });
  after(async () => {
    await closeAll(srv);
  });

  it('GET /v1/overview: title, description, examples from the pack; triples, labelled entities and relations with counts from the store', async () => {
    const r = await getJson(srv.url + '/v1/overview');
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.pack, { name: 'mini', title: 'Mini movies', description: 'Eight facts.' });
    assert.deepEqual(r.body.examples, ['who directed Heat']);
    assert.equal(r.body.store.triples, g.executor.store.size);
    assert.equal(r.body.store.entities, 9, 'the 9 labelled entities; the labelled relations (vocabulary namespace) are not entities');
    assert.deepEqual(
      r.body.store.relations.map((x: { name: string; count: number }) => [x.name, x.count]),
      [['directed_by', 4], ['starred_actors', 3], ['release_year', 1]],
    );
    assert.deepEqual(r.body.store.classes, []);
    assert.equal(r.body.model, null, 'the stand-in has no generator');
  });

  it('POST /v1/labels: labels of known IRIs; unsafe or unknown IRIs are left out; a bad body is 400', async () => {
    const r = await postJson(srv.url + '/v1/labels', { iris: [entity('Heat'), entity('Nobody'), 'http://x/ bad<iri>'] });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { labels: { [entity('Heat')]: 'Heat' } });
    const bad = await postJson(srv.url + '/v1/labels', { iris: 'not a list' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 'BAD_REQUEST');
    const tooMany = await postJson(srv.url + '/v1/labels', { iris: Array.from({ length: 501 }, (_, i) => entity(String(i))) });
    assert.equal(tooMany.status, 400);
  });

  it('POST /v1/query-graph: every triple pattern of a query (groups, OPTIONAL, UNION, paths), terms typed; bad SPARQL and updates are refused like on /sparql', async () => {
    const q = `SELECT ?x WHERE { ?x <${relation('directed_by')}> <${entity('Heat')}> . OPTIONAL { ?x <${relation('starred_actors')}>/<${relation('directed_by')}> ?y } { ?x ?p "1994" } UNION { ?x a ?c } }`;
    const r = await postJson(srv.url + '/v1/query-graph', { sparql: q });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.form, 'SELECT');
    assert.equal(r.body.truncated, false);
    assert.deepEqual(r.body.patterns, [
      { s: { type: 'var', value: '?x' }, p: { type: 'uri', value: relation('directed_by') }, o: { type: 'uri', value: entity('Heat') } },
      { s: { type: 'var', value: '?x' }, p: { type: 'path', value: `(<${relation('starred_actors')}>/<${relation('directed_by')}>)` }, o: { type: 'var', value: '?y' } },
      { s: { type: 'var', value: '?x' }, p: { type: 'var', value: '?p' }, o: { type: 'literal', value: '1994' } },
      { s: { type: 'var', value: '?x' }, p: { type: 'uri', value: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type' }, o: { type: 'var', value: '?c' } },
    ]);
    const bad = await postJson(srv.url + '/v1/query-graph', { sparql: 'SELECT WHERE {' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 'SPARQL_SYNTAX');
    const update = await postJson(srv.url + '/v1/query-graph', { sparql: 'DROP ALL' });
    assert.equal(update.status, 403);
    assert.equal(update.body.error.code, 'UPDATE_FORBIDDEN');
    const noBody = await postJson(srv.url + '/v1/query-graph', { query: 'SELECT * WHERE { ?s ?p ?o }' });
    assert.equal(noBody.status, 400);
    assert.equal(noBody.body.error.code, 'BAD_REQUEST');
  });

  it('the model card reads the trainer report: name, parameters, training data — not the hash', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-card-'));
    try {
      fs.writeFileSync(path.join(dir, 'report.json'), JSON.stringify({ size: 'tiny', params: 150000, command: 'train/askgraph_train.py --data data/geo/train.jsonl --out x', data: { train: 880, valid: 100 }, trainSeconds: 125 }));
      assert.deepEqual(modelCard({ id: 'askgraph-tiny-0123456789ab', dir }), {
        id: 'askgraph-tiny-0123456789ab',
        name: 'askgraph-tiny seq2seq',
        kind: 'seq2seq',
        parameters: 150000,
        trainedOn: { data: 'geo/train.jsonl', questions: 880, validation: 100 },
        trainMinutes: 2,
      });
      assert.equal(modelCard({ id: 'http:u#m', endpoint: 'http://127.0.0.1:8000/v1/chat/completions' })?.kind, 'http');
      assert.equal(modelCard(undefined), null);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
