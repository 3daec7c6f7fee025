import * as assert from 'node:assert/strict';
import { HopModel, isFailure, mineRelationVocabulary, PathReader, questionContentTerms, questionTerms, type RelationVocabulary, type VocabExample } from '../../../src/fallback';
import { OxigraphExecutor } from '../../../src/execute';
import { ctx, fixture, topic } from './helpers';

const PEOPLE = 'http://askgraph.dev/people/';
interface Hop {
  name: string;
  dir: '>' | '<';
}
const born = (dir: '>' | '<'): Hop => ({ name: 'place_of_birth', dir });
const knows = (dir: '>' | '<'): Hop => ({ name: 'knows', dir });

/**
 * A vocabulary mined from a few synthetic questions in which the relation's own questions say "where … born"
 * and "what is the … of" comes with a 2-hop template through an acquaintance: the shape of a pack's small synthetic
 * training set that made the old ranking put "the birthplaces of the people X knows" above X's own birthplace.
 */
function acquaintanceVocabulary(): RelationVocabulary {
  const ex: VocabExample[] = [];
  const add = (q: string, t: string, hops: Hop[]) => ex.push({ terms: questionTerms(q, [t]), hops });
  for (let i = 0; i < 6; i++) {
    add(`where was p${i} born`, `p${i}`, [born('>')]);
    add(`what is the name of a friend of p${i}`, `p${i}`, [knows('>')]);
    add(`what is the hometown of the friend of p${i}`, `p${i}`, [knows('>'), born('>')]);
    add(`who was born in c${i}`, `c${i}`, [born('<')]);
  }
  return mineRelationVocabulary(ex);
}

const QUESTION = 'what is the place of birth of Ada Quist';

describe('paths reader: a hop that no question word asks for costs (HopModel.unexplainedHops)', function () {
  this.timeout(30000);
  let people: OxigraphExecutor | undefined;
  before(async () => {
    people = await OxigraphExecutor.open({ files: [fixture('people-mini.txt')], baseIri: PEOPLE }, { id: 'oxigraph:people-mini' });
  });
  after(async () => {
    await people?.close();
  });

  it('counts a hop no content word speaks for, and a third hop over two words', () => {
    const m = new HopModel(acquaintanceVocabulary());
    const content = questionContentTerms(QUESTION, ['Ada Quist']);
    assert.equal(m.unexplainedHops(content, [born('>')]), 0);
    assert.equal(m.unexplainedHops(content, [knows('>'), born('>')]), 1);
    assert.equal(m.unexplainedHops(content, [born('>'), born('<'), born('>')]), 1);
    // A word written twice stands for two hops.
    assert.equal(m.unexplainedHops(questionContentTerms('where was the place of birth of the place of birth of Ada Quist', ['Ada Quist']), [born('>'), born('<'), born('>')]), 0);
  });

  it('the vocabulary reproduces the weakness: by the word likelihood alone the chain through an acquaintance wins', () => {
    const m = new HopModel(acquaintanceVocabulary());
    const terms = questionTerms(QUESTION, ['Ada Quist']);
    const unexplained = { contentTerms: questionContentTerms(QUESTION, ['Ada Quist']), cost: 2 };
    assert.ok(m.scoreChain(terms, [knows('>'), born('>')], 0.6) > m.scoreChain(terms, [born('>')], 0.6));
    assert.ok(m.scoreChain(terms, [knows('>'), born('>')], 0.6, unexplained) < m.scoreChain(terms, [born('>')], 0.6, unexplained));
  });

  it('ranks the direct chain first on a real store and answers the person’s own birthplace', async () => {
    if (!people) throw new Error('store not opened');
    const r = await new PathReader().read(ctx(QUESTION, [topic(PEOPLE, 'Ada Quist')], { executor: people, relationVocabulary: acquaintanceVocabulary() }));
    if (isFailure(r)) assert.fail(JSON.stringify(r));
    assert.match(r.note ?? '', /^chains: \(JOIN \(R place_of_birth\) \[ Ada Quist \]\) /, r.note);
    assert.deepEqual(r.answers.map((a) => a.label), ['Lund']);
  });

  it('a relation the question names (ctx.relationWords) that a chain has no hop of costs as much: the chain through it wins', async () => {
    if (!people) throw new Error('store not opened');
    // "mate" is no word of the mined vocabulary: only the lexical reading of the relations says it names `knows`
    const q = 'where was the mate of Ada Quist born';
    const read = (relationWords?: { word: string; iri: string }[]) =>
      new PathReader().read(ctx(q, [topic(PEOPLE, 'Ada Quist')], { executor: people!, relationVocabulary: acquaintanceVocabulary(), ...(relationWords ? { relationWords } : {}) }));
    const before = await read();
    if (isFailure(before)) assert.fail(JSON.stringify(before));
    assert.match(before.note ?? '', /^chains: \(JOIN \(R place_of_birth\) \[ Ada Quist \]\) /, 'without it, the shorter chain that leaves "mate" out');
    const after = await read([{ word: 'mate', iri: `${PEOPLE}relation/knows` }]);
    if (isFailure(after)) assert.fail(JSON.stringify(after));
    assert.match(after.note ?? '', /^chains: \(JOIN \(R place_of_birth\) \(JOIN \(R knows\) \[ Ada Quist \]\)\)/, after.note);
    assert.deepEqual(after.answers.map((a) => a.label).sort(), ['Bergen', 'Oslo']);
  });

  it('a chain with every relation the question names ranks before one that leaves one out, whatever the costs', async () => {
    if (!people) throw new Error('store not opened');
    const q = 'where was the mate of Ada Quist born';
    const r = await new PathReader({ unexplainedHopCost: 0 }).read(ctx(q, [topic(PEOPLE, 'Ada Quist')], { executor: people, relationVocabulary: acquaintanceVocabulary(), relationWords: [{ word: 'mate', iri: `${PEOPLE}relation/knows` }] }));
    if (isFailure(r)) assert.fail(JSON.stringify(r));
    assert.match(r.note ?? '', /^chains: \(JOIN \(R place_of_birth\) \(JOIN \(R knows\) \[ Ada Quist \]\)\)/, r.note);
    // the chains that leave "mate" out add no answers, however near their score
    assert.deepEqual(r.answers.map((a) => a.label).sort(), ['Bergen', 'Oslo']);
  });

  it('with the cost off (unexplainedHopCost 0) the old ranking comes back', async () => {
    if (!people) throw new Error('store not opened');
    const r = await new PathReader({ unexplainedHopCost: 0 }).read(ctx(QUESTION, [topic(PEOPLE, 'Ada Quist')], { executor: people, relationVocabulary: acquaintanceVocabulary() }));
    if (isFailure(r)) assert.fail(JSON.stringify(r));
    assert.match(r.note ?? '', /^chains: \(JOIN \(R place_of_birth\) \(JOIN \(R knows\) \[ Ada Quist \]\)\)/);
  });
});
