import { strict as assert } from 'node:assert';
import { article, isCopula, isSuperlative, wordNet } from '../../../src/core';

describe('core morph: copulas and superlatives (compromise, WordNet)', () => {
  it('isSuperlative: regular superlatives (compromise) and those WordNet glosses as the superlative of another adjective', () => {
    for (const w of ['largest', 'oldest', 'cheapest', 'earliest', 'best', 'worst', 'most', 'fewest', 'Best']) assert.equal(isSuperlative(w), true, w);
    for (const w of ['large', 'good', 'rest', 'west', 'interest', 'honest', 'forest', '2015', '']) assert.equal(isSuperlative(w), false, w);
  });

  it('article: "an" before a vowel letter, else "a"', () => {
    assert.deepEqual(['employee', 'Office', 'shop', 'town'].map(article), ['an', 'an', 'a', 'a']);
  });

  it('isCopula: the forms of "be", not other verbs', () => {
    for (const w of ['is', 'are', 'was', 'were']) assert.equal(isCopula(w), true, w);
    for (const w of ['has', 'does', 'shop', 'the']) assert.equal(isCopula(w), false, w);
  });

  it('WordNet base forms of adjectives undo a y turned i and a doubled consonant before -er / -est (what adj.exc holds)', () => {
    const wn = wordNet();
    assert.deepEqual(wn.baseForms('heaviest', 'a'), ['heavy']);
    assert.deepEqual(wn.baseForms('biggest', 'a'), ['big']);
    assert.deepEqual(wn.baseForms('happier', 'a'), ['happy']);
    assert.deepEqual(wn.baseForms('summer', 'a'), [], 'no adjective "sum"');
  });
});
