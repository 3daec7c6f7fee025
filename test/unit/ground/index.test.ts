import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { normalizeLabel, relationWords, surfaceTokens, typoEdits } from '../../../src/core';
import {
  AveragedWordVectors,
  combineScorers,
  denseScorer,
  fuzzyScorer,
  EntityIndex,
  groundCandidates,
  type GroundAttempt,
  editSimilarity,
  fuzzySimilarity,
  linkEntities,
  TokenIndex,
  type LabelEntry,
} from '../../../src/ground';
import { parseForm } from '../../../src/form';

const E = (s: string) => `http://example.org/e/${encodeURIComponent(s)}`;

const LABELS: LabelEntry[] = [
  'Forrest Gump',
  'Forest Warrior',
  'forest',
  'Amélie',
  "Schindler's List",
  'The Godfather',
  'The Godfather Part II',
  'Tom Hanks',
  'tom hanks',
  'Robert Zemeckis',
  'Star!',
  'Mr. & Mrs. Smith',
  'WALL·E',
  'Love',
  'The Love Bug',
  'Crash',
].map((label) => ({ iri: E(label), label }));
// An alias (skos:altLabel-style): a second label of the same entity.
LABELS.push({ iri: E('The Godfather Part II'), label: 'Godfather 2' });

describe('ground: normalisation', () => {
  it('folds case, strips accents (NFKD), drops apostrophes and turns punctuation into spaces', () => {
    assert.equal(normalizeLabel('Amélie'), 'amelie');
    assert.equal(normalizeLabel("Schindler's List"), 'schindlers list');
    assert.equal(normalizeLabel('Schindler’s  List!'), 'schindlers list');
    assert.equal(normalizeLabel('Mr. & Mrs. Smith'), 'mr mrs smith');
    assert.equal(normalizeLabel('  Straße  Ærø '), 'strasse aero');
    assert.equal(normalizeLabel('8½ Women'), '8 1 2 women');
    assert.equal(normalizeLabel('...'), '');
  });
  it('reads relation names as words', () => {
    assert.equal(relationWords('directed_by'), 'directed by');
    assert.equal(relationWords('film.film.directed_by'), 'film film directed by');
    assert.equal(relationWords('releaseYear'), 'release year');
  });
  it('keeps the surface tokens aligned with the normalised ones', () => {
    assert.deepEqual(surfaceTokens('what did Tom Hanks star in?'), ['what', 'did', 'Tom', 'Hanks', 'star', 'in']);
    assert.deepEqual(surfaceTokens("Schindler's List"), ['Schindlers', 'List']);
  });
  it('string similarities are 1 for equal strings and lower for typos', () => {
    assert.equal(fuzzySimilarity('forrest gump', 'forrest gump'), 1);
    assert.ok(fuzzySimilarity('forest gump', 'forrest gump') > 0.85);
    assert.ok(fuzzySimilarity('forest gump', 'the godfather') < 0.3);
    assert.equal(editSimilarity('abcd', 'abce'), 0.75);
  });
});

describe('ground: entity index', () => {
  const index = EntityIndex.build(LABELS);

  it('finds the exact normalised label (score 1), preferring the one spelt like the query', () => {
    const hits = index.search('Forrest Gump');
    assert.equal(hits[0]?.iri, E('Forrest Gump'));
    assert.equal(hits[0].score, 1);
    assert.ok(hits[0].exact);
    const tom = index.search('tom hanks');
    assert.deepEqual(tom.map((h) => h.label), ['tom hanks', 'Tom Hanks']);
    assert.deepEqual(index.search('Tom Hanks').map((h) => h.label), ['Tom Hanks', 'tom hanks']);
  });
  it('matches across accents and punctuation', () => {
    assert.equal(index.search('Amelie')[0]!.iri, E('Amélie'));
    assert.equal(index.search('schindlers list')[0]!.iri, E("Schindler's List"));
    assert.equal(index.search('Mr and Mrs Smith', { threshold: 0.5 })[0]!.iri, E('Mr. & Mrs. Smith'));
    assert.equal(index.search('star')[0]!.iri, E('Star!'));
  });
  it('finds misspelt labels by fuzzy matching, ranked above unrelated ones', () => {
    const hits = index.search('Forest Gump', { k: 3, threshold: 0 });
    assert.equal(hits[0]?.iri, E('Forrest Gump'));
    assert.ok(hits[0].score > 0.8 && hits[0].score < 1);
    assert.equal(index.search('Robert Zemekis')[0]!.iri, E('Robert Zemeckis'));
  });
  it('completes a cut last word (prefix)', () => {
    const hits = index.search('Robert Zem', { threshold: 0 });
    assert.equal(hits[0]?.iri, E('Robert Zemeckis'));
  });
  it('finds entities by an alias label', () => {
    assert.equal(index.search('Godfather 2')[0]!.iri, E('The Godfather Part II'));
    assert.deepEqual(index.labelsOf(E('The Godfather Part II')).sort(), ['Godfather 2', 'The Godfather Part II']);
  });
  it('labelsOf: every label of the entity in document order (the first is the preferred one), interleaved with others, also after save/load', () => {
    const entries = [
      { iri: 'http://x/a', label: 'Alpha' },
      { iri: 'http://x/b', label: 'Beta' },
      { iri: 'http://x/a', label: 'Alfa' },
      { iri: 'http://x/c', label: 'Gamma' },
      { iri: 'http://x/b', label: 'Bêta' },
      { iri: 'http://x/a', label: 'Alpha One' },
    ];
    const built = EntityIndex.build(entries);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-labelsof-')), 'index.json');
    built.save(file);
    for (const ix of [built, EntityIndex.load(file)]) {
      assert.deepEqual(ix.labelsOf('http://x/a'), ['Alpha', 'Alfa', 'Alpha One']);
      assert.deepEqual(ix.labelsOf('http://x/b'), ['Beta', 'Bêta']);
      assert.deepEqual(ix.labelsOf('http://x/c'), ['Gamma']);
      assert.deepEqual(ix.labelsOf('http://x/none'), []);
    }
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  });
  it('warm() builds what a loaded index builds on first use (token index, lookups by IRI), and the results are the same', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-warm-')), 'index.json');
    EntityIndex.build(LABELS).save(file);
    const lazy = EntityIndex.load(file);
    const warmed = EntityIndex.load(file);
    assert.deepEqual(warmed.built, { tokens: false, iris: false }, 'a loaded index builds them on first use');
    warmed.warm();
    assert.deepEqual(warmed.built, { tokens: true, iris: true });
    for (const q of ['Forest Gump', 'Godfather', 'Robert Zem']) assert.deepEqual(warmed.search(q, { k: 3, threshold: 0 }), lazy.search(q, { k: 3, threshold: 0 }), q);
    assert.deepEqual(warmed.labelsOf(E('Tom Hanks')), lazy.labelsOf(E('Tom Hanks')));
    assert.deepEqual(warmed.labelsOf(E('Tom Hanks')), ['Tom Hanks']);
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  });
  it('applies k and the threshold', () => {
    assert.equal(index.search('godfathr', { k: 2, threshold: 0 }).length, 2);
    assert.deepEqual(index.search('zzzz qqqq'), []);
    assert.deepEqual(index.search('Forest Gump', { threshold: 0.99 }), []);
    assert.deepEqual(index.search('  ... '), []);
  });
  it('function words alone find only a label that spells them: no near matches for "the", "every"', () => {
    assert.deepEqual(index.search('the', { threshold: 0 }), []);
    assert.deepEqual(index.search('every', { threshold: 0 }), []);
    const it = EntityIndex.build([{ iri: 'ex:It', label: 'It' }, { iri: 'ex:Every', label: 'Dale Van Every' }]);
    assert.deepEqual(it.search('it').map((h) => h.iri), ['ex:It']);
    assert.deepEqual(it.search('every', { threshold: 0 }), [], 'no partial name either');
  });

  it('saves and loads (round trip: same results, normalised labels kept)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-ground-'));
    const file = path.join(dir, 'index.json');
    const withMeta = EntityIndex.build(LABELS, { meta: { store: 'test' } });
    withMeta.save(file);
    const loaded = EntityIndex.load(file);
    assert.equal(loaded.size, withMeta.size);
    assert.equal(loaded.entityCount, withMeta.entityCount);
    assert.deepEqual(loaded.meta, { store: 'test' });
    for (const q of ['Forrest Gump', 'Forest Gump', 'Amelie', 'tom hanks', 'Godfather 2', 'Robert Zem']) {
      assert.deepEqual(loaded.search(q, { k: 3, threshold: 0 }), withMeta.search(q, { k: 3, threshold: 0 }), q);
    }
    const stale = JSON.parse(fs.readFileSync(file, 'utf8'));
    stale.normalization = 1;
    fs.writeFileSync(file, JSON.stringify(stale));
    assert.throws(() => EntityIndex.load(file), (e: { code?: string }) => e.code === 'DATA_FORMAT', 'an index with other normalisation is not trusted');
    fs.writeFileSync(file, '{"format":"something-else"}');
    assert.throws(() => EntityIndex.load(file), (e: { code?: string }) => e.code === 'DATA_FORMAT');
    fs.writeFileSync(file, '{not json');
    assert.throws(() => EntityIndex.load(file), (e: { code?: string }) => e.code === 'DATA_FORMAT');
  });
});

describe('ground: token index (candidate generation)', () => {
  it('answers a query of only common words by intersection, and rare words first', () => {
    const norms: string[] = [];
    for (let i = 0; i < 5000; i++) norms.push(`the love ${i % 7 === 0 ? 'war' : 'story'} number${i}`);
    norms.push('the love war');
    norms.push('kaleidoscope');
    const ti = new TokenIndex(norms);
    const hits = ti.search('the love war', 5);
    assert.ok(hits.length > 0);
    assert.ok(hits.map((h) => h.doc).includes(5000), 'the shortest label with all three words is among the best');
    assert.equal(ti.search('kaleidoscop', 1)[0]!.doc, 5001, 'typo of a rare word');
    assert.equal(ti.search('number4242', 1)[0]!.doc, 4242);
  });

  it('typo tolerance is core typoEdits: none under 4 letters, one from 4, two from 7 (as the abstention reads words)', () => {
    const ti = new TokenIndex(['gondolier canal', 'marsh heron', 'fig tree']);
    assert.deepEqual(ti.typoNeighbours('gondoleir').map((n) => n.word), ['gondolier']); // 9 letters, two edits
    assert.deepEqual(ti.typoNeighbours('haron').map((n) => n.word), ['heron']); // 5 letters, one edit
    assert.deepEqual(ti.typoNeighbours('mrahs'), []); // 5 letters, three edits
    assert.deepEqual(ti.typoNeighbours('fog'), []); // 3 letters: no typo reading
    // 7 letters, two edits: the entity index now reads it as the abstention's sameWord always did ("stephen" ~ "steven")
    const names = new TokenIndex(['steven marsh']);
    assert.deepEqual(names.typoNeighbours('stephen').map((n) => n.word), ['steven']);
    assert.equal(typoEdits(3), 0);
    assert.equal(typoEdits(4), 1);
    assert.equal(typoEdits(7), 2);
  });
});

describe('ground: entity linking in a free question', () => {
  const index = EntityIndex.build(LABELS);
  it('links the longest exact span, case as written', () => {
    const links = linkEntities('who directed Forrest Gump?', index);
    assert.equal(links[0]?.iri, E('Forrest Gump'));
    assert.deepEqual(links[0].span, { start: 2, end: 4 });
    const tom = linkEntities('what did Tom Hanks star in', index);
    assert.equal(tom[0]?.label, 'Tom Hanks');
  });
  it('prefers a fuzzy multi-word span over an exact single word inside it', () => {
    const links = linkEntities('which films share actors with Forest Gump', index);
    assert.equal(links[0]?.iri, E('Forrest Gump'));
    assert.ok(!links.some((l) => l.iri === E('forest')));
  });
  it('links nothing in a question without entities', () => {
    assert.deepEqual(linkEntities('what is the meaning of it all', index), []);
  });
});

describe('ground: pluggable scorers', () => {
  it('dense scorer (averaged word vectors from a text file) ranks by meaning when plugged in', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-vec-'));
    const file = path.join(dir, 'vectors.txt');
    fs.writeFileSync(file, ['film 1 0 0', 'movie 0.95 0.05 0', 'picture 0.9 0.1 0', 'car 0 0 1', 'automobile 0 0.05 0.95'].join('\n'));
    const vec = AveragedWordVectors.fromFile(file);
    assert.equal(vec.dim, 3);
    assert.equal(vec.embed('zzz'), null);
    const dense = denseScorer(vec);
    assert.ok(dense.score({ query: 'movie', label: 'film', bm25: 0 }) > 0.9);
    assert.ok(dense.score({ query: 'movie', label: 'car', bm25: 0 }) < 0.1);
    const index = EntityIndex.build([
      { iri: E('film'), label: 'film' },
      { iri: E('car'), label: 'car' },
      { iri: E('automobile'), label: 'automobile' },
    ]);
    // "automobil" (typo): fuzzy alone prefers automobile; the dense part can only rescore candidates the token index found
    const scorer = combineScorers([
      { scorer: fuzzyScorer, weight: 0.5 },
      { scorer: dense, weight: 0.5 },
    ]);
    const hits = index.search('automobil', { scorer, threshold: 0 });
    assert.equal(hits[0]?.iri, E('automobile'));
    assert.match(scorer.name, /fuzzy\*0.5\+dense\*0.5/);
  });
});

describe('ground: Algorithm 1 repairs copy errors with the question (fixed-beam generator)', () => {
  const index = EntityIndex.build(LABELS);
  const ctx = (question: string) => ({ index, vocabularyNamespace: 'http://example.org/r/', question });
  const cand = (text: string, logProb = -0.1) => [{ form: parseForm(text), text, logProb, rank: 0 }];
  async function first(gen: AsyncGenerator<GroundAttempt>): Promise<GroundAttempt | undefined> {
    const r = await gen.next();
    await gen.return(undefined);
    return r.done ? undefined : r.value;
  }

  it('a copy cut short that is itself a label yields to the longer mention in the question', async () => {
    const a = await first(groundCandidates(cand('(JOIN (R directed_by) [ The Godfather ])'), ctx('who directed The Godfather Part II')));
    assert.ok(a);
    assert.equal(a.phase, 'exact');
    assert.ok(a.text.includes(E('The Godfather Part II')), a.text);
    const b = await first(groundCandidates(cand('(JOIN (R directed_by) [ The Godfather ])'), ctx('who directed The Godfather')));
    assert.ok(b && b.text.includes(`<${E('The Godfather')}>`) && b.entityScores[0] === 1);
  });

  it('a garbled copy that is not in the question is grounded through the question\'s entity links', async () => {
    const a = await first(groundCandidates(cand('(JOIN (R directed_by) [ Schindlr Lst ])'), ctx("who directed Schindler's List")));
    assert.ok(a);
    assert.equal(a.phase, 'entity');
    assert.ok(a.text.includes(E("Schindler's List")), a.text);
  });
});

describe('ground: a CONTAINS text is copied like a label but never grounded ([38])', () => {
  const index = EntityIndex.build(LABELS);
  it('the entity grounds; the text stays the question\'s words even when it spells a label (fixed-beam generator)', async () => {
    const text = '(AND (JOIN starred_actors [ Tom Hanks ]) (CONTAINS [ forest ]))';
    const gen = groundCandidates([{ form: parseForm(text), text, logProb: -0.1, rank: 0 }], { index, vocabularyNamespace: 'http://example.org/r/', question: 'Tom Hanks films with forest in the title' });
    const a = (await gen.next()).value as GroundAttempt;
    await gen.return(undefined);
    assert.ok(a.text.includes(`<${E('Tom Hanks')}>`), a.text);
    assert.ok(a.text.endsWith('(CONTAINS [ forest ]))'), a.text);
    assert.ok(!a.text.includes(E('forest')), a.text);
    assert.equal(a.entityScores.length, 1, 'one entity slot: the text is no slot');
    const c = a.form.kind === 'and' ? a.form.args[1] : undefined;
    assert.deepEqual(c, { kind: 'contains', text: 'forest' });
  });
  it('a form whose only copied span is a CONTAINS text needs no entity at all', async () => {
    const text = '(CONTAINS [ zzqx ])';
    const gen = groundCandidates([{ form: parseForm(text), text, logProb: -0.1, rank: 0 }], { index, vocabularyNamespace: 'http://example.org/r/', question: 'names with zzqx in them' });
    const a = (await gen.next()).value as GroundAttempt | undefined;
    await gen.return(undefined);
    assert.ok(a?.text === text, a?.text);
  });
});

describe('ground: copy-error corner cases', () => {
  const index = EntityIndex.build([...LABELS, { iri: E('What'), label: 'What' }, { iri: E("What's Eating Gilbert Grape"), label: "What's Eating Gilbert Grape" }, { iri: E('-'), label: '-' }]);
  it('a label that normalises to nothing matches nothing', () => {
    assert.deepEqual(index.exact('-'), []);
    assert.deepEqual(index.search(' - '), []);
    assert.equal(index.hasExact(''), false);
  });
  it('every occurrence of a cut copy is considered (question word vs. title start) (fixed-beam generator)', async () => {
    const gen = groundCandidates(
      [{ form: parseForm('(JOIN (R has_genre) [ What ])'), text: '(JOIN (R has_genre) [ What ])', logProb: -0.1, rank: 0 }],
      { index, vocabularyNamespace: 'http://example.org/r/', question: "what genre of film is What's Eating Gilbert Grape" },
    );
    const a = (await gen.next()).value as GroundAttempt;
    await gen.return(undefined);
    assert.ok(a.text.includes(E("What's Eating Gilbert Grape")), a.text);
  });
});
