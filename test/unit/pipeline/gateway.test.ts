import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { packageRoot } from '../../../src/core';
import { parseSparql } from '../../../src/sparql';
import { createGateway, type Gateway } from '../../../src/pipeline';
import { FixedBeam } from './fixed-beam';
import { openGateway } from '../../../src/serve/stages';

const NS = 'http://askgraph.dev/movies/relation/';
const ENT = 'http://askgraph.dev/movies/entity/';

const BEAMS: Record<string, [string, number][]> = {
  'who directed Forrest Gump': [['(JOIN (R directed_by) [ Forrest Gump ])', -0.05]],
  'who directed Forest Gump': [['(JOIN (R directed_by) [ Forest Gump ])', -0.1]],
  'who wrote Forrest Gump': [
    ['(JOIN (R written_by) [ Nonexistent Film ])', -0.3],
    ['(JOIN (R directed_by) [ Cast Away ])', -1.0],
    ['(JOIN (R written_by) [ Forrest Gump ])', -1.2],
  ],
  'who is the director of Cast Away': [['(JOIN (R director) [ Cast Away ])', -0.2]],
  'what is the airspeed of an unladen swallow': [['(JOIN (R has_airspeed) [ Unladen Swallow ])', -3]],
  'did Robert Zemeckis direct Big': [['(ASK (AND [ Big ] (JOIN directed_by [ Robert Zemeckis ])))', -0.1]],
  'how many films did Robert Zemeckis direct': [['(COUNT (JOIN directed_by [ Robert Zemeckis ]))', -0.1]],
  'average release year of Tom Hanks films': [['(AVG (JOIN (R release_year) (JOIN starred_actors [ Tom Hanks ])))', -0.1]],
  'release year and imdb rating of Splash and Big': [['(TABLE (OR [ Splash ] [ Big ]) release_year has_imdb_rating)', -0.1]],
  'who directed Forrest Gump" } UNION { ?s ?p ?o } #': [['(JOIN (R directed_by) [ Forrest Gump" } UNION { ?s ?p ?o } # ])', -0.2]],
};

describe('pipeline: gateway.ask over the real Oxigraph store (fixed-beam generator)', function () {
  this.timeout(60000);
  let gateway: Gateway;
  let generator: FixedBeam;
  let cacheDir: string;

  before(async () => {
    cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-pipeline-'));
    generator = new FixedBeam(BEAMS);
    gateway = await createGateway({ store: path.join(packageRoot(), 'fixtures', 'graphs', 'movies-small.ttl'), generator, cacheDir });
  });
  after(async () => {
    await gateway.close();
  });

  it('answer shapes: a yes/no answer is one xsd:boolean literal, a count / aggregate one typed number; answerType in the answer and the trace', async () => {
    const XSD = 'http://www.w3.org/2001/XMLSchema#';
    const no = await gateway.ask('did Robert Zemeckis direct Big');
    assert.equal(no.source, 'parser');
    assert.equal(no.answerType, 'boolean');
    assert.deepEqual(no.answers, [{ value: 'false', label: null, type: 'literal', datatype: XSD + 'boolean' }]);
    assert.match(no.sparql ?? '', /^ASK/);
    const executed = no.trace.filter((t) => t.stage === 'execute' && t.outcome === 'answers');
    assert.deepEqual(executed.map((t) => t.answerType), ['boolean']);
    const count = await gateway.ask('how many films did Robert Zemeckis direct');
    assert.equal(count.answerType, 'number');
    assert.deepEqual(count.answers, [{ value: '5', label: null, type: 'literal', datatype: XSD + 'integer' }]);
    const avg = await gateway.ask('average release year of Tom Hanks films');
    assert.equal(avg.answerType, 'number');
    assert.equal(avg.answers.length, 1);
    assert.equal(avg.answers[0]!.datatype, XSD + 'decimal');
    assert.ok(Math.abs(Number(avg.answers[0]!.value) - 1992.8889) < 0.001, avg.answers[0]!.value);
    const set = await gateway.ask('who directed Forrest Gump');
    assert.equal(set.answerType, 'entities');
  });

  it('a table form answers with Answer.table: a row per member, columns in order, an empty cell (null) for a missing OPTIONAL value', async () => {
    const a = await gateway.ask('release year and imdb rating of Splash and Big');
    assert.equal(a.source, 'parser', JSON.stringify(a.trace.map((t) => [t.stage, t.outcome, t.note])));
    assert.equal(a.answerType, 'table');
    assert.ok(a.table, 'no table in the answer');
    assert.deepEqual(a.table.columns.map((c) => c.label), ['answer', 'release year', 'has imdb rating']);
    const text = (c: (typeof a.table.rows)[number][number]) => (c === null ? null : (c.label ?? c.value));
    assert.deepEqual(a.table.rows.map((r) => r.map(text)), [
      ['Big', '1988', null],
      ['Splash', '1984', 'good'],
    ]);
    // answers: the row keys, so a client that reads only `answers` still sees them
    assert.deepEqual(a.answers.map((x) => x.label), ['Big', 'Splash']);
    assert.match(a.sparql ?? '', /OPTIONAL/);
  });

  it('answers from an exact beam form, with form, grounded form, SPARQL, trace, timings and confidence', async () => {
    const a = await gateway.ask('who directed Forrest Gump');
    assert.equal(a.source, 'parser');
    assert.deepEqual(a.answers.map((x) => x.label), ['Robert Zemeckis']);
    assert.equal(a.answers[0]?.value, ENT + 'Robert%20Zemeckis');
    assert.equal(a.form, '(JOIN (R directed_by) [ Forrest Gump ])');
    assert.equal(a.groundedForm, `(JOIN (R <${NS}directed_by>) <${ENT}Forrest%20Gump>)`);
    assert.ok(a.sparql?.includes(`<${ENT}Forrest%20Gump>`));
    assert.deepEqual(a.trace.map((t) => [t.stage, t.outcome]), [['generate', 'answers'], ['execute', 'answers']]);
    assert.ok(a.confidence > 0.6 && a.confidence <= 1);
    assert.ok(a.timings.total >= a.timings.execute);
    assert.equal(a.beam.length, 1);
    assert.ok(gateway.version.startsWith(gateway.executor.id) && gateway.version.endsWith('fixed-beam'));
  });

  it('repairs a misspelt entity by entity retrieval, with a lower confidence than an exact match', async () => {
    const exact = await gateway.ask('who directed Forrest Gump');
    const a = await gateway.ask('who directed Forest Gump');
    assert.deepEqual(a.answers.map((x) => x.label), ['Robert Zemeckis']);
    assert.ok(a.trace.some((t) => t.note?.startsWith('entity')));
    assert.ok(a.confidence < exact.confidence);
  });

  it('executes in order and the first non-empty form wins; every attempt is in the trace', async () => {
    // (judging off: the first answering reading drops "Forrest Gump", which the next one uses — see below)
    const a = await gateway.ask('who wrote Forrest Gump', { noAbstain: true });
    const exec = a.trace.filter((t) => t.stage === 'execute');
    // beam 0 has no grounding at all (skipped); beam 1 (exact) runs first and answers
    assert.equal(exec[0]?.beamForm, '(JOIN (R directed_by) [ Cast Away ])');
    assert.equal(exec[0].outcome, 'answers');
    assert.equal(exec.length, 1);
    assert.deepEqual(a.answers.map((x) => x.label), ['Robert Zemeckis']);
    // best-of-n keeps executing and picks the best combined score among answering forms
    const b = await gateway.ask('who wrote Forrest Gump', { strategy: 'best-of-n', bestOf: 2, noAbstain: true });
    assert.equal(b.trace.filter((t) => t.stage === 'execute' && t.outcome === 'answers').length, 2);
    assert.equal(b.form, '(JOIN (R directed_by) [ Cast Away ])', 'higher log-prob wins');
  });

  it('a reading that drops a name another reading of the beam uses is set aside for that one (checks.ts unusedWords)', async () => {
    const a = await gateway.ask('who wrote Forrest Gump');
    assert.equal(a.form, '(JOIN (R written_by) [ Forrest Gump ])');
    const row = a.trace.find((t) => t.check?.code === 'UNUSED_WORDS');
    assert.match(row?.note ?? '', /\(JOIN \(R directed_by\) \[ Cast Away \]\) leaves out "forrest", "gump"/);
    assert.equal(a.reason, undefined, 'the answer uses the whole question: nothing to say');
  });

  it('repairs an unknown relation by relation retrieval around the grounded entity', async () => {
    const a = await gateway.ask('who is the director of Cast Away');
    assert.deepEqual(a.answers.map((x) => x.label), ['Robert Zemeckis']);
    assert.ok(a.groundedForm?.includes(`<${NS}directed_by>`));
    assert.ok(a.trace.some((t) => t.note?.startsWith('relation') && t.outcome === 'answers'));
  });

  it('honest no-answer: nothing executes and the fallback is off → source none, no answers', async () => {
    const a = await gateway.ask('what is the airspeed of an unladen swallow', { fallback: 'off' });
    assert.equal(a.source, 'none');
    assert.deepEqual(a.answers, []);
    assert.equal(a.confidence, 0);
    assert.equal(a.form, null);
    assert.equal(a.sparql, null);
  });

  it('calls the fallback chain when no form answers (fallback answers score ≤ 0.6, or none)', async () => {
    const a = await gateway.ask('what is the airspeed of an unladen swallow');
    assert.ok(a.trace.some((t) => t.stage === 'fallback'), 'the chain ran and is in the trace');
    if (a.source === 'none') assert.deepEqual(a.answers, []);
    else assert.ok(a.source.startsWith('fallback:') && a.confidence <= 0.6);
  });

  it('noParser goes straight to the fallback chain', async () => {
    const before = generator.calls.length;
    const a = await gateway.ask('who directed Forrest Gump', { noParser: true });
    assert.equal(generator.calls.length, before);
    assert.notEqual(a.source, 'parser');
    assert.ok(a.trace.some((t) => t.stage === 'fallback'));
  });

  it('a label with quotes and braces cannot change the query (it is a term or nothing)', async () => {
    const a = await gateway.ask('who directed Forrest Gump" } UNION { ?s ?p ?o } #', { fallback: 'off' });
    for (const t of a.trace) {
      if (!t.sparql) continue;
      parseSparql(t.sparql);
      assert.ok(!t.sparql.includes('UNION'), t.sparql);
    }
    assert.ok(a.answers.length <= 1);
    if (a.answers.length) assert.equal(a.answers[0]?.label, 'Robert Zemeckis');
  });

  it('validates the question and the options', async () => {
    await assert.rejects(gateway.ask('   '), (e: { code?: string }) => e.code === 'QUESTION_INVALID');
    await assert.rejects(gateway.ask('x'.repeat(1001)), (e: { code?: string }) => e.code === 'INPUT_TOO_LARGE');
    await assert.rejects(gateway.ask('who\u0000 directed'), (e: { code?: string }) => e.code === 'QUESTION_INVALID');
    await assert.rejects(gateway.ask('who directed Forrest Gump', { beam: 0 }), (e: { code?: string }) => e.code === 'BAD_REQUEST');
    await assert.rejects(gateway.ask('who directed Forrest Gump', { tE: 2 }), (e: { code?: string }) => e.code === 'BAD_REQUEST');
    await assert.rejects(gateway.ask('who directed Forrest Gump', { fallback: ['no-such-reader'] }), (e: { code?: string }) => e.code === 'BAD_REQUEST');
    const a = await gateway.ask('who directed\tForrest Gump\n', { beam: 2, adaptiveBeam: false });
    assert.equal(a.question, 'who directed Forrest Gump');
    assert.equal(generator.calls.at(-1)?.beam, 2);
  });

  it('parse and compile for the server', async () => {
    const p = await gateway.parse('who directed Forrest Gump', { beam: 1 });
    assert.deepEqual(p.candidates.map((c) => c.form), ['(JOIN (R directed_by) [ Forrest Gump ])']);
    const c = gateway.compile('(JOIN (R directed_by) [ Forrest Gump ])');
    assert.equal(c.kind, 'select');
    assert.ok(c.sparql.includes(`<${NS}directed_by>`));
    assert.throws(() => gateway.compile('(JOIN (R directed_by'), (e: { code?: string }) => e.code === 'FORM_SYNTAX');
  });

  it('reuses the entity index cache on the next gateway (loads, does not rebuild)', async () => {
    const files = fs.readdirSync(cacheDir).filter((f) => f.startsWith('entity-index-') && f.endsWith('.json'));
    assert.equal(files.length, 1);
    const t = Date.now();
    const g2 = await createGateway({ store: path.join(packageRoot(), 'fixtures', 'graphs', 'movies-small.ttl'), generator, cacheDir });
    try {
      assert.equal(g2.index.size, gateway.index.size);
      assert.deepEqual((await g2.ask('who directed Forrest Gump')).answers.map((x) => x.label), ['Robert Zemeckis']);
    } finally {
      await g2.close();
    }
    assert.ok(Date.now() - t < 30000);
  });

  it('adaptive beam: the greedy form first; the full beam only when it does not answer', async () => {
    let from = generator.calls.length;
    const a = await gateway.ask('who directed Forrest Gump', { beam: 4 });
    assert.deepEqual(generator.calls.slice(from).map((c) => c.beam), [1]);
    assert.equal(a.source, 'parser');
    from = generator.calls.length;
    const b = await gateway.ask('who wrote Forrest Gump', { beam: 4, noAbstain: true });
    assert.deepEqual(generator.calls.slice(from).map((c) => c.beam), [1, 4]);
    assert.deepEqual(b.trace.filter((t) => t.stage === 'generate').map((t) => t.note), ['beam 1: 1 forms', 'beam 4: 3 forms']);
    from = generator.calls.length;
    await gateway.ask('who directed Forrest Gump', { beam: 4, adaptiveBeam: false });
    assert.deepEqual(generator.calls.slice(from).map((c) => c.beam), [4]);
  });

  it('confidence: 0.6 + 0.4 × P(form) × similarities', async () => {
    const a = await gateway.ask('who directed Forrest Gump');
    assert.ok(Math.abs(a.confidence - (0.6 + 0.4 * Math.exp(-0.05))) < 1e-9);
  });
});

describe('pipeline: the graph prior on the relation of an "X films" reading (real store, stand-in scorer)', function () {
  this.timeout(60_000);
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ag-prior-'));
  const store = path.join(packageRoot(), 'fixtures', 'graphs', 'movies-small.ttl');
  const beams = { 'zemeckis films': [['(JOIN written_by [ Robert Zemeckis ])', -0.6]] as [string, number][] };

  it("an unsure reading with the entity's minor relation gives way to its main one (5 films directed vs 1 written)", async () => {
    const g = await createGateway({ store, cacheDir, generator: new FixedBeam(beams, { '(JOIN directed_by [ Robert Zemeckis ])': -0.9 }, -50) });
    try {
      const a = await g.ask('zemeckis films', { fallback: 'off' });
      assert.equal(a.form, '(JOIN directed_by [ Robert Zemeckis ])');
      assert.equal(a.answers.length, 5);
      assert.ok(a.trace.some((t) => (t.note ?? '').includes('graph prior: 5 of 6 triples')), 'the trace says why');
    } finally {
      await g.close();
    }
  });

  it('a reading the parser is sure of keeps its relation', async () => {
    const g = await createGateway({ store, cacheDir, generator: new FixedBeam(beams, { '(JOIN directed_by [ Robert Zemeckis ])': -6 }, -50) });
    try {
      const a = await g.ask('zemeckis films', { fallback: 'off' });
      assert.equal(a.form, '(JOIN written_by [ Robert Zemeckis ])');
      assert.equal(a.answers.length, 1);
    } finally {
      await g.close();
    }
  });
});

describe('pipeline: readings whose entity never takes its relation are set aside (real store, fixed beams)', function () {
  this.timeout(60000);
  const LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';
  // Ada Lind stars in six dramas; a tag spelt "lind" is on one other drama; one drama has neither.
  const TITLES = ['Amber Road', 'Bitter Lake', 'Copper Sky', 'Dune Sea', 'Empty Harbor', 'Frost Line', 'Grey Orchard', 'Hollow Creek'];
  const films = TITLES.map((t, i) => `<${ENT}f${i}> <${NS}has_genre> <${ENT}Drama> ; <${LABEL}> "${t}" .`);
  const stars = Array.from({ length: 6 }, (_, i) => `<${ENT}f${i}> <${NS}starred_actors> <${ENT}AdaLind> .`);
  const TTL = [
    ...films,
    ...stars,
    `<${ENT}f6> <${NS}has_tags> <${ENT}lindTag> .`,
    `<${ENT}Drama> <${LABEL}> "Drama" .`,
    `<${ENT}AdaLind> <${LABEL}> "Ada Lind" .`,
    `<${ENT}lindTag> <${LABEL}> "lind" .`,
  ].join('\n');
  let dir: string;
  let gateway: Gateway;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-vacuous-'));
    fs.writeFileSync(path.join(dir, 'films.ttl'), TTL);
    const generator = new FixedBeam({
      'dramas without lind': [['(DIFF (JOIN has_genre [ Drama ]) (JOIN starred_actors [ lind ]))', -0.1]],
      'how many films did lind star in': [['(COUNT (JOIN starred_actors [ lind ]))', -0.1]],
      'how many actors are in Hollow Creek': [['(COUNT (JOIN (R starred_actors) [ Hollow Creek ]))', -0.1]],
    });
    gateway = await createGateway({ store: path.join(dir, 'films.ttl'), generator, cacheDir: dir });
  });
  after(async () => {
    await gateway.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a DIFF that takes nothing away (the tag "lind" never stars) gives way to the name it ends (Ada Lind)', async () => {
    const a = await gateway.ask('dramas without lind', { fallback: 'off' });
    assert.deepEqual(a.answers.map((x) => x.label).sort(), ['Grey Orchard', 'Hollow Creek']);
    assert.ok(a.trace.some((t) => t.outcome === 'skipped' && (t.note ?? '').includes('never takes its relation') && (t.groundedForm ?? '').includes('lindTag')), 'the tag reading is set aside, in the trace');
  });

  it('a count over the tag ("0") gives way the same way', async () => {
    const a = await gateway.ask('how many films did lind star in', { fallback: 'off' });
    assert.deepEqual(a.answers.map((x) => x.value), ['6']);
  });

  it('a count of an entity\'s own values that it has none of is a fact the graph lacks: no answer, not "0"', async () => {
    const a = await gateway.ask('how many actors are in Hollow Creek', { fallback: 'off' });
    assert.equal(a.source, 'none');
    assert.deepEqual(a.answers, []);
    assert.match(a.reason ?? '', /records no starred actors for "Hollow Creek"/);
  });
});

describe('pipeline: a gateway that warms at open (askgraph serve) builds the lazily built lookups before its first question', function () {
  this.timeout(60000);
  const store = path.join(packageRoot(), 'fixtures', 'graphs', 'movies-small.ttl');

  it('createGateway({ warm: true }) and the server\'s gateway have them built; a one-shot gateway leaves them lazy; answers the same', async () => {
    const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-warm-'));
    const generator = new FixedBeam(BEAMS);
    // the index is built once into the cache, then each gateway below loads it from there (lazy structures unbuilt)
    await (await createGateway({ store, generator, cacheDir })).close();
    const lazy = await createGateway({ store, generator, cacheDir });
    const warm = await createGateway({ store, generator, cacheDir, warm: true });
    try {
      assert.deepEqual(lazy.index.built, { tokens: false, iris: false });
      assert.deepEqual(warm.index.built, { tokens: true, iris: true });
      assert.ok(warm.startup?.some((p) => p.phase === 'warm'), 'the warm phase is in the startup report');
      for (const q of ['who directed Forrest Gump', 'who directed Forest Gump']) {
        const [a, b] = [await lazy.ask(q), await warm.ask(q)];
        assert.deepEqual(b.answers, a.answers, q);
        assert.ok(a.answers.length > 0, q);
      }
    } finally {
      await lazy.close();
      await warm.close();
      fs.rmSync(cacheDir, { recursive: true, force: true });
    }
    // the server opens its gateway warm (a pack is given here as the store)
    const served = (await openGateway({ store })) as unknown as Gateway;
    try {
      assert.deepEqual(served.index.built, { tokens: true, iris: true });
    } finally {
      await served.close();
    }
  });
});
