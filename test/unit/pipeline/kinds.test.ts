import { strict as assert } from 'node:assert';
import { parseForm } from '../../../src/form';
import { asksWhere, nothingAsked, placeAsked, wrongKind, type CheckContext, type Reading } from '../../../src/pipeline/checks';
import { spokenWord } from '../../../src/pipeline/fallback-step';
import { valueNoun } from '../../../src/pipeline/kinds';
import { madeUpPackFor } from './made-up-pack';

describe('kinds.ts: the kind a question asks for on a graph without classes, read off the relations\' names', () => {
  it('valueNoun: the noun a relation\'s name gives its values — the last word, or the word before "of"; none for a function word', () => {
    assert.equal(valueNoun('plays_in_club'), 'club');
    assert.equal(valueNoun('seat_country'), 'country');
    assert.equal(valueNoun('place_of_birth'), 'place');
    assert.equal(valueNoun('starred_actors'), 'actor');
    assert.equal(valueNoun('hasInstrument'), 'instrument');
    assert.equal(valueNoun('employer_firm'), 'firm');
    assert.equal(valueNoun('directed_by'), undefined);
    assert.equal(valueNoun('written_by'), undefined);
  });

  describe('wrongKind (WRONG_KIND)', () => {
    const V = 'http://example.org/firms/relation/';
    const names = ['works_in', 'home_country', 'seat_country'];
    const kind = { word: 'country', relations: ['home_country', 'seat_country'], nameOf: (iri: string) => names.find((n) => V + n === iri) };
    const ctx = (asked = true): CheckContext => ({ question: 'which country does Ana Ruiz work in', beam: [], ...(asked ? { askedKind: () => kind } : {}) });
    // the reading as the parser wrote it, and as grounded: its relations' IRIs, the entity's
    const grounded = (form: string) => parseForm(form.replace(/\(R ([a-z_]+)\)/g, `(R <${V}$1>)`).replace(/\(JOIN ([a-z_]+) /g, `(JOIN <${V}$1> `).replace('[ Ana Ruiz ]', '<http://example.org/firms/ana>'));
    const reading = (form: string): Reading => ({ form, tree: parseForm(form), grounded: grounded(form), mentions: [{ text: 'Ana Ruiz', label: 'Ana Ruiz', match: 'exact' }] });

    it('answers that are the values of another relation than those of the kind asked for are set aside, naming both', () => {
      const v = wrongKind(reading('(JOIN (R works_in) [ Ana Ruiz ])'), ctx());
      assert.deepEqual([v.pass, v.code, v.words, v.relations], [false, 'WRONG_KIND', ['country'], ['home_country', 'seat_country']]);
      assert.equal(v.reason, 'the reading (JOIN (R works_in) [ Ana Ruiz ]) answers with values of works in; "country" asks for values of home country or seat country');
    });

    it('a reading of the kind asked for passes, and so does one the names say nothing of: subjects, a name of no relation, no kind asked', () => {
      for (const f of ['(JOIN (R seat_country) (JOIN (R works_in) [ Ana Ruiz ]))', '(AND (JOIN (R works_in) [ Ana Ruiz ]) (JOIN (R home_country) [ Ana Ruiz ]))', '(JOIN works_in [ Ana Ruiz ])', '(JOIN (R employer) [ Ana Ruiz ])']) {
        assert.equal(wrongKind(reading(f), ctx()).pass, true, f);
      }
      assert.equal(wrongKind(reading('(JOIN (R works_in) [ Ana Ruiz ])'), ctx(false)).pass, true);
    });
  });
});

describe('pipeline: a reading of another kind than the question asks for is extended by the hop to that kind (real Oxigraph store, a graph without classes)', function () {
  this.timeout(60000);
  const Q = 'which country does Ana Ruiz work in';
  const WHERE = 'where is the firm that Ana Ruiz works for';
  const WORKS = '(JOIN (R employer_firm) [ Ana Ruiz ])';
  const HOP = '(JOIN (R seat_country) (JOIN (R employer_firm) [ Ana Ruiz ]))';
  const pack = madeUpPackFor('firms', 'http://example.org/firms/', {
    labels: [['ana', 'Ana Ruiz'], ['ben', 'Ben Olsen'], ['chile', 'Chile'], ['peru', 'Peru'], ['acme', 'Acme Works'], ['zeta', 'Zeta Mills']],
    triples: [['ana', 'home_country', 'chile'], ['ben', 'home_country', 'peru'], ['ana', 'employer_firm', 'acme'], ['ben', 'employer_firm', 'zeta'], ['acme', 'seat_country', 'peru'], ['zeta', 'seat_country', 'chile']],
  // the parser reads where she works (a company); the questions ask for a country, and for where the company is
  }, { [Q]: [[WORKS, -0.2]], [WHERE]: [[WORKS, -0.2]], 'which firm does Ana Ruiz work for': [[WORKS, -0.2]] }, { [HOP]: -1.5 });

  it('"which country" read as her company: set aside (WRONG_KIND), extended by each relation whose values are countries, the parser choosing', async () => {
    const a = await pack.gateway().ask(Q, { fallback: 'off' });
    const notes = a.trace.map((t) => t.note ?? '');
    assert.ok(notes.some((n) => n.includes(`set aside (WRONG_KIND): the reading ${WORKS} answers with values of employer firm`)), JSON.stringify(notes));
    assert.ok(notes.some((n) => n === `extended readings: 2 forms: ${WORKS} with the hop to a value "country" asks for`), JSON.stringify(notes));
    assert.equal(a.form, HOP);
    assert.deepEqual(a.answers.map((x) => x.label), ['Peru'], 'the country of her company, not of where she lives');
    assert.equal(a.reason, undefined);
  });

  it('"where is the firm …" asks for the place of a firm, which is no place: the hop to a place on top', async () => {
    const a = await pack.gateway().ask(WHERE, { fallback: 'off' });
    assert.ok(a.trace.some((t) => (t.note ?? '').startsWith(`set aside (WRONG_KIND): the reading ${WORKS} answers with values of employer firm; "where" asks for values of`)), JSON.stringify(a.trace.map((t) => t.note)));
    assert.equal(a.form, HOP);
    assert.deepEqual(a.answers.map((x) => x.label), ['Peru']);
  });

  it('a question asking for the kind its reading gives is not extended', async () => {
    const a = await pack.gateway().ask('which firm does Ana Ruiz work for', { fallback: 'off' });
    assert.deepEqual(a.answers.map((x) => x.label), ['Acme Works']);
    assert.ok(!a.trace.some((t) => t.check?.code === 'WRONG_KIND'));
  });
});

describe('placeAsked (NO_PLACES): "where" asked of a graph that gives no places', () => {
  it('asksWhere: "where" first, or after a preposition; not a "where" later in the question', () => {
    for (const q of ['where was Ana Ruiz born', "where's Ana Ruiz from", 'Where did Ana Ruiz grow up', 'from where does Ana Ruiz come']) assert.equal(asksWhere(q), true, q);
    for (const q of ['who directed Anywhere', 'what is somewhere in Chile', 'which films were made where Ana Ruiz lives', 'whereabouts of Ana Ruiz']) assert.equal(asksWhere(q), false, q);
  });

  it('refuses a "where" question only when nothing of the graph gives places', () => {
    const v = placeAsked('where was Ana Ruiz born', { givesPlaces: () => false });
    assert.deepEqual([v.pass, v.code, v.words], [false, 'NO_PLACES', ['where']]);
    assert.equal(v.reason, '"where" asks for a place, and nothing in this graph is a place');
    assert.equal(placeAsked('where was Ana Ruiz born', { givesPlaces: () => true }).pass, true);
    assert.equal(placeAsked('who directed Solaris', { givesPlaces: () => false }).pass, true);
    assert.equal(placeAsked('where was Ana Ruiz born', {}).pass, true, 'no knowledge of the graph: no refusal');
  });
});

describe('nothingAsked (NOTHING_ASKED): "who is X", "what was X", "what did X do" ask what X is', () => {
  it('refuses a question that is only who / what and a form of "be" (or "what did … do") around its names, naming them', () => {
    for (const q of ['who is Ana Ruiz', 'What was Ana Ruiz?', "who's ana ruiz", 'who was the Ana Ruiz', 'what did Ana Ruiz do']) {
      const v = nothingAsked(q, ['Ana Ruiz', 'ana ruiz']);
      assert.deepEqual([v.pass, v.code], [false, 'NOTHING_ASKED'], q);
    }
    assert.equal(nothingAsked('who is Ana Ruiz', ['Ana Ruiz', 'ana ruiz']).reason, 'the question asks what "ana ruiz" is, which no relation of this graph says');
  });

  it('a question that names anything more passes, and so does one whose name is not written as such', () => {
    for (const q of ['who is Ana Ruiz married to', 'what is Ana Ruiz about', 'who directed Ana Ruiz', 'when was Ana Ruiz', 'what did Ana Ruiz direct', 'who is the director of Ana Ruiz']) assert.equal(nothingAsked(q, ['Ana Ruiz']).pass, true, q);
    assert.equal(nothingAsked('who is Ana Ruis', ['Ana Ruiz']).pass, true, 'a fuzzy topic: its words stay in the question');
  });
});

describe('spokenWord: a word the parser copied as a name that is a word of the question', () => {
  it('one lower-case content word no topic spells is the question\'s', () => {
    assert.equal(spokenWord('where was George Lopez born', 'born', ['George Lopez']), true);
    assert.equal(spokenWord('what nationality is Ana Ruiz', 'nationality', ['Ana Ruiz', 'nationalism']), true, 'a word of the language is no typo of a label word');
  });

  it('a name stays a name: capitalised, spelt by a topic (a typo of a name of no language, a plural), or of several words', () => {
    assert.equal(spokenWord('films by Kubrick', 'Kubrick', []), false);
    assert.equal(spokenWord('who directed kubrik', 'kubrik', ['Stanley Kubrick']), false);
    assert.equal(spokenWord('films tagged westerns', 'westerns', ['western']), false);
    assert.equal(spokenWord('who directed blue moon river', 'blue moon river', ['Blue Moon']), false);
  });
});

describe('pipeline: "where" on a graph without places is refused, by the readings and by the fallback (real Oxigraph store)', function () {
  this.timeout(60000);
  const Q = 'where was Ana Ruiz born';
  const FILMS = '(JOIN starred_actors [ Ana Ruiz ])';
  const pack = madeUpPackFor('reels', 'http://example.org/reels/', {
    labels: [['ana', 'Ana Ruiz'], ['ben', 'Ben Olsen'], ['f1', 'Grey Harbour'], ['f2', 'Salt Road']],
    triples: [['f1', 'starred_actors', 'ana'], ['f2', 'starred_actors', 'ana'], ['f2', 'directed_by', 'ben']],
    // a lexicon a person edited, with fields of its entries left out
  }, { [Q]: [[FILMS, -0.2]], 'who is Ana Ruiz': [[FILMS, -0.2]], 'which films did Ana Ruiz star in': [[FILMS, -0.2]] }, {}, { 'lexicon.json': JSON.stringify({ properties: { starred_actors: { subjects: ['{S} with {x}'] }, directed_by: {} }, classes: { Film: {} } }) });

  it('the reading (her films) is not the answer, and neither is the evidence around her', async () => {
    for (const fallback of ['off', undefined] as const) {
      const a = await pack.gateway().ask(Q, fallback ? { fallback } : {});
      assert.deepEqual(a.answers, [], JSON.stringify(a.answers));
      assert.ok(a.trace.some((t) => t.check?.code === 'NO_PLACES'), JSON.stringify(a.trace.map((t) => t.note)));
      assert.match(a.reason ?? '', /"where" asks for a place, and nothing in this graph is a place/);
    }
  });

  it('"who is X" is refused too: her films are not what she is', async () => {
    for (const fallback of ['off', undefined] as const) {
      const a = await pack.gateway().ask('who is Ana Ruiz', fallback ? { fallback } : {});
      assert.deepEqual(a.answers, []);
      assert.ok(a.trace.some((t) => t.check?.code === 'NOTHING_ASKED'), JSON.stringify(a.trace.map((t) => t.note)));
    }
  });

  it('the same graph answers what it has', async () => {
    const a = await pack.gateway().ask('which films did Ana Ruiz star in');
    assert.deepEqual(a.answers.map((x) => x.label).sort(), ['Grey Harbour', 'Salt Road']);
  });
});
