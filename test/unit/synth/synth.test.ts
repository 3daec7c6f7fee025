import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { packageRoot } from '../../../src/core';
import { compileForm } from '../../../src/compile';
import { openExecutor, runCompiled } from '../../../src/execute';
import { parseForm } from '../../../src/form';
import {
  buildLexicon,
  mergeLexicon,
  readLexicon,
  readSchema,
  printSForm,
  renderQuestion,
  Rng,
  Sampler,
  synthesize,
  SynthStore,
  writeLexicon,
  type Schema,
  type SchemaProperty,
  type SynthOperator,
} from '../../../src/synth';
import { cli } from '../../helpers/cli';

import { fixtureStores, LABEL, MOVIES, MUSEUMS, museumSchema, moviesSchema, prop } from './schemas';

/** Every operator the museums fixture can have: no two attributes of one class on one scale, so no 'attrcompare'. */
const ALL_OPERATORS: SynthOperator[] = ['join1', 'join2', 'join3', 'class', 'and', 'count', 'argmax', 'argmin', 'compare', 'range', 'ask', 'diff', 'aggregate', 'ratio', 'mostcommon', 'argmaxcount', 'compare2',
  'table', 'group', 'having', 'topk', 'countcompare', 'contains', 'percent'];

function mentionsOf(form: string): string[] {
  return [...form.matchAll(/\[ ((?:[^\]\\]|\\.)*) \]/g)].map((m) => m[1]!.replace(/\\(.)/g, '$1'));
}

describe('synth: lexicon', () => {
  it('verbalises properties by the shape of their labels, with WordNet agent nouns and wh-words', () => {
    const lex = buildLexicon(moviesSchema());
    const d = lex.properties.directed_by!;
    assert.equal(d.shape, 'passive');
    assert.deepEqual(d.object.singular.slice(0, 1), ['director']); // WordNet: direct → director (noun.person)
    assert.equal(d.wh, 'who');
    assert.equal(d.verb?.lemma, 'direct');
    assert.ok(d.objectQ.some((t) => t.startsWith('{wh} directed {x}')));
    assert.equal(lex.properties.written_by!.object.singular[0], 'writer');
    assert.equal(lex.properties.written_by!.verb?.participle, 'written');
    assert.equal(lex.properties.has_genre!.shape, 'noun');
    assert.equal(lex.properties.has_genre!.object.singular[0], 'genre');
    assert.equal(lex.properties.release_year!.wh, 'when');
    assert.ok(lex.properties.release_year!.objectQ.includes('when was {x} released'));
    const m = buildLexicon(museumSchema());
    assert.equal(m.properties.locatedIn!.shape, 'prep');
    assert.equal(m.properties.locatedIn!.wh, 'where'); // city: noun.location
    assert.deepEqual(m.classes.City!.plural.slice(0, 1), ['cities']);
    assert.equal(m.properties.foundedBy!.object.singular[0], 'founder');
    assert.equal(m.properties.population!.valueKind, 'number');
  });

  it('reads one-word labels by their usual part of speech, inverse labels with the roles exchanged', () => {
    const base: Schema = { ...moviesSchema(), properties: [] };
    const p = (name: string, label: string, extra: Partial<SchemaProperty> = {}) => prop('http://x/' + name, name, label, extra);
    const lex = buildLexicon({
      ...base,
      properties: [p('capitalOf', 'capital of'), p('people.person.nationality', 'people.person.nationality'), p('borders', 'borders'), p('children', 'children'), p('flowsThrough', 'flows through'), p('plays_in_club', 'plays in club'), p('plays_in_club_inverse', 'plays in club inverse'), p('is_aged', 'is aged', { valueKind: 'number', objectKind: 'literal' })],
    });
    assert.equal(lex.properties.borders!.shape, 'verb'); // "which states border Texas"
    assert.equal(lex.properties.children!.shape, 'noun'); // "children of X", not "X childs"
    assert.deepEqual(lex.properties.children!.object.plural.slice(0, 1), ['children']);
    assert.equal(lex.properties.flowsThrough!.verb?.particle, 'through');
    const club = lex.properties.plays_in_club!;
    assert.deepEqual([club.shape, club.subject.singular[0], club.object.singular[0], club.swh], ['verb', 'player', 'club', 'who']);
    const inv = lex.properties.plays_in_club_inverse!;
    assert.equal(inv.subject.singular[0], 'club');
    assert.equal(inv.object.singular[0], 'player');
    assert.ok(inv.objectQ.some((t) => /^\{wh\} plays in \{x\}$/.test(t)), inv.objectQ.join(' | '));
    assert.equal(lex.properties.is_aged!.object.singular[0], 'age');
    assert.equal(lex.properties.is_aged!.wh, 'what');
    assert.equal(lex.properties.capitalOf!.shape, 'nounOf'); // "what is the capital of X", "what is X the capital of"
    assert.deepEqual(lex.properties.capitalOf!.subject.singular, ['capital']);
    assert.ok(lex.properties.capitalOf!.objectQ.includes('what is {x} the {s} of'));
    assert.equal(lex.properties['people.person.nationality']!.object.singular[0], 'nationality');
  });

  it('a place in either of its two commonest readings is asked with "where", around one entity and around a nested set', () => {
    // country: first a nation (noun.group), then its territory (noun.location); club: an organisation, never a place
    const T = 'http://example.org/teams/';
    const p = (name: string, label: string) => prop(T + name, name, label, { functional: true });
    const lex = buildLexicon({ ...moviesSchema(), classes: [], properties: [p('memberOf', 'member of club'), p('clubInCountry', 'is in country')] });
    assert.equal(lex.properties.clubInCountry!.shape, 'prep');
    assert.equal(lex.properties.clubInCountry!.wh, 'where');
    assert.ok(lex.properties.clubInCountry!.objectQ.includes('where is {x}'), lex.properties.clubInCountry!.objectQ.join(' | '));
    assert.notEqual(lex.properties.memberOf!.wh, 'where');
    const x = { op: 'ent' as const, iri: T + 'person/1', label: 'Ines Varga' };
    const nested = { op: 'join' as const, rel: { prop: 'clubInCountry', iri: T + 'clubInCountry', inv: true }, arg: { op: 'join' as const, rel: { prop: 'memberOf', iri: T + 'memberOf', inv: true }, arg: x } };
    const templates = new Set<string>();
    for (let seed = 1; seed <= 300; seed++) templates.add(renderQuestion(nested, lex, new Rng(seed))?.template ?? '');
    assert.ok(templates.has('nested:where is {x}'), [...templates].join(' | '));
  });

  it('reads a user-edited lexicon file back; its entries win and its phrasings are used', async () => {
    const schema = museumSchema();
    const generated = buildLexicon(schema);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-lex-'));
    const file = path.join(dir, 'lexicon.json');
    writeLexicon(file, generated);
    const edited = JSON.parse(fs.readFileSync(file, 'utf8'));
    edited.classes.Museum.singular = ['exhibition hall'];
    edited.classes.Museum.plural = ['exhibition halls'];
    edited.properties.foundedBy.objectQ = ['who set up {x}'];
    fs.writeFileSync(file, JSON.stringify({ properties: { foundedBy: edited.properties.foundedBy }, classes: { Museum: edited.classes.Museum } }));
    const merged = mergeLexicon(generated, readLexicon(file));
    assert.deepEqual(merged.properties.foundedBy!.objectQ, ['who set up {x}']);
    assert.deepEqual(merged.properties.locatedIn, generated.properties.locatedIn); // untouched entries stay
    const rng = new Rng(3);
    const only = { ...merged, properties: { ...merged.properties, foundedBy: { ...merged.properties.foundedBy!, objects: [] } } };
    const qs: string[] = [];
    for (let i = 0; i < 20; i++) {
      const q = renderQuestion({ op: 'join', rel: { prop: 'foundedBy', iri: MUSEUMS + 'foundedBy', inv: true }, arg: { op: 'ent', iri: MUSEUMS + 'museum/0', label: 'Royal Museum' } }, only, rng);
      if (q) qs.push(q.question);
    }
    assert.ok(qs.length > 0 && qs.every((q) => /who set up/i.test(q)), qs.join(' | '));
    const executor = await openExecutor(path.join(packageRoot(), 'fixtures/synth/museums.ttl'));
    try {
      const { examples } = await synthesize(executor, schema, merged, { count: 150, seed: 5, weights: { class: 30 } });
      assert.ok(examples.some((e) => /exhibition halls?/i.test(e.question)), 'the edited class noun is used');
      assert.ok(!examples.some((e) => /\bmuseums?\b/i.test(e.question.replace(/\[.*?\]/g, '')) && !e.form.includes('[')), 'the generated noun is replaced');
    } finally {
      await executor.close();
    }
  });

  it('refuses a malformed lexicon file with DATA_FORMAT', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-lex-'));
    const file = path.join(dir, 'bad.json');
    fs.writeFileSync(file, JSON.stringify({ properties: { foundedBy: { objectQ: 'not a list' } } }));
    assert.throws(() => readLexicon(file), (e: { code?: string }) => e.code === 'DATA_FORMAT');
    fs.writeFileSync(file, '{ nope');
    assert.throws(() => readLexicon(file), (e: { code?: string }) => e.code === 'DATA_FORMAT');
    assert.throws(() => readLexicon(path.join(dir, 'missing.json')), (e: { code?: string }) => e.code === 'NOT_FOUND');
  });
});

describe('synth: one entity in two roles, yes/no comparisons of two entities, "worked with" chains', () => {
  const lex = buildLexicon(moviesSchema());
  const rel = (name: string, inv = false) => ({ prop: name, iri: MOVIES + name, inv });
  const ent = (label: string) => ({ op: 'ent' as const, iri: 'http://askgraph.dev/movies/entity/' + encodeURIComponent(label), label });
  const render = (f: Parameters<typeof renderQuestion>[0], n = 60) => {
    const out = [];
    for (let seed = 1; seed <= n; seed++) {
      const r = renderQuestion(f, lex, new Rng(seed));
      // keyboard slips aside: "affter" is still "after" to a reader, not to the regular expressions below
      if (r && !r.noise.includes('word-typo')) out.push(r);
    }
    return out;
  };

  it('AND / DIFF of two relations to one person read as two roles of that person, with one mention', () => {
    const x = ent('Ada Lind');
    const both = render({ op: 'and', a: { op: 'join', rel: rel('directed_by'), arg: x }, b: { op: 'join', rel: rel('written_by'), arg: x } });
    const not = render({ op: 'diff', a: { op: 'join', rel: rel('directed_by'), arg: x }, b: { op: 'join', rel: rel('starred_actors'), arg: x } });
    assert.ok(both.some((r) => r.template.startsWith('and:two-roles')), 'two-role phrasing for AND');
    assert.ok(not.some((r) => r.template.startsWith('diff:two-roles')), 'two-role phrasing for DIFF');
    for (const r of [...both, ...not].filter((r) => r.template.includes('two-roles'))) {
      const m = r.mentions.get(x.iri)!;
      assert.equal(r.question.split(m).length - 1, 1, `one mention: ${r.question}`);
    }
    for (const r of not.filter((r) => r.template.includes('two-roles'))) assert.match(r.question, /\bnot\b|n't\b/, r.question);
  });

  it('(ASK (AND A (ARGMAX (OR A B) year))) reads as "is A newer / later than B", the member first', () => {
    const a = ent('Blue Harbour');
    const b = ent('Grey Mile');
    const max = render({ op: 'ask', arg: { op: 'and', a, b: { op: 'arg', max: true, arg: { op: 'or', a, b }, rel: rel('release_year') } } });
    const min = render({ op: 'ask', arg: { op: 'and', a, b: { op: 'arg', max: false, arg: { op: 'or', a, b }, rel: rel('release_year') } } });
    assert.ok(max.length > 0 && min.length > 0);
    for (const r of max) {
      assert.match(r.question, /newer|more recent|later|after/i, r.question);
      const [ma, mb] = [r.mentions.get(a.iri)!, r.mentions.get(b.iri)!];
      assert.ok(r.question.indexOf(ma) < r.question.indexOf(mb), r.question);
    }
    for (const r of min) assert.match(r.question, /older|earlier|before/i, r.question);
  });

  it('a one-word kind of the same sort as the things it classifies is said as a plural head ("comedies"), others never', () => {
    // subjects named "movies" (as the movies pack's lexicon does): a comedy is a kind of movie in WordNet's sense
    const named = mergeLexicon(lex, { format: 'askgraph-lexicon/1', thing: { singular: ['movie'], plural: ['movies'] } });
    const genre = (label: string) => {
      const out = [];
      for (let seed = 1; seed <= 200; seed++) {
        const r = renderQuestion({ op: 'join', rel: rel('has_genre'), arg: ent(label) }, named, new Rng(seed));
        if (r) out.push(r);
      }
      return out;
    };
    const comedy = genre('Comedy').filter((r) => r.noise.includes('plural-head'));
    assert.ok(comedy.length > 0, 'some "comedies"');
    for (const r of comedy) {
      assert.match(r.mentions.get(ent('Comedy').iri)!, /^comedies$/i);
      assert.ok(r.question.toLowerCase().includes('comedies'), r.question);
    }
    assert.ok(!genre('Action').some((r) => r.noise.includes('plural-head')), 'never "actions"');
    // WordNet writes this kind capitalised beside a common name ("Western", "horse opera"): a kind, not a proper name
    assert.ok(genre('Western').some((r) => r.noise.includes('plural-head') && /^westerns$/i.test(r.mentions.get(ent('Western').iri)!)), 'some "westerns"');
    assert.ok(!genre('French').some((r) => r.noise.includes('plural-head')), 'never "frenches"');
  });

  it('the same two-hop path from two people: "actors who were in both a movie directed by X and one by Y", one mention each', () => {
    const [x, y] = [ent('Ada Lind'), ent('Bo Marsh')];
    const path = (e: ReturnType<typeof ent>) => ({ op: 'join' as const, rel: rel('starred_actors', true), arg: { op: 'join' as const, rel: rel('directed_by'), arg: e } });
    const both = render({ op: 'and', a: path(x), b: path(y) }, 120).filter((r) => r.template.startsWith('and:both-chains'));
    const not = render({ op: 'diff', a: path(x), b: path(y) }, 120).filter((r) => r.template.startsWith('diff:both-chains'));
    assert.ok(both.length > 0 && not.length > 0, 'both-chains phrasings for AND and DIFF');
    for (const r of [...both, ...not]) {
      const word = (e: ReturnType<typeof ent>) => new RegExp(`\\b${r.mentions.get(e.iri)!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'g');
      for (const e of [x, y]) assert.equal(r.question.match(word(e))?.length, 1, `one mention each: ${r.question}`);
      assert.ok(r.question.search(word(x)) < r.question.search(word(y)), r.question);
    }
    for (const r of not) assert.match(r.question, /\bnot\b|\bnever\b/, r.question);
  });

  it('a negated kind is said with the head noun: "X movies that aren\'t comedy movies" / "… that aren\'t comedies"', () => {
    const named = mergeLexicon(lex, { format: 'askgraph-lexicon/1', thing: { singular: ['movie'], plural: ['movies'] } });
    const f = { op: 'diff' as const, a: { op: 'join' as const, rel: rel('starred_actors'), arg: ent('Ada Lind') }, b: { op: 'join' as const, rel: rel('has_genre'), arg: ent('Comedy') } };
    const out = [];
    for (let seed = 1; seed <= 300; seed++) {
      const r = renderQuestion(f, named, new Rng(seed));
      if (r && r.template.endsWith(':kind') && !r.noise.includes('word-typo')) out.push(r);
    }
    assert.ok(out.length > 0);
    const comedy = ent('Comedy').iri;
    for (const r of out) {
      const m = r.mentions.get(comedy)!;
      assert.ok(new RegExp(`(n't|not|other than|excluding|except) ${m}( movies)?\\b`, 'i').test(r.question), r.question);
    }
    assert.ok(out.some((r) => /^comedies$/i.test(r.mentions.get(comedy)!)), 'some plural heads');
  });

  it('keyboard slips land outside the names: the mention is intact, one other word differs by one edit', () => {
    const x = ent('Ada Lind');
    const slips = [];
    for (let seed = 1; seed <= 400; seed++) {
      const r = renderQuestion({ op: 'join', rel: rel('directed_by'), arg: x }, lex, new Rng(seed));
      if (r?.noise.includes('word-typo')) slips.push(r);
    }
    assert.ok(slips.length >= 5 && slips.length <= 80, `about 6% slips: ${slips.length}`);
    for (const r of slips) assert.ok(r.question.includes(r.mentions.get(x.iri)!), r.question);
  });

  it('people who share a movie with X: "which directors has X worked with"; never for years', () => {
    const x = ent('Ada Lind');
    const people = render({ op: 'join', rel: rel('directed_by', true), arg: { op: 'join', rel: rel('starred_actors'), arg: x } }, 120);
    assert.ok(people.some((r) => r.template.startsWith('worked-with:who') && /worked with|work with/.test(r.question)));
    const years = render({ op: 'join', rel: rel('release_year', true), arg: { op: 'join', rel: rel('starred_actors'), arg: x } }, 120);
    assert.ok(!years.some((r) => r.template.startsWith('worked-with')));
  });
});

describe('synth: sampling and rendering over a real Oxigraph store', function () {
  this.timeout(120000);
  const stores = fixtureStores();

  it('every operator is produced on a typed graph with values, and every sampled form executes with an answer', async () => {
    const schema = museumSchema();
    const store = new SynthStore(stores.museums(), schema);
    const sampler = new Sampler(store, new Rng(11));
    assert.deepEqual(sampler.operators().sort(), [...ALL_OPERATORS].sort());
    const fresh = new SynthStore(stores.museums(), schema); // no cache shared with the sampler
    for (const op of ALL_OPERATORS) {
      let got = 0;
      for (let i = 0; i < 80 && got < 3; i++) {
        const s = await sampler.sample(op);
        if (!s) continue;
        got++;
        const again = await fresh.run(s.form);
        if (again.type === 'set') assert.ok(again.items.length > 0, `${op}: ${printSForm(s.form)} has answers`);
        if (again.type === 'table') assert.ok(again.rows.length > 0, `${op}: ${printSForm(s.form)} has rows`);
        if (['table', 'group', 'having', 'topk'].includes(op)) assert.equal(again.type, 'table', `${op}: ${printSForm(s.form)}`);
        if (op === 'countcompare') assert.equal(again.type, 'bool');
        if (again.type === 'num') assert.ok(Number.isFinite(again.value), `${op}: ${printSForm(s.form)} is a number`);
        if (op === 'count' || op === 'aggregate' || op === 'ratio') assert.equal(again.type, 'num');
        if (op === 'ask') assert.equal(again.type, 'bool');
        // and directly through src/compile + src/execute, without the synth store
        const out = await runCompiled(stores.museums(), compileForm(parseForm(printSForm(s.form)), { labelPredicates: [LABEL] }));
        assert.equal(out.status, 'answers', `${printSForm(s.form)} answers on the store`);
      }
      assert.ok(got > 0, `operator ${op} was sampled`);
    }
  });

  it('ASK questions are true and false about equally often', async () => {
    const sampler = new Sampler(new SynthStore(stores.museums(), museumSchema()), new Rng(5));
    let yes = 0;
    let n = 0;
    for (let i = 0; i < 60; i++) {
      const s = await sampler.sample('ask');
      if (s?.answer.type !== 'bool') continue;
      n++;
      if (s.answer.value) yes++;
    }
    assert.ok(n >= 30, `${n} ASK forms`);
    assert.ok(yes / n > 0.25 && yes / n < 0.75, `${yes} of ${n} true`);
    // one form per fact: membership is always (ASK (AND [member] (JOIN r [entity]))), never through (R r)
    const lex = buildLexicon(museumSchema());
    const { examples } = await synthesize(stores.museums(), museumSchema(), lex, { count: 200, seed: 2, weights: { ask: 100 } });
    const asks = examples.filter((e) => e.operator === 'ask');
    assert.ok(asks.length > 50);
    for (const e of asks) assert.match(e.form, /^\(ASK \(AND \[ [^\]]+ \] \((JOIN [A-Za-z]+ \[|[GL][TE] )/, e.form);
  });

  it('synthesize: mentions are substrings of the questions, forms parse, deterministic for a seed', async function () {
    const schema = museumSchema();
    const lex = buildLexicon(schema);
    const a = await synthesize(stores.museums(), schema, lex, { count: 300, seed: 7 });
    const b = await synthesize(stores.museums(), schema, lex, { count: 300, seed: 7 });
    const c = await synthesize(stores.museums(), schema, lex, { count: 300, seed: 8 });
    assert.equal(a.examples.length, 300);
    assert.deepEqual(
      a.examples.map((e) => [e.question, e.form]),
      b.examples.map((e) => [e.question, e.form]),
    );
    assert.notDeepEqual(
      a.examples.map((e) => e.question),
      c.examples.map((e) => e.question),
    );
    for (const e of a.examples) {
      for (const m of mentionsOf(e.form)) assert.ok(e.question.includes(m), `"${m}" in "${e.question}"`);
      assert.ok(e.answerCount >= 1);
      parseForm(e.form); // the output form (names, mentions) is in the form language
      assert.ok(!e.question.includes('\u27e6'), 'no placeholder left');
      assert.ok(e.question.split(' ').length <= 30, e.question);
    }
    const ops = new Set(a.examples.map((e) => e.operator));
    assert.ok(ops.size >= 14, `operators in 300 examples: ${[...ops].join(' ')}`);
    // noise users make
    assert.ok(a.examples.some((e) => e.noise?.includes('typo')));
    assert.ok(a.examples.some((e) => e.noise?.includes('lowercase')));
    assert.ok(a.examples.some((e) => e.question === e.question.toLowerCase()) && a.examples.some((e) => e.question !== e.question.toLowerCase()));
    assert.ok(a.stats.templates >= 60, `${a.stats.templates} templates`);
  });

  it('stopWhen (init\'s time share) ends synthesis with the pairs made so far: a prefix of the unstopped run, marked stoppedAtBudget', async () => {
    const schema = museumSchema();
    const lex = buildLexicon(schema);
    const full = await synthesize(stores.museums(), schema, lex, { count: 120, seed: 11 });
    assert.equal(full.examples.length, 120);
    assert.equal(full.stats.stoppedAtBudget, undefined);
    let asked = 0;
    const cut = await synthesize(stores.museums(), schema, lex, { count: 120, seed: 11, stopWhen: () => ++asked > 15 });
    assert.equal(cut.stats.stoppedAtBudget, true);
    assert.equal(cut.stats.requested, 120);
    assert.ok(cut.examples.length > 0 && cut.examples.length < 120, `${cut.examples.length} examples`);
    assert.deepEqual(
      cut.examples.map((e) => [e.question, e.form]),
      full.examples.slice(0, cut.examples.length).map((e) => [e.question, e.form]),
    );
    // a stop that never says so: the same pairs as without it
    const never = await synthesize(stores.museums(), schema, lex, { count: 120, seed: 11, stopWhen: () => false });
    assert.equal(never.stats.stoppedAtBudget, undefined);
    assert.deepEqual(never.examples, full.examples);
  });

  it('an untyped graph: subjects named generically, objects from the relation ("director"), surnames as mentions', async () => {
    const schema = moviesSchema();
    const lex = buildLexicon(schema);
    const { examples, stats } = await synthesize(stores.movies(), schema, lex, { count: 400, seed: 3, compile: { vocabularyNamespace: MOVIES } });
    assert.ok(examples.length >= 200, `${examples.length} examples`);
    assert.equal(stats.perOperator.class, undefined, 'no class-typed answers without classes');
    assert.ok(examples.some((e) => e.question.includes('director')));
    const partial = examples.filter((e) => e.noise?.includes('partial-name'));
    assert.ok(partial.length > 0, 'some person mentions are shortened');
    for (const e of partial) for (const m of mentionsOf(e.form)) assert.ok(e.question.includes(m));
  });

  it('askgraph synth writes pairs and the chat layout; bad schema → DATA_FORMAT', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-synth-'));
    const schemaFile = path.join(dir, 'schema.json');
    fs.writeFileSync(schemaFile, JSON.stringify(museumSchema()));
    const out = path.join(dir, 'pairs.jsonl');
    const chat = path.join(dir, 'chat.jsonl');
    const lexOut = path.join(dir, 'lexicon.json');
    const r = await cli(['synth', '--store', path.join(packageRoot(), 'fixtures/synth/museums.ttl'), '--schema', schemaFile, '--out', out, '--chat', chat, '--count', '60', '--save-lexicon', lexOut, '--no-progress']);
    assert.equal(r.code, 0, r.err);
    const pairs = fs.readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(pairs.length, 60);
    assert.ok(pairs.every((p) => typeof p.question === 'string' && typeof p.form === 'string' && typeof p.operator === 'string'));
    const msgs = fs.readFileSync(chat, 'utf8').trim().split('\n').map((l) => JSON.parse(l).messages);
    assert.deepEqual(msgs[0].map((m: { role: string }) => m.role), ['system', 'user', 'assistant']);
    assert.equal(msgs[0][1].content, pairs[0].question);
    assert.equal(msgs[0][2].content, pairs[0].form);
    assert.ok(msgs[0][0].content.includes('locatedIn'));
    assert.ok(readLexicon(lexOut));
    // a pack's own lexicon.json is used without --lexicon
    const pack = path.join(dir, 'pack');
    fs.mkdirSync(pack);
    fs.copyFileSync(path.join(packageRoot(), 'fixtures/synth/museums.ttl'), path.join(pack, 'museums.ttl'));
    fs.writeFileSync(path.join(pack, 'pack.json'), JSON.stringify({ name: 'museums', data: ['museums.ttl'], baseIri: MUSEUMS, vocabularyNamespace: MUSEUMS, labelPredicates: [LABEL] }));
    fs.writeFileSync(path.join(pack, 'lexicon.json'), JSON.stringify({ classes: { City: { singular: ['township'], plural: ['townships'] } } }));
    const r2 = await cli(['synth', '--store', pack, '--schema', schemaFile, '--out', out, '--count', '200', '--no-progress']);
    assert.equal(r2.code, 0, r2.err);
    const qs2 = fs.readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l).question as string);
    assert.ok(qs2.some((q) => /townships?/i.test(q)), 'the pack lexicon renamed cities');
    fs.writeFileSync(schemaFile, JSON.stringify({ properties: 'x' }));
    const bad = await cli(['synth', '--store', path.join(packageRoot(), 'fixtures/synth/museums.ttl'), '--schema', schemaFile, '--out', out, '--no-progress']);
    assert.notEqual(bad.code, 0);
    assert.match(bad.err, /DATA_FORMAT/);
    assert.throws(() => readSchema(path.join(dir, 'none.json')), (e: { code?: string }) => e.code === 'NOT_FOUND');
  });
});
