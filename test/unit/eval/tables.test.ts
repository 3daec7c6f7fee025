/**
 * eval of table answers: QALD gold with several variables gives rows; a table answer is scored challenge-style over
 * all its cells, plus an exact row match per example and as a summary rate; the oracle runs a table form end to end.
 */
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { noAnswer, packageRoot, type Answer, type AnswerItem, type AnswerTable } from '../../../src/core';
import { importQald, oracleRunner, rowsMatch, runExamples, scoreExample, summarize, type Example } from '../../../src/eval';
import { openExecutor } from '../../../src/execute';
import { MOVIES_NAMESPACES } from '../../helpers/movies';

const ENT = 'http://askgraph.dev/movies/entity/';
const uri = (name: string): AnswerItem => ({ value: ENT + encodeURIComponent(name), label: name, type: 'uri' });
const lit = (value: string): AnswerItem => ({ value, label: null, type: 'literal', datatype: 'http://www.w3.org/2001/XMLSchema#integer' });

function tableAnswer(table: AnswerTable): Answer {
  const keys = table.rows.map((r) => r[0]).filter((c): c is AnswerItem => c !== null);
  return { ...noAnswer('q'), answers: keys, answerType: 'table', table, source: 'parser' };
}

const QALD = {
  questions: [
    {
      id: 't1',
      question: [{ language: 'en', string: 'films of X with their year' }],
      query: { sparql: 'PREFIX m: <http://askgraph.dev/movies/relation/> SELECT ?f ?y WHERE { ?f m:directed_by <http://askgraph.dev/movies/entity/X> . OPTIONAL { ?f m:release_year ?y } }' },
      answers: [
        {
          head: { vars: ['f', 'y'] },
          results: {
            bindings: [
              { f: { type: 'uri', value: ENT + 'Big' }, y: { type: 'literal', value: '1988' } },
              { f: { type: 'uri', value: ENT + 'Splash' } },
            ],
          },
        },
      ],
    },
    { id: 't2', question: [{ language: 'en', string: 'one variable' }], answers: [{ head: { vars: ['x'] }, results: { bindings: [{ x: { type: 'uri', value: ENT + 'Big' } }] } }] },
  ],
};

describe('eval: table answers', () => {
  it('the QALD importer keeps the rows of a result with several variables (head.vars order, null for unbound) and every cell as an answer', () => {
    const { examples } = importQald(QALD, MOVIES_NAMESPACES);
    assert.deepEqual(examples[0]?.rows, [
      [ENT + 'Big', '1988'],
      [ENT + 'Splash', null],
    ]);
    assert.deepEqual(examples[0].answers, [ENT + 'Big', '1988', ENT + 'Splash']);
    assert.equal(examples[0].form, '(TABLE (JOIN directed_by <http://askgraph.dev/movies/entity/X>) release_year)');
    assert.equal(examples[1]?.rows, undefined, 'one variable: a set, no rows');
  });

  it('rowsMatch compares rows as sets of cell multisets (column order free, number forms normalised)', () => {
    assert.ok(rowsMatch([['Big', '1988'], ['Splash', null]], [['1988.0', 'big'], ['Splash', null]]));
    assert.ok(!rowsMatch([['Big', '1988']], [['Big', '1988'], ['Splash', null]]));
    assert.ok(!rowsMatch([['Big', '1989']], [['Big', '1988']]));
  });

  it('a table question scores every cell (F1) and the exact rows; a set question scores the first column', () => {
    const [t1, t2] = importQald(QALD, MOVIES_NAMESPACES).examples as [Example, Example];
    const right = tableAnswer({ columns: [{ name: 'x', label: 'answer' }, { name: 'c1', label: 'release year' }], rows: [[uri('Big'), lit('1988')], [uri('Splash'), null]] });
    const r1 = scoreExample(t1, right, 1, 'oracle');
    assert.equal(r1.scores.f1, 1);
    assert.equal(r1.scores.acc, 1);
    assert.equal(r1.rowMatch, true);
    const wrongYear = tableAnswer({ columns: right.table!.columns, rows: [[uri('Big'), lit('1990')], [uri('Splash'), null]] });
    const r2 = scoreExample(t1, wrongYear, 1, 'oracle');
    assert.ok(r2.scores.f1 > 0.6 && r2.scores.f1 < 1, String(r2.scores.f1));
    assert.equal(r2.rowMatch, false);
    const setOnly: Answer = { ...noAnswer('q'), answers: [uri('Big'), uri('Splash')], answerType: 'entities', source: 'parser' };
    assert.equal(scoreExample(t1, setOnly, 1, 'oracle').rowMatch, false, 'a set answer to a table question is no row match');
    const r4 = scoreExample(t2, right, 1, 'oracle');
    assert.equal(r4.rowMatch, null);
    assert.equal(r4.scores.recall, 1, 'the row keys answer a one-variable question');
    const summary = summarize([r1, r2, r4], 3, 'oracle', 'x');
    assert.equal(summary.rowMatch, 0.5);
  });

  it('the oracle runs a gold table form and scores its rows (the fixture graph: Big has no rating, an empty cell)', async function () {
    this.timeout(60000);
    const executor = await openExecutor(path.join(packageRoot(), 'fixtures', 'graphs', 'movies-small.ttl'));
    try {
      const ex: Example = {
        id: 'o1',
        question: 'year and rating of Splash and Big',
        form: '(TABLE (OR [ Splash ] [ Big ]) release_year has_imdb_rating)',
        answers: ['Big', '1988', 'Splash', '1984', 'good'],
        rows: [
          ['Big', '1988', null],
          ['Splash', '1984', 'good'],
        ],
        meta: { dataset: 'test' },
      };
      const { results } = await runExamples([ex], oracleRunner({ executor, pack: { vocabularyNamespace: 'http://askgraph.dev/movies/relation/', labelPredicates: ['http://www.w3.org/2000/01/rdf-schema#label'] } }), { mode: 'oracle' });
      assert.equal(results[0]?.rowMatch, true, JSON.stringify(results[0]));
      assert.equal(results[0].scores.acc, 1);
    } finally {
      await executor.close();
    }
  });
});
