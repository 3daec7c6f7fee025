/**
 * Label sources: a graph whose names live only in IRIs is fully askable — `load` says which label
 * sources it found, the entity index holds the split local names, answers carry them as labels, and a
 * store without a parser model is answered by the fallback readers.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { localNameLabel, packageRoot, SKOS_PREF_LABEL, termPhrase } from '../../../src/core';
import { openExecutor } from '../../../src/execute';
import { createGateway } from '../../../src/pipeline';
import { cli } from '../../helpers/cli';

const root = packageRoot();
const C = 'http://example.org/creatures/';

describe('label sources: names only in IRIs', function () {
  this.timeout(60000);
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-labels-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('local names split into words: snake_case, camelCase, hyphens, %20, ACRONYMWord; digits stay', () => {
    assert.equal(localNameLabel(C + 'Frost_Wyrm'), 'Frost Wyrm');
    assert.equal(localNameLabel(C + 'GlimmerMoth'), 'Glimmer Moth');
    assert.equal(localNameLabel(C + 'stone-troll'), 'stone troll');
    assert.equal(localNameLabel(C + 'Sand%20Serpent'), 'Sand Serpent');
    assert.equal(localNameLabel('http://ex.org/x#HTMLParser'), 'HTML Parser');
    assert.equal(localNameLabel('http://ex.org/droid/R2D2/'), 'R2D2');
    // A mixed-case acronym stays whole (was "IM Db Rating").
    assert.equal(localNameLabel('http://ex.org/x#IMDbRating'), 'IMDb Rating');
    assert.equal(termPhrase('hasIMDbRating'), 'has imdb rating');
    assert.equal(localNameLabel('urn:isbn:0451450523'), '0451450523');
    assert.equal(termPhrase('inCity'), 'in city');
    assert.equal(termPhrase('has_IMDB_rating'), 'has IMDB rating');
  });

  it('`load` reports the label sources it found and turns the local-name fallback on', async () => {
    const store = path.join(dir, 'store');
    const r = await cli(['load', path.join(root, 'fixtures', 'graphs', 'creatures.ttl'), '--store', store]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /labels: IRI local names 14 entities/);
    const pack = JSON.parse(fs.readFileSync(path.join(store, 'pack.json'), 'utf8'));
    assert.equal(pack.localNameLabels, true);
    const books = await cli(['load', path.join(root, 'fixtures', 'graphs', 'books.ttl'), '--store', path.join(dir, 'books')]);
    assert.match(books.out, /labels: rdfs:label 75 entities\n/);
    assert.equal(JSON.parse(fs.readFileSync(path.join(dir, 'books', 'pack.json'), 'utf8')).localNameLabels, undefined);
  });

  it('label lookups fall back to local names only when the pack says so; a real label wins over the local name', async () => {
    const ttl = path.join(dir, 'mixed.ttl');
    fs.writeFileSync(ttl, `<${C}Frost_Wyrm> <${C}livesIn> <${C}Misty_Peaks> .\n<${C}Misty_Peaks> <${SKOS_PREF_LABEL}> "The Misty Peaks" .\n`);
    const plain = await openExecutor(ttl, { labelPredicates: [SKOS_PREF_LABEL] });
    const withNames = await openExecutor(ttl, { labelPredicates: [SKOS_PREF_LABEL], localNameLabels: true });
    try {
      const iris = [C + 'Frost_Wyrm', C + 'Misty_Peaks'];
      assert.deepEqual([...(await plain.labels(iris))], [[C + 'Misty_Peaks', 'The Misty Peaks']]);
      assert.deepEqual(new Map(await withNames.labels(iris)), new Map([[C + 'Misty_Peaks', 'The Misty Peaks'], [C + 'Frost_Wyrm', 'Frost Wyrm']]));
    } finally {
      await plain.close();
      await withNames.close();
    }
  });

  it('the entity index holds the split local names, and a store without a parser model is answered by the fallback readers', async () => {
    const store = path.join(dir, 'store'); // written by the `load` test above
    const gw = await createGateway({ store });
    try {
      assert.equal(gw.generator, undefined, 'no parser model in this pack');
      for (const label of ['Frost Wyrm', 'Glimmer Moth', 'stone troll', 'Sand Serpent', 'Misty Peaks']) {
        assert.equal(gw.index.exact(label)[0]?.label, label, label);
      }
      assert.equal(gw.index.exact('livesIn').length + gw.index.exact('lives In').length, 0, 'predicates are not entities');
      const a = await gw.ask('which creatures live in the Ember Dunes');
      assert.ok(a.source.startsWith('fallback:'), a.source);
      const labels = a.answers.map((x) => x.label);
      for (const want of ['Ash Drake', 'Cinder Imp', 'Sand Serpent']) assert.ok(labels.includes(want), `${want} in ${labels.join(', ')}`);
      assert.ok(a.trace.some((t) => t.stage === 'generate' && t.note === 'no parser model'));
    } finally {
      await gw.close();
    }
  });

  it('`ask` and `eval --no-parser` run on a pack without a model', async () => {
    const store = path.join(dir, 'store');
    const r = await cli(['ask', '--store', store, 'what is the Frost Wyrm weak to']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^Fire$/m);
    const data = path.join(dir, 'q.jsonl');
    fs.writeFileSync(data, JSON.stringify({ id: 'q1', question: 'what is the Frost Wyrm weak to', answers: ['Fire'], meta: { dataset: 't' } }) + '\n');
    const e = await cli(['eval', '--store', store, '--dataset', data, '--no-parser', '--json']);
    assert.equal(e.code, 0, e.err);
    assert.equal(JSON.parse(e.out).summary?.hit ?? JSON.parse(e.out).hit, 1);
  });
});
