import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AskgraphError, stem } from '../../../src/core';
import { parseForm } from '../../../src/form';
import {
  chainFromForm,
  chainToForm,
  HopModel,
  loadRelationVocabulary,
  mineRelationVocabulary,
  questionTerms,
  VOCABULARY_FILE,
} from '../../../src/fallback';
import { questionWithoutTopics } from '../../../src/fallback/text';

describe('fallback text', () => {
  it('stems the forms of a relation word together', () => {
    assert.equal(stem('directed'), stem('director'));
    assert.equal(stem('directors'), stem('direct'));
    assert.equal(stem('movies'), stem('movie'));
    assert.equal(stem('languages'), stem('language'));
    assert.equal(stem('1994'), '1994');
  });
  it('removes the topic mention (once, as a phrase) from the question', () => {
    assert.deepEqual(questionWithoutTopics('who directed the film Forever, Darling', ['Forever, Darling']), ['who', 'directed', 'the', 'film']);
    assert.deepEqual(questionWithoutTopics('who wrote Hawking', ['hawking']), ['who', 'wrote']);
  });
});

describe('relation vocabulary', () => {
  it('reads the relation chain of a JOIN-chain form, seen from the topic', () => {
    const c = chainFromForm(parseForm('(JOIN (R release_year) (JOIN starred_actors (JOIN (R starred_actors) [ Forever, Darling ])))'));
    assert.deepEqual(c, {
      topic: 'Forever, Darling',
      hops: [
        { name: 'starred_actors', dir: '>' },
        { name: 'starred_actors', dir: '<' },
        { name: 'release_year', dir: '>' },
      ],
    });
    assert.equal(chainFromForm(parseForm('(COUNT (JOIN directed_by [ X ]))')), null);
  });

  it('prints a chain as a form that parses back to the same chain', () => {
    const hops = [
      { name: 'directed_by', dir: '>' as const },
      { name: 'directed_by', dir: '<' as const },
    ];
    const text = chainToForm('Cast Away', hops);
    assert.equal(text, '(JOIN directed_by (JOIN (R directed_by) [ Cast Away ]))');
    assert.deepEqual(chainFromForm(parseForm(text))?.hops, hops);
  });

  it('mines which words go with which hop and ranks the right chain first', () => {
    const ex = (q: string, topic: string, hops: { name: string; dir: '>' | '<' }[]) => ({ terms: questionTerms(q, [topic]), hops });
    const D = { name: 'directed_by', dir: '>' as const };
    const Dm = { name: 'directed_by', dir: '<' as const };
    const Y = { name: 'release_year', dir: '>' as const };
    const data = [];
    for (let i = 0; i < 20; i++) {
      data.push(ex(`who made film${i}`, `film${i}`, [D]));
      data.push(ex(`when did film${i} come out`, `film${i}`, [Y]));
      data.push(ex(`when did the pictures made by person${i} come out`, `person${i}`, [Dm, Y]));
    }
    const v = mineRelationVocabulary(data);
    const m = new HopModel(v);
    // "made" is never in a relation label: only the mined vocabulary links it to directed_by.
    assert.ok(m.pHop('directed_by', '>', true, stem('made')) > 10 * m.pHop('release_year', '>', true, stem('made')));
    const q = questionTerms('when did the pictures made by Jane come out', ['Jane']);
    const chains = [[Dm, Y], [Dm], [Y], [D]];
    const scores = chains.map((c) => m.scoreChain(q, c));
    assert.equal(scores.indexOf(Math.max(...scores)), 0, scores.join(' '));
    assert.ok(v.keyCounts?.['release_year>L'] === 40);
  });

  it('without a vocabulary falls back to the relation label words', () => {
    const m = new HopModel();
    const q = questionTerms('who directed Cast Away', ['Cast Away']);
    assert.ok(m.scoreRelation(q, 'directed_by', '>') > m.scoreRelation(q, 'release_year', '>'));
  });

  it('loads a pack vocabulary file, or nothing, and rejects a malformed one', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relvocab-'));
    try {
      assert.equal(loadRelationVocabulary(dir), undefined);
      fs.writeFileSync(path.join(dir, VOCABULARY_FILE), JSON.stringify(mineRelationVocabulary([{ terms: ['who'], hops: [{ name: 'r', dir: '>' }] }])));
      assert.equal(loadRelationVocabulary(dir)?.format, 'askgraph-relvocab/1');
      fs.writeFileSync(path.join(dir, VOCABULARY_FILE), '{"format":"other"}');
      assert.throws(() => loadRelationVocabulary(dir), (e: unknown) => e instanceof AskgraphError && e.code === 'DATA_FORMAT');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
