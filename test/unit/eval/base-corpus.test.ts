import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AskgraphError, packageRoot } from '../../../src/core';
import { parseForm } from '../../../src/form';
import { buildBaseCorpus, dataPath, type BaseCorpus } from '../../../src/eval';
import { freebaseNaming, fromSexpr, fromSparql, labelTableNaming, questionSpan, splitOf, wordName } from '../../../src/eval/importers/base-corpus';

/** A made-up shared data folder (fixtures/base-corpus/README.md): own questions in the formats of three sources. */
const FIXTURE = path.join(packageRoot(), 'fixtures', 'base-corpus', 'data');

const byId = (c: BaseCorpus): Map<string, { question: string; form: string; graph: string }> => new Map([...c.train, ...c.valid, ...c.heldOut].map((p) => [p.id, p]));
const stat = (c: BaseCorpus, source: string) => {
  const s = c.stats.find((x) => x.source === source);
  assert.ok(s, `no stats for ${source}`);
  return s;
};
const isDevOnlyRefusal = (e: unknown): boolean => e instanceof AskgraphError && e.code === 'BAD_REQUEST' && e.details?.reason === 'development-only set';

/** A copy of the fixture folder in a temporary folder, for changes a test makes. */
function copyFixture(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-base-corpus-'));
  fs.cpSync(FIXTURE, dir, { recursive: true });
  return dir;
}

describe('eval: askgraph-base corpus (scripts/build-base-corpus.ts)', () => {
  describe('conversion to forms that name relations and classes by words', () => {
    const corpus = buildBaseCorpus(FIXTURE, { holdOut: [] });
    const pairs = byId(corpus);

    it('Freebase S-expressions: the last segment of a dotted id, entities as the span of the question that names them', () => {
      assert.equal(pairs.get('grailqa-dev:9001')?.form, '(AND lighthouse (JOIN located_on [ Farrow Rock ]))');
      // the question writes the name in lower case: the span is written as the question writes it
      assert.equal(pairs.get('grailqa-dev:9002')?.form, '(JOIN (R artist) [ blue harbour morning ])');
    });

    it('an entity takes the first of its labels that the question says as written, before any said loosely', () => {
      const naming = freebaseNaming((mid) => (mid === 'm.0fx009' ? ['Record', 'Velvet Anchor'] : []));
      assert.deepEqual(fromSexpr('(JOIN (R music.label.records) m.0fx009)', 'which records came out on the velvet anchor label?', naming), { ok: true, form: '(JOIN (R records) [ velvet anchor ])' });
    });

    it('DBpedia SPARQL: camelCase local names split to words; LC-QuAD 1.0 COUNT; a "(qualifier)" dropped from a resource name', () => {
      assert.equal(pairs.get('lcquad1-train:f1')?.form, '(AND musical_artist (JOIN birth_place [ Lowbridge ]))');
      assert.equal(pairs.get('lcquad1-train:f2')?.form, '(COUNT (JOIN river_mouth [ Gull Bay ]))');
    });

    it('path questions keep their word relations', () => {
      assert.equal(pairs.get('wc2014:wc-p2-1')?.form, '(JOIN (R is_in_country) (JOIN (R plays_in_club) [ Ana_MORENO ]))');
    });

    it('every written form reads back with the form parser and names no identifier', () => {
      assert.equal(pairs.size, 6);
      for (const [id, p] of pairs) {
        assert.doesNotThrow(() => parseForm(p.form), id);
        assert.doesNotMatch(p.form, /\bm\.0|http:|\w\.\w/, `${id}: ${p.form}`);
      }
    });

    it('rejects are counted per source with their reason; absent sources are listed, not read', () => {
      assert.deepEqual(stat(corpus, 'grailqa-dev'), {
        source: 'grailqa-dev', graph: 'freebase', read: 4, converted: 2, train: 2, valid: 0, heldOut: 0, relations: 2, classes: 1,
        rejected: { 'entity label not in the question': 1, 'form syntax': 1 },
      });
      assert.deepEqual(stat(corpus, 'lcquad1-train').rejected, { 'SPARQL: OPTIONAL': 1 });
      assert.deepEqual(corpus.stats.map((s) => s.source), ['grailqa-dev', 'lcquad1-train', 'wc2014']);
      assert.equal(corpus.absent['webqsp-train'], 'webqsp/webqsp_train.json');
    });

    it('Wikidata: ids named by a label table; membership by instance-of becomes a class', () => {
      const labels = new Map([['P31', 'instance of'], ['Q901', 'harbour town'], ['P902', 'lies on'], ['Q903', 'Vell river']]);
      const wd = (id: string) => `http://www.wikidata.org/${id.startsWith('P') ? 'prop/direct' : 'entity'}/${id}`;
      const sparql = `SELECT ?x WHERE { ?x <${wd('P31')}> <${wd('Q901')}> . ?x <${wd('P902')}> <${wd('Q903')}> }`;
      const question = 'which harbour towns lie on the vell river?';
      const naming = labelTableNaming((id) => labels.get(id), (ref) => ref.kind === 'iri' && ref.iri === wd('P31'));
      assert.deepEqual(fromSparql(sparql, question, naming), { ok: true, form: '(AND harbour_town (JOIN lies_on [ vell river ]))' });
      // without instance-of the class stays an entity of a relation; without a label for a relation the pair is dropped
      assert.deepEqual(fromSparql(sparql, question, labelTableNaming((id) => labels.get(id))), { ok: true, form: '(AND (JOIN instance_of [ harbour towns ]) (JOIN lies_on [ vell river ]))' });
      assert.deepEqual(fromSparql(sparql, question, labelTableNaming((id) => (id === 'P902' ? undefined : labels.get(id)), naming.instanceOf)), { ok: false, reason: 'relation without a word name' });
    });

    it('word names and question spans', () => {
      assert.equal(wordName('birthPlace'), 'birth_place');
      assert.equal(wordName('MusicalArtist'), 'musical_artist');
      assert.equal(wordName('42'), null);
      assert.equal(questionSpan('who coached the Zürich Lions in 2001?', 'zurich lions'), 'Zürich Lions');
      assert.equal(questionSpan('who coached the lions?', 'Zurich Lions'), null);
      // the label's own brackets and end punctuation come with the span where the question has them there
      assert.equal(questionSpan('which band does chromosome 7 (fixture) carry?', 'Chromosome 7 (fixture)'), 'chromosome 7 (fixture)');
      assert.equal(questionSpan('whom did sam ortho jr. marry?', 'Sam Ortho Jr.'), 'sam ortho jr.');
      assert.equal(questionSpan('is it "Blue Mill" or not?', '"Blue Mill"'), '"Blue Mill"');
      assert.equal(questionSpan('where is the blue mill?', 'Blue Mill'), 'blue mill');
      // where no run of words is the label: a plural or possessive last word, a typo in a longer word of a longer label
      assert.equal(questionSpan('which prizes went to lamplighters?', 'Lamplighter'), 'lamplighters');
      assert.equal(questionSpan("who rode Orvanne's horses?", 'Orvanne'), 'Orvanne');
      assert.equal(questionSpan("who rode Orvanne's horses?", 'Orvanne', false), null);
      assert.equal(questionSpan('what did Tessa Morrigen paint?', 'Tessa Morrigan'), 'Tessa Morrigen');
      // …but not a typo of a short word, of a one-word label, or with no word exact, and an exact run comes first
      assert.equal(questionSpan('what did she make?', 'Male'), null);
      assert.equal(questionSpan('who was married to her?', 'Marriage'), null);
      assert.equal(questionSpan('what did Tasso Morrigen paint?', 'Tessa Morrigan'), null);
      assert.equal(questionSpan('is Tessa Morrigen or Tessa Morrigan older?', 'Tessa Morrigan'), 'Tessa Morrigan');
    });

    it('the paraphrases of one form fall on the same side of the train/valid split', () => {
      const forms = Array.from({ length: 200 }, (_, i) => `(JOIN (R r${i}) [ x ])`);
      const valid = forms.filter((f) => splitOf('s', f) === 'valid');
      assert.ok(valid.length > 0 && valid.length < 40, `${valid.length} of 200 in valid`);
      for (const f of forms) assert.equal(splitOf('s', f), splitOf('s', f));
    });
  });

  describe('development-only sets (movies-real, restaurants) are never read', () => {
    it('no pair comes from them, though the folder has them', () => {
      assert.ok(fs.existsSync(path.join(FIXTURE, 'movies-real')) && fs.existsSync(path.join(FIXTURE, 'restaurants')));
      const c = buildBaseCorpus(FIXTURE, { holdOut: [] });
      for (const p of [...c.train, ...c.valid, ...c.heldOut]) assert.doesNotMatch(p.question, /POISON/);
    });

    it('dataPath refuses their files, by name and through a symbolic link', () => {
      const dir = copyFixture();
      try {
        assert.throws(() => dataPath(dir, 'movies-real/movies-real.json'), isDevOnlyRefusal);
        assert.throws(() => dataPath(dir, 'restaurants/restaurants-qald.json'), isDevOnlyRefusal);
        assert.throws(() => dataPath(dir, 'Restaurants.tar'), isDevOnlyRefusal);
        fs.symlinkSync(path.join(dir, 'movies-real', 'movies-real.json'), path.join(dir, 'innocent.json'));
        assert.throws(() => dataPath(dir, 'innocent.json'), isDevOnlyRefusal);
        assert.equal(dataPath(dir, 'lcquad1/train.json'), fs.realpathSync(path.join(dir, 'lcquad1', 'train.json')));
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    it('a source file that is a link into one of them stops the build', () => {
      const dir = copyFixture();
      try {
        // a QALD-format file of POISON questions inside restaurants/, linked where the build reads QALD-9
        fs.writeFileSync(
          path.join(dir, 'restaurants', 'qald9_train_dbpedia.json'),
          JSON.stringify([{ id: 'p1', question: 'POISON who founded Lowbridge?', sparql: 'SELECT ?x WHERE { <http://dbpedia.org/resource/Lowbridge> <http://dbpedia.org/ontology/founder> ?x }' }]),
        );
        fs.symlinkSync(path.join(dir, 'restaurants'), path.join(dir, 'qald'));
        assert.throws(() => buildBaseCorpus(dir, { holdOut: [] }), isDevOnlyRefusal);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe('leave one graph out', () => {
    const all = (c: BaseCorpus) => [...c.train, ...c.valid].map((p) => p.id);

    it('by default WC2014 and PathQuestion pairs are held out: in heldout, never in train or valid', () => {
      const c = buildBaseCorpus(FIXTURE);
      assert.deepEqual(c.heldOut.map((p) => p.id), ['wc2014:wc-p2-0', 'wc2014:wc-p2-1']);
      assert.ok(!all(c).some((id) => id.startsWith('wc2014:')));
      assert.deepEqual(stat(c, 'wc2014').heldOut, 2);
    });

    it('any graph, source or group can be held out, and nothing is lost or doubled', () => {
      const everything = new Set(byId(buildBaseCorpus(FIXTURE, { holdOut: [] })).keys());
      const cases: [string[], string[]][] = [
        [['freebase'], ['grailqa-dev:9001', 'grailqa-dev:9002']],
        [['lcquad1-train'], ['lcquad1-train:f1', 'lcquad1-train:f2']],
        [['grailqa-dev', 'wc2014'], ['grailqa-dev:9001', 'grailqa-dev:9002', 'wc2014:wc-p2-0', 'wc2014:wc-p2-1']],
      ];
      for (const [holdOut, expect] of cases) {
        const c = buildBaseCorpus(FIXTURE, { holdOut });
        const held = c.heldOut.map((p) => p.id).sort();
        assert.deepEqual(held, [...expect].sort(), holdOut.join(','));
        assert.deepEqual(all(c).filter((id) => held.includes(id)), []);
        assert.deepEqual(new Set([...all(c), ...held]), everything);
      }
    });

    it('an unknown name to hold out is refused', () => {
      assert.throws(() => buildBaseCorpus(FIXTURE, { holdOut: ['wc2041'] }), (e: unknown) => e instanceof AskgraphError && e.code === 'BAD_REQUEST' && e.message.includes('wc2041'));
    });
  });
});
