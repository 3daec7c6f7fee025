import { strict as assert } from 'node:assert';
import { contentWords, rankPhrase, readingNote, relationSimilarity, RelationRetriever, spellingNear, wordnetLink, wordNearness, wordVectors, WORDNET_SCORES, type RelationInfo } from '../../../src/ground';
import { GENERIC_DEPTH, wordNet } from '../../../src/core/wordnet';
import type { Executor } from '../../../src/core';

// A small made-up schema (no data set's): a company, a person and a musician, and a few classes.
const NS = 'http://example.org/s/';
const rels = (...names: string[]): RelationInfo[] => names.map((name) => ({ iri: NS + name, name }));
const top = (phrase: string, cands: RelationInfo[], ctx = {}) => rankPhrase(phrase, cands, ctx)[0]?.name;

describe('phrase-level grounding of relation and class phrases (ground/relations.ts rankPhrase)', function () {
  this.timeout(120000);

  it('word vectors ship with the package: int8, read once, cosine on the int8 values', () => {
    const v = wordVectors();
    assert.ok(v.words.length >= 50000, `${v.words.length} words`);
    assert.equal(v.dims, 100);
    assert.equal(v.cosine('river', 'river'), 1);
    assert.ok(v.cosine('river', 'stream')! > v.cosine('river', 'violin')!);
    assert.equal(v.cosine('river', 'qqzzxq'), undefined);
    // a plural not kept falls back to its singular's vector; hubness discounts words near everything
    assert.ok(v.relativeCosine('songs', 'recording')! > v.relativeCosine('songs', 'person')!);
  });

  it("WordNet's links: synonyms, derivations, adjective ↔ attribute, hypernyms with their steps", () => {
    const wn = wordNet();
    assert.equal(wn.related('old').get('age')?.kind, 'attribute');
    assert.equal(wn.related('fast').get('speed')?.kind, 'attribute');
    assert.equal(wn.related('hot').get('temperature')?.kind, 'attribute');
    assert.equal(wn.related('big').get('size')?.kind, 'attribute');
    assert.equal(wn.related('job').get('occupation')?.kind, 'synonym');
    assert.equal(wn.related('died').get('death')?.kind, 'derived');
    const inst = wn.related('cello', { depth: 8 }).get('musical instrument');
    assert.equal(inst?.kind, 'hypernym');
    assert.ok(inst.steps >= 2);
    assert.equal(wordNearness('old', 'age').via, 'attribute');
    assert.equal(wordNearness('born', 'birth').via, 'lemma-word'); // "be born", derived from "birth"
  });

  it("a two-word hypernym's head noun is a hypernym at the same step (\"mom\" → \"female parent\" → \"parent\")", () => {
    const wn = wordNet();
    assert.equal(wn.compoundHead('female parent'), 'parent');
    assert.equal(wn.compoundHead('man-child'), 'child');
    assert.equal(wn.compoundHead('line of work'), undefined); // head-first: "line", not "work"
    assert.equal(wn.compoundHead('body politic'), undefined); // "politic" is no noun
    assert.equal(wn.compoundHead('parent'), undefined);
    const parent = wn.related('mom', { depth: 8 }).get('parent');
    assert.deepEqual(parent, { kind: 'hypernym', steps: 1 });
    // still one way: a parent is no kind of mom
    assert.equal(wn.related('parent', { depth: 8 }).get('mom'), undefined);
    assert.ok(wordNearness('mom', 'parents').score > wordNearness('mom', 'children').score);
  });

  it('hypernyms at the top of the hierarchy link nothing ("father" is a causal agent, as every person is)', () => {
    const wn = wordNet();
    const top = (w: string) => wn.rootDistance(wn.senses(w, 'n')[0]!);
    assert.equal(top('entity'), 0);
    assert.ok(top('object') <= GENERIC_DEPTH && top('parent') > GENERIC_DEPTH);
    assert.equal(wn.related('father', { depth: 8 }).get('causal agent'), undefined);
    assert.equal(wn.related('father', { depth: 8 }).get('parent')?.kind, 'hypernym');
    assert.equal(wordNearness('father', 'cause').wordnet, 0);
  });

  it('a word one step above another names it too, weaker than the other way round (hyponym: "offspring" for "children")', () => {
    assert.deepEqual(wordnetLink('offspring', 'children'), { link: 'hyponym', score: WORDNET_SCORES.hyponym });
    assert.ok(WORDNET_SCORES.hyponym < WORDNET_SCORES.hypernym);
    // the specific word for the general one stays a hypernym ("son" is a kind of child)
    assert.equal(wordnetLink('son', 'children')?.link, 'hypernym');
    // more than one step down is no name of it: an "instrument" question is not about the cello
    assert.equal(wordnetLink('instrument', 'cello'), undefined);
    const kin = rels('parents', 'children', 'spouse', 'nationality');
    assert.equal(top('offspring', kin), 'children');
  });

  it('a word of two senses reads both, tagged or not ("gender": grammatical gender, and sex); one of many reads only its tagged ones', () => {
    const wn = wordNet();
    assert.equal(wn.related('gender').get('sex')?.kind, 'synonym');
    assert.equal(wordNearness('sex', 'gender').via, 'synonym');
    // "sex" has more senses: its untagged fourth (sex, gender, sexuality) is not read from its side
    assert.equal(wn.related('sex').get('gender'), undefined);
  });

  it('content words of names and phrases: camelCase split, function words out', () => {
    assert.deepEqual(contentWords('hasInstrument'), ['instrument']);
    assert.deepEqual(contentWords('based in'), ['based']);
    assert.deepEqual(contentWords('http://example.org/s/birthPlace'), ['birth', 'place']);
  });

  it('letters are evidence between spellings of one word, not between two words that only end alike (spellingNear)', () => {
    // word forms, misspellings and codes: string similarity counts
    assert.ok(spellingNear('nation', 'nationality'));
    assert.ok(spellingNear('directed', 'director'));
    assert.ok(spellingNear('writer', 'written'));
    assert.ok(spellingNear('instrumnet', 'instrument'), 'a misspelling');
    assert.ok(spellingNear('place', 'place of birth'), 'one name holds the other');
    // two dictionary words that rhyme: it does not
    assert.ok(!spellingNear('occupation', 'location'));
    assert.ok(!spellingNear('place of death', 'place of birth'));
    const person = rels('location', 'profession', 'nationality', 'deathPlace');
    assert.ok(relationSimilarity('occupation', person[0]!) < 0.3, 'no lexical evidence for location');
    assert.equal(top('occupation', person), 'profession');
    assert.equal(top('nation', person), 'nationality');
  });

  it('"based in" reads as headquarteredIn or locatedIn; "employees" as employeeCount', () => {
    const company = rels('headquarteredIn', 'locatedIn', 'foundingDate', 'employeeCount', 'chiefExecutive', 'industry');
    const ranked = rankPhrase('based in', company).map((r) => r.name);
    assert.deepEqual(ranked.slice(0, 2).sort(), ['headquarteredIn', 'locatedIn']);
    assert.equal(top('based', rels('headquarteredIn', 'foundingDate', 'employeeCount', 'chiefExecutive', 'industry')), 'headquarteredIn');
    assert.equal(top('employees', company), 'employeeCount');
  });

  it('"how old" reads as age (WordNet: old ↔ age); "born" as birthPlace / birthDate; "died" as deathPlace', () => {
    const person = rels('birthPlace', 'birthDate', 'deathPlace', 'spouse', 'occupation', 'hasInstrument', 'memberOf', 'age');
    const old = rankPhrase('how old', person)[0]!;
    assert.equal(old.name, 'age');
    assert.ok(old.wordnet > old.lexical, readingNote(old));
    assert.match(readingNote(old), /old→age attribute/);
    assert.deepEqual(rankPhrase('born', person).slice(0, 2).map((r) => r.name).sort(), ['birthDate', 'birthPlace']);
    assert.equal(top('died', person), 'deathPlace');
    assert.equal(top('job', person), 'occupation');
    assert.equal(top('married to', person), 'spouse');
  });

  it('"plays the cello" reads as hasInstrument through its object (WordNet: a cello is an instrument), and the relation the entity has wins', () => {
    const person = rels('birthPlace', 'deathPlace', 'spouse', 'hasInstrument', 'memberOf', 'age');
    const r = rankPhrase('plays', person, { objects: ['Cello'] })[0]!;
    assert.equal(r.name, 'hasInstrument');
    assert.match(readingNote(r), /cello→instrument hypernym of the entity/);
    // domain/range fit: only hasInstrument is around the entity; the others are weighed down
    const fit = rankPhrase('plays', person, { objects: ['Cello'], around: new Set([NS + 'hasInstrument']) });
    assert.equal(fit[0]!.fit, 1);
    assert.ok(fit.slice(1).every((x) => x.fit === 0 && x.score < fit[0]!.score));
  });

  it('class phrases: "songs" reads as the class Recording, "companies" as Organization', () => {
    const classes = rels('Recording', 'Person', 'Instrument', 'Place', 'Organization');
    assert.equal(top('songs', classes), 'Recording');
    assert.equal(top('companies', classes), 'Organization');
    assert.equal(top('musicians', classes), 'Person');
  });

  it('a name spelt the same is still an exact match (score 1), above every semantic reading', () => {
    const r = rankPhrase('directed_by', rels('directed_by', 'written_by', 'starred_actors'));
    assert.equal(r[0]!.name, 'directed_by');
    assert.equal(r[0]!.score, 1);
    assert.ok(r[1]!.score < 0.95);
  });

  it('RelationRetriever.rank returns the reading with its components (for the trace)', () => {
    const retriever = new RelationRetriever({} as Executor);
    const hits = retriever.rank('how old', rels('birthPlace', 'age', 'spouse'));
    assert.equal(hits[0]?.name, 'age');
    assert.equal(hits[0].reading?.name, 'age');
    assert.ok(hits[0].reading.wordnet > 0.8);
  });
});
