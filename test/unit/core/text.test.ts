import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AskgraphError, foldCase, identifierWords, letterWords, normalizeLabel, relationWords, packageRoot, readTriples, STOP_WORDS, swappedLetters } from '../../../src/core';

/** The rules shared with the Python trainer (train/test_askgraph_data.py reads the same file). */
interface Cases {
  triples: { name: string; text: string; triples?: string[][]; errorLine?: number }[];
  letterWords: { text: string; words: string[] }[];
  letterWordsKnownPythonDivergence: { text: string; words: string[] }[];
  foldCase: { text: string; key: string }[];
  normalizeLabel: { text: string; key: string }[];
  identifierWords: { name: string; words: string[] }[];
}
const cases = JSON.parse(fs.readFileSync(path.join(packageRoot(), 'fixtures', 'text', 'cases.json'), 'utf8')) as Cases;

describe('core text rules (fixtures/text/cases.json)', () => {
  for (const c of cases.triples) {
    it(`triple files: ${c.name}`, () => {
      if (c.errorLine !== undefined) {
        assert.throws(
          () => [...readTriples(c.text, 'kb.txt')],
          (e: unknown) => e instanceof AskgraphError && e.code === 'DATA_FORMAT' && e.message.startsWith(`kb.txt:${c.errorLine}: `),
        );
      } else {
        assert.deepEqual([...readTriples(c.text, 'kb.txt')].map((t) => t.triple), c.triples);
      }
    });
  }
  it('letter words (the words of words.json)', () => {
    for (const c of [...cases.letterWords, ...cases.letterWordsKnownPythonDivergence]) assert.deepEqual(letterWords(c.text), c.words, c.text);
  });
  it('identifier words (relation/class names, local names; the same table as the trainer\'s identifier_words)', () => {
    assert.ok(cases.identifierWords.length >= 20);
    for (const c of cases.identifierWords) assert.deepEqual(identifierWords(c.name), c.words, c.name);
    // relationWords is the label key of the same words.
    assert.equal(relationWords('dbo:birthPlace'), 'dbo birth place');
    assert.equal(relationWords('ISBN13'), 'isbn 13');
    assert.equal(relationWords('ÉtatCivil'), 'etat civil');
  });
  it('foldCase and normalizeLabel', () => {
    for (const c of cases.foldCase) assert.equal(foldCase(c.text), c.key, c.text);
    for (const c of cases.normalizeLabel) assert.equal(normalizeLabel(c.text), c.key, c.text);
  });
  it('the stop list names no graph (no movies words)', () => {
    for (const w of ['movie', 'movies', 'film', 'films', 'actor', 'director', 'genre', 'starred']) assert.ok(!STOP_WORDS.has(w), w);
  });
});

describe('core swappedLetters', () => {
  it('two neighbouring letters swapped, anywhere; not one letter changed, not two apart, not the word itself', () => {
    const swapped: [string, string][] = [['spuose', 'spouse'], ['psouse', 'spouse'], ['spousee', 'spouese'], ['spoues', 'spouse']];
    const not: [string, string][] = [['spouse', 'spouse'], ['spoose', 'spouse'], ['suopse', 'spouse'], ['spouses', 'spouse']];
    for (const [a, b] of swapped) assert.equal(swappedLetters(a, b), true, `${a} ${b}`);
    for (const [a, b] of not) assert.equal(swappedLetters(a, b), false, `${a} ${b}`);
  });
});
