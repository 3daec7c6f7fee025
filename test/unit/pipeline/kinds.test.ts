import { strict as assert } from 'node:assert';
import { parseForm } from '../../../src/form';
import { wrongKind, type CheckContext, type Reading } from '../../../src/pipeline/checks';
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
