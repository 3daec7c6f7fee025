import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cli } from '../../helpers/cli';


describe('execute: askgraph load / run (CLI in-process)', function () {
  this.timeout(60000);
  let dir: string;
  let store: string;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-cli-'));
    fs.writeFileSync(path.join(dir, 'kb.txt'), 'Forrest Gump|directed_by|Robert Zemeckis\nCast Away|directed_by|Robert Zemeckis\nBig|directed_by|Penny Marshall\n');
    fs.writeFileSync(path.join(dir, 'extra.ttl'), '@prefix m: <http://askgraph.dev/films/relation/> .\n<http://askgraph.dev/films/entity/Big> m:release_year "1988" .\n');
    store = path.join(dir, 'films');
  });

  it('load writes data.nq and pack.json; run answers a form with labels and IRIs', async () => {
    const load = await cli(['load', path.join(dir, 'kb.txt'), path.join(dir, 'extra.ttl'), '--store', store]);
    assert.equal(load.code, 0, load.err);
    // 3 data triples + 5 entity labels + 1 relation label + 1 Turtle triple
    assert.match(load.out, /loaded 10 triples from 2 file\(s\)/);
    const pack = JSON.parse(fs.readFileSync(path.join(store, 'pack.json'), 'utf8'));
    assert.deepEqual(pack.data, ['data.nq']);
    assert.equal(pack.baseIri, 'http://askgraph.dev/films/');
    assert.equal(pack.vocabularyNamespace, 'http://askgraph.dev/films/relation/');
    const run = await cli(['run', '(JOIN directed_by (JOIN (R directed_by) [ Forrest Gump ]))', '--store', store]);
    assert.equal(run.code, 0, run.err);
    assert.equal(run.out, 'Cast Away\t<http://askgraph.dev/films/entity/Cast%20Away>\n');
    const json = await cli(['run', '(JOIN (R release_year) [ Big ])', '--store', store, '--json']);
    assert.equal(json.code, 0, json.err);
    const doc = JSON.parse(json.out);
    assert.equal(doc.status, 'answers');
    assert.deepEqual(doc.answers, [{ value: '1988', label: null, type: 'literal' }]);
    assert.match(doc.sparql, /SELECT DISTINCT \?x/);
  });

  it('run --sparql prints bindings with labels; ASK prints true/false', async () => {
    const sel = await cli(['run', '--store', store, '--sparql', 'SELECT ?m WHERE { ?m <http://askgraph.dev/films/relation/directed_by> <http://askgraph.dev/films/entity/Penny%20Marshall> }']);
    assert.equal(sel.code, 0, sel.err);
    assert.equal(sel.out, 'Big <http://askgraph.dev/films/entity/Big>\n');
    const ask = await cli(['run', '--store', store, '--sparql', 'ASK { ?s ?p "1988" }']);
    assert.equal(ask.out, 'true\n');
  });

  it('errors: one line with the code on stderr, exit 2, JSON error with --json', async () => {
    const upd = await cli(['run', '--store', store, '--sparql', 'DROP ALL']);
    assert.equal(upd.code, 2);
    assert.match(upd.err, /^askgraph: UPDATE_FORBIDDEN: /);
    assert.equal(upd.err.trim().split('\n').length, 1);
    const bad = await cli(['run', '(JOIN directed_by', '--store', store, '--json']);
    assert.equal(bad.code, 2);
    assert.equal(JSON.parse(bad.out).error.code, 'FORM_SYNTAX');
    const missing = await cli(['run', '(JOIN directed_by [ X ])', '--store', path.join(dir, 'nope')]);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /NOT_FOUND/);
    const nofile = await cli(['load', path.join(dir, 'nope.nt'), '--store', store]);
    assert.match(nofile.err, /^askgraph: NOT_FOUND: /);
    const slow = await cli(['run', '--store', store, '--timeout', '300', '--sparql', 'SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l . ?m ?n1 ?o . ?p ?q ?r . ?s ?t ?u }']);
    assert.equal(slow.code, 2);
    assert.match(slow.err, /^askgraph: QUERY_TIMEOUT: /);
  });
});
