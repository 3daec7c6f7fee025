/**
 * An open-name model behind a pack, end to end (issue 20): a pack made by `askgraph init --no-train` from
 * fixtures/graphs/books.ttl gets fixtures/open-model as its parser — a model that writes place_of_birth,
 * publisher and the class writer, names the graph spells bornIn, publishedBy and Author. The real pipeline
 * (ONNX parser, grounding, compiler, Oxigraph) must read the model's names as the graph's; the gold answers
 * are asked of the same store with SPARQL.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { packageRoot } from '../../../src/core';
import { openExecutor, type StoreExecutor } from '../../../src/execute';
import { classRefs, parseForm, relationRefs } from '../../../src/form';
import { clearParserCache } from '../../../src/generate';
import { createGateway, type Gateway } from '../../../src/pipeline';
import { cli } from '../../helpers/cli';
import { closeAll } from '../../helpers/close-all';
import { goldLabels } from '../../helpers/gold';

const root = packageRoot();
const BOOKS = path.join(root, 'fixtures', 'graphs', 'books.ttl');
const PREFIX = 'PREFIX : <http://example.org/books/> PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> ';

describe('pipeline: a pack whose parser is an open-name model (fixtures/open-model on books.ttl)', function () {
  this.timeout(300_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-open-pack-'));
  const pack = path.join(dir, 'books');
  let gw: Gateway;
  let store: StoreExecutor;

  before(async () => {
    const r = await cli(['init', BOOKS, '--out', pack, '--count', '50', '--seed', '1', '--no-train', '--json'], { ...process.env });
    assert.equal(r.code, 0, r.err);
    fs.cpSync(path.join(root, 'fixtures', 'open-model'), path.join(pack, 'model'), { recursive: true });
    const file = path.join(pack, 'pack.json');
    fs.writeFileSync(file, JSON.stringify({ ...JSON.parse(fs.readFileSync(file, 'utf8')), model: 'model' }, null, 2));
    gw = await createGateway({ store: pack, parserNames: 'free' }); // free names: grounding reads them
    store = await openExecutor(BOOKS);
  });

  after(async () => {
    await closeAll(gw, store);
    await clearParserCache();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const gold = (query: string): Promise<string[]> => goldLabels(store, PREFIX + query);

  async function ask(question: string): Promise<{ got: string[]; notes: string }> {
    const a = await gw.ask(question);
    return { got: a.answers.map((x) => (x.type === 'uri' ? (x.label ?? x.value) : x.value)).sort(), notes: JSON.stringify(a.trace) };
  }

  it('the pack has none of the model\'s names: they are its own', () => {
    const config = JSON.parse(fs.readFileSync(path.join(pack, 'pack.json'), 'utf8')) as { names: Record<string, string> };
    for (const n of ['place_of_birth', 'publisher', 'writer']) assert.ok(!(n in config.names), n);
    assert.ok('bornIn' in config.names && 'Author' in config.names);
  });

  it('a relation name the graph lacks (place_of_birth, publisher) is grounded to the graph\'s predicate (bornIn, publishedBy)', async () => {
    const born = await ask('where was Hugo Brandt born');
    const bornGold = await gold('SELECT ?x WHERE { ?a rdfs:label "Hugo Brandt" ; :bornIn ?x }');
    assert.deepEqual(bornGold, ['Dublin']);
    assert.deepEqual(born.got, bornGold, born.notes);
    assert.match(born.notes, /relations read as bornIn/);
    const pub = await ask('who published The Broken Bridge');
    const pubGold = await gold('SELECT ?x WHERE { ?b rdfs:label "The Broken Bridge" ; :publishedBy ?x }');
    assert.equal(pubGold.length, 1);
    assert.deepEqual(pub.got, pubGold, pub.notes);
    assert.match(pub.notes, /relations read as publishedBy/);
  });

  it('a bare class name the graph lacks (writer) is grounded to a store class (Author) by the same phrase ranking', async () => {
    const writers = await ask('list every writer');
    const all = await gold('SELECT ?x WHERE { ?x rdf:type :Author }');
    assert.equal(all.length, 10);
    assert.deepEqual(writers.got, all, writers.notes);
    assert.match(writers.notes, /classes read as Author/);
  });

  it('graph-restricted names are the default for an open-name parser: the beam names only the store\'s relations and classes, as the graph spells them', async () => {
    const restricted = await createGateway({ store: pack });
    try {
      const config = JSON.parse(fs.readFileSync(path.join(pack, 'pack.json'), 'utf8')) as { names: Record<string, string> };
      const own = new Set(Object.keys(config.names));
      let forms = 0;
      for (const q of ['where was Hugo Brandt born', 'list every writer', 'who published The Broken Bridge']) {
        const a = await restricted.ask(q);
        for (const row of a.trace) {
          if (row.stage !== 'execute' || !row.beamForm) continue;
          forms++;
          const f = parseForm(row.beamForm);
          for (const r of [...relationRefs(f), ...classRefs(f)]) assert.ok(r.kind === 'name' && own.has(r.name), `${q}: ${row.beamForm}`);
        }
      }
      assert.ok(forms > 0);
    } finally {
      await restricted.close();
    }
  });
});
