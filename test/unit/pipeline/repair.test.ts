import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { normalizeLabel } from '../../../src/core';
import { parseForm, printForm } from '../../../src/form';
import { createGateway, type Gateway } from '../../../src/pipeline';
import { FixedBeam } from './fixed-beam';
import { madeUpPackFor } from './made-up-pack';
import { leavesOut, relationPhrases, relationUnused, relationWordsOf, timesUsed, type CheckContext } from '../../../src/pipeline/checks';
import { completedMention, composed, trimmedMention, unrepeated, withHopAnywhere } from '../../../src/pipeline/repair';

/** A made-up clear reading: these words read clearly as these relations (NearGraph.clearRelation's place). */
const CLEAR: Record<string, string> = { wife: 'spouse', husband: 'spouse', nationality: 'nationality', employer: 'works_for' };
const clearRelation = (w: string) => (CLEAR[w] ? { name: CLEAR[w], note: `${CLEAR[w]} (0.90)` } : undefined);
const ctx = (question: string): CheckContext => ({ question, beam: [], clearRelation });

describe('relation words a reading leaves out (checks.ts relationUnused, repair.ts)', () => {
  it('relationWordsOf: content words outside the mentions that read clearly as a relation, one per relation', () => {
    const words = relationWordsOf('what is the nationality of the wife of the husband of Ada Brook', [{ text: 'Ada Brook', label: 'Ada Brook' }], clearRelation);
    assert.deepEqual(words.map((w) => [w.word, w.relation]), [['nationality', 'nationality'], ['wife', 'spouse']]);
    // a mention word its label spells is a name, not a relation word; one it does not spell is outside the name
    assert.deepEqual(relationWordsOf('who is Employer Bank', [{ text: 'Employer Bank', label: 'Employer Bank' }], clearRelation), []);
    assert.deepEqual(relationWordsOf("Ada Brook's wife", [{ text: "Ada Brook's wife", label: 'Ada Brook' }], clearRelation).map((w) => w.word), ['wife']);
  });

  it('relationPhrases: a relation named in separate phrases counts once per phrase; words of its own name in one phrase once', () => {
    const clear: Record<string, string> = { father: 'parents', dad: 'parents', parents: 'parents', children: 'children', son: 'children', daughter: 'children', place: 'place_of_birth', birth: 'place_of_birth', cause: 'cause_of_death', death: 'cause_of_death', football: 'plays_in_club', club: 'plays_in_club' };
    const read = (w: string) => (clear[w] ? { name: clear[w], note: `${clear[w]} (0.90)` } : undefined);
    const phrases = (q: string, m: string) => Object.fromEntries(relationPhrases(q, [{ text: m }], read));
    assert.deepEqual(phrases("Ada Brook 's father 's father", 'Ada Brook'), { parents: 2 });
    assert.deepEqual(phrases("Ada Brook 's couple 's children 's children", 'Ada Brook'), { children: 2 });
    assert.deepEqual(phrases('the son of the daughter of Ada Brook', 'Ada Brook'), { children: 2 }, 'two synonyms of the whole relation: two hops');
    assert.deepEqual(phrases("the daughter of Ada Brook 's dad", 'Ada Brook'), { children: 1, parents: 1 });
    assert.deepEqual(phrases('the place of birth of Ada Brook', 'Ada Brook'), { place_of_birth: 1 }, "words of the relation's own name: one phrase");
    assert.deepEqual(phrases("Ada Brook 's birth place", 'Ada Brook'), { place_of_birth: 1 });
    assert.deepEqual(phrases("the cause of death of Ada Brook 's parents", 'Ada Brook'), { cause_of_death: 1, parents: 1 });
    assert.deepEqual(phrases("Ada Brook 's football club", 'Ada Brook'), { plays_in_club: 1 }, 'two words next to each other: one noun phrase');
    assert.deepEqual(phrases("the club of Ada Brook 's football coach", 'Ada Brook'), { plays_in_club: 2 });
    // the word repeated, or a mention between: separate phrases
    assert.deepEqual(phrases('the place of birth of the place of Ada Brook', 'Ada Brook'), { place_of_birth: 2 });
    assert.deepEqual(relationWordsOf("what is Ada Brook 's father 's father", [{ text: 'Ada Brook', label: 'Ada Brook' }], read).map((w) => [w.word, w.times]), [['father', 2]]);
  });

  it('timesUsed: the hops of one relation along a path from the answer, not both sides of a conjunction', () => {
    assert.equal(timesUsed(parseForm('(JOIN (R parents) (JOIN (R parents) [ X ]))'), 'parents'), 2);
    assert.equal(timesUsed(parseForm('(AND (JOIN (R parents) [ X ]) (JOIN (R parents) [ X ]))'), 'parents'), 1);
    assert.equal(timesUsed(parseForm('(JOIN (R gender) (AND (JOIN (R parents) [ X ]) (JOIN parents (JOIN (R parents) [ Y ]))))'), 'parents'), 2);
    assert.equal(timesUsed(parseForm('(JOIN (R gender) [ X ])'), 'parents'), 0);
    // used (> 0) by the name the parser writes, in either direction and at any depth
    assert.equal(timesUsed(parseForm('(JOIN (R nationality) (JOIN (R spouse) [ X ]))'), 'spouse') > 0, true);
    assert.equal(timesUsed(parseForm('(JOIN spouse [ X ])'), 'spouse') > 0, true);
    assert.equal(timesUsed(parseForm('(JOIN (R nationality) [ X ])'), 'spouse') > 0, false);
  });

  it('RELATION_UNUSED: a relation the question names twice and the reading uses once', () => {
    const q = "what is the nationality of Ada Brook's husband's wife";
    const mention = { text: 'Ada Brook', label: 'Ada Brook', match: 'exact' as const };
    const read = (f: string) => ({ form: f, tree: parseForm(f), mentions: [mention] });
    const v = relationUnused(read('(JOIN (R nationality) (JOIN (R spouse) [ Ada Brook ]))'), ctx(q));
    assert.equal(v.code, 'RELATION_UNUSED');
    assert.match(v.reason!, /leaves out "husband" \(read as spouse \(0\.90\), named 2 times, used fewer\)/);
    assert.equal(relationUnused(read('(JOIN (R nationality) (JOIN (R spouse) (JOIN (R spouse) [ Ada Brook ])))'), ctx(q)).pass, true);
  });

  it('RELATION_UNUSED sets aside a reading that drops a relation the question names; a reading that uses it passes', () => {
    const q = "what is the nationality of Ada Brook's wife";
    const mention = { text: 'Ada Brook', label: 'Ada Brook', match: 'exact' as const };
    const oneHop = { form: '(JOIN (R nationality) [ Ada Brook ])', tree: parseForm('(JOIN (R nationality) [ Ada Brook ])'), mentions: [mention] };
    const v = relationUnused(oneHop, ctx(q));
    assert.equal(v.pass, false);
    assert.equal(v.code, 'RELATION_UNUSED');
    assert.deepEqual(v.words, ['wife']);
    assert.match(v.reason!, /leaves out "wife" \(read as spouse/);
    const twoHop = { form: '(JOIN (R nationality) (JOIN (R spouse) [ Ada Brook ]))', tree: parseForm('(JOIN (R nationality) (JOIN (R spouse) [ Ada Brook ]))'), mentions: [mention] };
    assert.equal(relationUnused(twoHop, ctx(q)).pass, true);
    // without a lexical reading of the graph's relations the check has nothing to say
    assert.equal(relationUnused(oneHop, { question: q, beam: [] }).pass, true);
  });

  it('leavesOut runs unusedWords (a number, a name) before relationUnused', () => {
    const r = { form: '(JOIN (R nationality) [ Ada Brook ])', tree: parseForm('(JOIN (R nationality) [ Ada Brook ])'), mentions: [{ text: 'Ada Brook', label: 'Ada Brook', match: 'exact' as const }] };
    assert.equal(leavesOut(r, ctx("what was the nationality of Ada Brook's wife in 2001")).code, 'UNUSED_WORDS');
    assert.equal(leavesOut(r, ctx("what is the nationality of Ada Brook's wife")).code, 'RELATION_UNUSED');
    assert.equal(leavesOut({ ...r, form: '(JOIN (R nationality) (JOIN (R spouse) [ Ada Brook ]))', tree: parseForm('(JOIN (R nationality) (JOIN (R spouse) [ Ada Brook ]))') }, ctx("what is the nationality of Ada Brook's wife")).pass, true);
  });

  it('a relation grounding read the parser\'s name as counts as used ("director" grounded to directed_by)', () => {
    const q = 'who is the employer of Ada Brook';
    const r = { form: '(JOIN (R employs) [ Ada Brook ])', tree: parseForm('(JOIN (R employs) [ Ada Brook ])'), mentions: [{ text: 'Ada Brook', label: 'Ada Brook', match: 'exact' as const }] };
    const named = { question: q, beam: [], clearRelation: (w: string) => (w === 'employer' ? { name: 'works_for', note: 'works for (0.90)', iri: 'http://example.org/people/works_for' } : undefined) };
    assert.equal(relationUnused(r, named).pass, false);
    assert.equal(relationUnused({ ...r, relationIris: ['http://example.org/people/works_for'] }, named).pass, true);
  });
});

describe('repair.ts: mentions cut out of a word, conjunctions read as compositions', () => {
  const labels = new Set(['charles_lennox_1st_duke_of_richmond', 'charles lennox', 'ada brook', 'legal', 'good'].map(normalizeLabel));
  const index = { index: { hasExact: (n: string) => labels.has(n) } } as unknown as Parameters<typeof completedMention>[0];

  it('completedMention: a copy that stops inside a word names the whole word, when that is a label', () => {
    const q = "what is the name of the parents of charles_lennox_1st_duke_of_richmond 's heir ?";
    assert.equal(completedMention(index, q, 'charles_lennox'), 'charles_lennox_1st_duke_of_richmond');
    assert.equal(completedMention(index, q, 'lennox_1st_duke'), 'charles_lennox_1st_duke_of_richmond');
    // a copy with words before the name: the longest span that spells a label and keeps the completed word
    assert.equal(completedMention(index, q, 'parents of charles_lennox'), 'charles_lennox_1st_duke_of_richmond');
    // a whole-word copy is the parser's own reading, even where a longer word holds it too
    assert.equal(completedMention(index, 'who is charles lennox and charles_lennox_1st_duke_of_richmond', 'charles lennox'), undefined);
    assert.equal(completedMention(index, "what is Ada Brook's job", 'Ada Brook'), undefined);
    // a completion that is no label of the graph: left to grounding
    assert.equal(completedMention(index, 'what is the nationality of ada_brookes_ltd', 'ada_brook'), undefined);
    assert.equal(completedMention(index, q, 'not in the question'), undefined);
  });

  it('trimmedMention: the longest label a mention holds; a common adjective only where it is written as a name', () => {
    assert.equal(trimmedMention(index, 'wife of Ada Brook'), 'Ada Brook');
    assert.equal(trimmedMention(index, 'Ada Brook'), undefined, 'a label is no trim');
    assert.equal(trimmedMention(index, 'Legal department'), 'Legal');
    assert.equal(trimmedMention(index, 'legal department'), undefined, 'lower case: a common adjective, not the name');
    assert.equal(trimmedMention(index, 'good shop'), undefined);
  });

  it('unrepeated: (AND A A) is A, at any depth; undefined when the form has no such conjunction', () => {
    const once = (f: string) => {
      const u = unrepeated(parseForm(f));
      return u && printForm(u);
    };
    assert.equal(once('(AND (JOIN (R religion) [ X ]) (JOIN (R religion) [ X ]))'), '(JOIN (R religion) [ X ])');
    assert.equal(once('(JOIN (R spouse) (AND (JOIN (R spouse) [ X ]) (JOIN (R spouse) [ X ])))'), '(JOIN (R spouse) (JOIN (R spouse) [ X ]))');
    assert.equal(once('(AND (JOIN (R religion) [ X ]) (JOIN (R gender) [ X ]))'), undefined);
  });

  it('composed: (AND (JOIN a X) (JOIN b X)) read as both compositions, one AND at a time; other conjunctions left', () => {
    const texts = (f: string) => composed(parseForm(f)).map((x) => printForm(x));
    assert.deepEqual(texts('(AND (JOIN (R gender) [ X ]) (JOIN (R children) [ X ]))'), ['(JOIN (R gender) (JOIN (R children) [ X ]))', '(JOIN (R children) (JOIN (R gender) [ X ]))']);
    // below another operator: read in its place
    assert.deepEqual(texts('(JOIN (R spouse) (AND (JOIN (R gender) [ X ]) (JOIN (R children) [ X ])))'), ['(JOIN (R spouse) (JOIN (R gender) (JOIN (R children) [ X ])))', '(JOIN (R spouse) (JOIN (R children) (JOIN (R gender) [ X ])))']);
    // one relation, the same way (unrepeated's) or both ways (the parser unsure of its direction): no two hops
    assert.deepEqual(texts('(AND (JOIN (R religion) [ X ]) (JOIN (R religion) [ X ]))'), []);
    assert.deepEqual(texts('(AND (JOIN plays_for [ X ]) (JOIN (R plays_for) [ X ]))'), []);
    // two entities, or a class: a real conjunction
    assert.deepEqual(texts('(AND (JOIN (R gender) [ X ]) (JOIN (R children) [ Y ]))'), []);
    assert.deepEqual(texts('(AND film (JOIN directed_by [ X ]))'), []);
    assert.deepEqual(texts('(JOIN (R gender) [ X ])'), []);
  });
});


describe('repair.ts withHopAnywhere: a hop added at every place of a chain', () => {
  it('above the form, between two hops and in place of the entity, both directions; never above a class', () => {
    const texts = (f: string) => withHopAnywhere(parseForm(f), 'parents').map((x) => printForm(x));
    assert.deepEqual(texts('(JOIN (R nationality) (JOIN (R spouse) [ X ]))'), [
      '(JOIN (R parents) (JOIN (R nationality) (JOIN (R spouse) [ X ])))',
      '(JOIN parents (JOIN (R nationality) (JOIN (R spouse) [ X ])))',
      '(JOIN (R nationality) (JOIN (R parents) (JOIN (R spouse) [ X ])))',
      '(JOIN (R nationality) (JOIN parents (JOIN (R spouse) [ X ])))',
      '(JOIN (R nationality) (JOIN (R spouse) (JOIN (R parents) [ X ])))',
      '(JOIN (R nationality) (JOIN (R spouse) (JOIN parents [ X ])))',
    ]);
    assert.deepEqual(texts('(AND person (JOIN spouse [ X ]))'), [
      '(JOIN (R parents) (AND person (JOIN spouse [ X ])))',
      '(JOIN parents (AND person (JOIN spouse [ X ])))',
      '(AND person (JOIN (R parents) (JOIN spouse [ X ])))',
      '(AND person (JOIN parents (JOIN spouse [ X ])))',
      '(AND person (JOIN spouse (JOIN (R parents) [ X ])))',
      '(AND person (JOIN spouse (JOIN parents [ X ])))',
    ]);
    assert.deepEqual(texts('(COUNT (JOIN spouse [ X ]))').slice(0, 2), ['(COUNT (JOIN (R parents) (JOIN spouse [ X ])))', '(COUNT (JOIN parents (JOIN spouse [ X ])))'], 'inside a count, never above it');
  });
});

describe('pipeline: readings with the hop a relation word names (repair.ts, real Oxigraph store)', function () {
  this.timeout(60000);
  const E = 'http://example.org/people/';
  const LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';
  const ttl = [
    ['ada', 'Ada Brook'], ['bo', 'Bo Lind'], ['cy', 'Cy Marsh'], ['dee', 'Dee Holt'],
    ['norway', 'Norway'], ['chile', 'Chile'], ['acme', 'Acme Works'], ['eve', 'eve_marsh_of_acme'], ['eve2', 'eve_marsh'],
    ['gus', 'Gus Lind'], ['peru', 'Peru'],
  ].map(([id, label]) => `<${E}${id}> <${LABEL}> "${label}" .`).concat([
    `<${E}ada> <${E}spouse> <${E}bo> .`,
    `<${E}ada> <${E}nationality> <${E}norway> .`,
    `<${E}bo> <${E}nationality> <${E}chile> .`,
    `<${E}bo> <${E}works_for> <${E}acme> .`,
    `<${E}cy> <${E}spouse> <${E}dee> .`,
    `<${E}cy> <${E}nationality> <${E}norway> .`,
    `<${E}dee> <${E}works_for> <${E}acme> .`,
    `<${E}eve> <${E}nationality> <${E}chile> .`,
    `<${E}eve2> <${E}nationality> <${E}norway> .`,
    `<${E}bo> <${E}parents> <${E}gus> .`,
    `<${E}gus> <${E}nationality> <${E}peru> .`,
  ]).join('\n');
  const TWO_HOP = '(JOIN (R nationality) (JOIN (R spouse) [ Ada Brook ]))';
  const beams: Record<string, [string, number][]> = {
    "what is the nationality of Ada Brook's wife": [['(JOIN (R nationality) [ Ada Brook ])', -0.2]],
    "what is the nationality of Cy Marsh's wife": [['(JOIN (R nationality) [ Cy Marsh ])', -0.2]],
    'what is the nationality of Ada Brook': [['(JOIN (R nationality) [ Ada Brook ])', -0.1]],
    'what is the nationality of the wife of Ada Brook': [['(JOIN (R nationality) [ wife of Ada Brook ])', -0.3]],
    "what is the nationality of Ada Brook 's spouse": [['(AND (JOIN (R nationality) [ Ada Brook ]) (JOIN (R spouse) [ Ada Brook ]))', -0.4]],
    'what is the nationality of eve_marsh_of_acme': [['(JOIN (R nationality) [ eve_marsh ])', -0.2]],
    "what is the nationality of the father of Ada Brook's wife": [['(JOIN (R nationality) [ Ada Brook ])', -0.2]],
  };
  let dir: string;
  let gateway: Gateway;
  let parser: FixedBeam;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-repair-'));
    fs.writeFileSync(path.join(dir, 'people.nt'), ttl + '\n');
    parser = new FixedBeam(beams, { [TWO_HOP]: -1.5, '(JOIN (R nationality) (JOIN (R spouse) [ Cy Marsh ]))': -1.5 }, -50);
    gateway = await createGateway({ store: path.join(dir, 'people.nt'), generator: parser, cacheDir: dir });
  });
  after(async () => {
    await gateway.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a one-hop reading that drops "wife" gives way to the reading with the spouse hop, scored by the parser', async () => {
    const a = await gateway.ask("what is the nationality of Ada Brook's wife", { fallback: 'off' });
    assert.equal(a.form, TWO_HOP);
    assert.deepEqual(a.answers.map((x) => x.label), ['Chile']);
    assert.ok(a.trace.some((t) => /set aside \(RELATION_UNUSED\): .*"wife"/.test(t.note ?? '')), 'the one-hop reading is set aside, and the trace says why');
    assert.ok(a.trace.some((t) => /repaired readings: \d+ forms.*"wife" → spouse/.test(t.note ?? '')), 'the trace lists the repaired readings');
    assert.ok(parser.scored.some((forms) => forms.includes(TWO_HOP)), 'the parser scored the repaired reading');
  });

  it('a mention that copies the relation word into the name ("[ wife of Ada Brook ]") is trimmed to the label it holds, and the hop added', async () => {
    parser.scored = [];
    const a = await gateway.ask('what is the nationality of the wife of Ada Brook', { fallback: 'off' });
    assert.ok(parser.scored.some((forms) => forms.includes(TWO_HOP)), 'the trimmed reading with the hop was scored');
    assert.equal(a.form, TWO_HOP);
    assert.deepEqual(a.answers.map((x) => x.label), ['Chile']);
  });

  it('a conjunction of two relations of one entity is read as their composition, scored by the parser', async () => {
    parser.scored = [];
    const a = await gateway.ask("what is the nationality of Ada Brook 's spouse", { fallback: 'off' });
    assert.ok(parser.scored.some((forms) => forms.includes(TWO_HOP) && forms.includes('(JOIN (R spouse) (JOIN (R nationality) [ Ada Brook ]))')), 'both compositions were scored');
    assert.equal(a.form, TWO_HOP);
    assert.deepEqual(a.answers.map((x) => x.label), ['Chile']);
  });

  it('a mention cut out of a word of the question is completed to the whole word: the entity the question names', async () => {
    const a = await gateway.ask('what is the nationality of eve_marsh_of_acme', { fallback: 'off' });
    assert.equal(a.form, '(JOIN (R nationality) [ eve_marsh_of_acme ])');
    assert.deepEqual(a.answers.map((x) => x.label), ['Chile'], 'not the nationality of the shorter label eve_marsh');
    assert.ok(a.trace.some((t) => (t.note ?? '').includes(`mentions completed to the question's whole words: "eve_marsh" → "eve_marsh_of_acme"`)));
  });

  it('no repaired reading answers: the one-hop reading answers, with a caveat naming the word it leaves out', async () => {
    const a = await gateway.ask("what is the nationality of Cy Marsh's wife", { fallback: 'off' });
    assert.equal(a.form, '(JOIN (R nationality) [ Cy Marsh ])');
    assert.deepEqual(a.answers.map((x) => x.label), ['Norway']);
    assert.match(a.reason ?? '', /leaves out "wife"/);
    assert.ok(a.confidence <= 0.6);
  });

  it('a repaired reading that still leaves out a relation word is extended by its hop, between two hops', async () => {
    parser.scored = [];
    const a = await gateway.ask("what is the nationality of the father of Ada Brook's wife", { fallback: 'off' });
    // the beam's repair adds one hop (the spouse: Chile, set aside for "father"); the extension puts the parents hop
    // between the two, where no repair of the one-hop reading could
    assert.equal(a.form, '(JOIN (R nationality) (JOIN (R parents) (JOIN (R spouse) [ Ada Brook ])))');
    assert.deepEqual(a.answers.map((x) => x.label), ['Peru']);
    assert.equal(a.reason, undefined, 'the extended reading uses every relation word: no caveat');
    assert.ok(a.trace.some((t) => (t.note ?? '').includes('set aside (RELATION_UNUSED): the reading (JOIN (R nationality) (JOIN (R spouse) [ Ada Brook ])) leaves out "father"')));
    assert.ok(a.trace.some((t) => /extended readings: \d+ forms: \(JOIN \(R nationality\) \(JOIN \(R spouse\) \[ Ada Brook \]\)\) with the hop of "father" → parents/.test(t.note ?? '')), 'the trace lists the extension');
    assert.ok(parser.scored.some((forms) => forms.includes('(JOIN (R nationality) (JOIN (R parents) (JOIN (R spouse) [ Ada Brook ])))')), 'the parser scored the extended reading');
  });

  it('a reading that uses every relation the question names is not repaired (no extra scoring)', async () => {
    parser.scored = [];
    const a = await gateway.ask('what is the nationality of Ada Brook', { fallback: 'off' });
    assert.deepEqual(a.answers.map((x) => x.label), ['Norway']);
    assert.equal(a.reason, undefined);
    assert.deepEqual(parser.scored, []);
  });
});

describe('pipeline: a fallback answer says which relation words of the question its evidence leaves out (real Oxigraph store)', function () {
  this.timeout(60000);
  const E = 'http://example.org/people/';
  const LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';
  const nt = [['ada', 'Ada Brook'], ['bo', 'Bo Lind'], ['norway', 'Norway'], ['chile', 'Chile'], ['acme', 'Acme Works']]
    .map(([id, label]) => `<${E}${id}> <${LABEL}> "${label}" .`)
    .concat([`<${E}ada> <${E}spouse> <${E}bo> .`, `<${E}ada> <${E}nationality> <${E}norway> .`, `<${E}bo> <${E}nationality> <${E}chile> .`, `<${E}bo> <${E}employer> <${E}acme> .`])
    .join('\n');
  let dir: string;
  let gateway: Gateway;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-fallback-words-'));
    fs.writeFileSync(path.join(dir, 'people.nt'), nt + '\n');
    // a parser with no reading of these questions: the fallback readers answer
    gateway = await createGateway({ store: path.join(dir, 'people.nt'), generator: new FixedBeam({}, {}, -50), cacheDir: dir });
  });
  after(async () => {
    await gateway.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('an answer whose evidence has every relation the question names carries no caveat', async () => {
    const a = await gateway.ask("who is the employer of Ada Brook's husband");
    assert.equal(a.source, 'fallback:paths');
    assert.deepEqual(a.answers.map((x) => x.label), ['Acme Works']);
    assert.equal(a.reason, undefined);
  });

  it('an answer whose evidence has no triple of a named relation says so ("employer": Acme has no nationality)', async () => {
    const a = await gateway.ask("what is the nationality of the employer of Ada Brook's husband");
    assert.equal(a.source, 'fallback:paths');
    assert.match(a.reason ?? '', /leaves out .*"employer" \(read as employer/);
    assert.ok(a.confidence <= 0.6);
  });
});

describe('pipeline: a relation the parser wrote in vain is no relation the reading uses (judge.ts asGrounded, real Oxigraph store)', function () {
  this.timeout(60000);
  const Q = 'name a company where someone from Chile works';
  const EXTENDED = '(JOIN (R works_in) (JOIN lives_in [ Chile ]))';
  const pack = madeUpPackFor('staff', 'http://example.org/staff/', {
    labels: [['ana', 'Ana Ruiz'], ['ben', 'Ben Olsen'], ['chile', 'Chile'], ['norway', 'Norway'], ['acme', 'Acme Works'], ['zeta', 'Zeta Mills']],
    triples: [['ana', 'lives_in', 'chile'], ['ben', 'lives_in', 'norway'], ['ana', 'works_in', 'acme'], ['ben', 'works_in', 'zeta']],
  // the parser writes works_in on a country, which nobody works in
  }, { [Q]: [['(JOIN works_in [ Chile ])', -0.2]] }, { [EXTENDED]: -1.5 });

  it('grounding reads works_in on Chile as lives_in (the people of Chile): set aside for the work it leaves out, and extended by its hop', async () => {
    const a = await pack.gateway().ask(Q, { fallback: 'off' });
    const notes = a.trace.map((t) => t.note ?? '');
    assert.ok(notes.some((n) => n.includes('set aside (RELATION_UNUSED): the reading (JOIN works_in [ Chile ]) leaves out "works"')), JSON.stringify(notes));
    assert.ok(notes.some((n) => n.startsWith('extended readings: 4 forms: (JOIN lives_in [ Chile ]) with the hop of "works"')), 'the reading as grounded is extended');
    assert.equal(a.form, EXTENDED);
    assert.deepEqual(a.answers.map((x) => x.label), ['Acme Works']);
    assert.equal(a.reason, undefined, 'the extended reading uses the work: no caveat');
  });
});
