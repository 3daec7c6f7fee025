import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { defaultPackDir, type Answer, type AnswerItem, type AnswerTable, type Executor, type SelectResult, type TableColumn } from '../../../src/core';
import { openExecutor } from '../../../src/execute';
import { answerToDelimited, guardFormula, tableOf } from '../../../src/core';
import { textTable } from '../../../src/cli/table';

const B = 'http://askgraph.dev/movies/';
const E = (name: string) => `${B}entity/${encodeURIComponent(name)}`;

/** Reads CSV / TSV back with Python's csv module (Debian python3): a real reader, not ours. */
function readBack(text: string, format: 'csv' | 'tsv'): string[][] {
  const dialect = format === 'csv' ? '' : ", delimiter='\\t', quoting=csv.QUOTE_NONE";
  const r = spawnSync('python3', ['-c', `import csv, io, json, sys; print(json.dumps(list(csv.reader(io.StringIO(sys.stdin.read(), newline='')${dialect}))))`], { input: text, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as string[][];
}

/** An Answer whose table is a real multi-variable SELECT's rows (the labels from the store), as the pipeline builds it. */
async function tableAnswer(ex: Executor, result: SelectResult, columns: TableColumn[]): Promise<Answer> {
  const iris = result.rows.flatMap((r) => columns.map((c) => r[c.name]).filter((t) => t?.type === 'uri').map((t) => t!.value));
  const labels = await ex.labels(iris);
  const rows: (AnswerItem | null)[][] = result.rows.map((r) =>
    columns.map((c) => {
      const t = r[c.name];
      if (!t) return null;
      if (t.type === 'uri') return { type: 'uri', value: t.value, label: labels.get(t.value) ?? null };
      return { type: 'literal', value: t.value, label: null, ...(t.datatype ? { datatype: t.datatype } : {}) };
    }),
  );
  const table: AnswerTable = { columns, rows };
  const keys = new Map<string, AnswerItem>();
  for (const row of rows) if (row[0]) keys.set(row[0].value, row[0]);
  return {
    question: 'a table',
    answers: [...keys.values()],
    answerType: 'table',
    table,
    form: null,
    groundedForm: null,
    sparql: null,
    source: 'parser',
    confidence: 1,
    beam: [],
    trace: [],
    timings: { generate: 0, ground: 0, execute: 0, fallback: 0, total: 0 },
  };
}

describe('table answers: CSV / TSV export and the terminal table (rows of a real SELECT on the movies store)', function () {
  this.timeout(120_000);
  let ex: Executor | undefined;
  let films: Answer;
  let counts: Answer;

  before(async () => {
    ex = await openExecutor(defaultPackDir());
    // the films of one director, their release years and languages: the language is OPTIONAL and mostly absent
    const r = await ex.select(
      `SELECT ?film ?year ?lang WHERE { ?film <${B}relation/directed_by> <${E('Michael Mann')}> . OPTIONAL { ?film <${B}relation/release_year> ?year } OPTIONAL { ?film <${B}relation/in_language> ?lang } } ORDER BY ?film ?year ?lang`,
    );
    films = await tableAnswer(ex, r, [
      { name: 'film', label: 'film' },
      { name: 'year', label: 'release year' },
      { name: 'lang', label: 'language' },
    ]);
    // a number column: how many actors each of the director's films lists
    const c = await ex.select(
      `SELECT ?film (COUNT(?a) AS ?n) WHERE { ?film <${B}relation/directed_by> <${E('Michael Mann')}> . ?film <${B}relation/starred_actors> ?a } GROUP BY ?film ORDER BY DESC(?n) ?film`,
    );
    counts = await tableAnswer(ex, c, [
      { name: 'film', label: 'film' },
      { name: 'n', label: 'actors' },
    ]);
  });
  after(() => ex?.close());

  it('the real SELECT gives a table with empty cells (an absent language), so the tests below see one', () => {
    const t = films.table!;
    assert.ok(t.rows.length >= 10, String(t.rows.length));
    assert.ok(t.rows.some((r) => r[2] === null), 'some film has no language');
    assert.ok(t.rows.some((r) => r[2] !== null), 'some film has a language');
    assert.ok(t.rows.find((r) => r[0]?.value === E('Heat')));
  });

  it('CSV: a header of column labels with an IRI column after each entity column; labels in cells; empty cells empty; a real CSV reader reads back the same grid', () => {
    const csv = answerToDelimited(films, 'csv');
    assert.ok(csv.endsWith('\r\n'));
    const grid = readBack(csv, 'csv');
    assert.deepEqual(grid[0], ['film', 'film IRI', 'release year', 'release year IRI', 'language', 'language IRI']);
    const t = films.table!;
    assert.equal(grid.length, t.rows.length + 1);
    t.rows.forEach((row, i) => {
      const line = grid[i + 1]!;
      assert.equal(line.length, 6);
      assert.equal(line[0], row[0]?.label);
      assert.equal(line[1], row[0]?.value);
      assert.equal(line[4], row[2] ? row[2].label : '');
      assert.equal(line[5], row[2] ? row[2].value : '');
    });
    assert.ok(grid.some((l) => l[0] === 'Heat' && l[1] === E('Heat') && l[2] === '1995'));
  });

  it('TSV: the same grid with tabs, a header row of labels, read back by a real TSV reader', () => {
    const tsv = answerToDelimited(films, 'tsv');
    const grid = readBack(tsv, 'tsv');
    assert.deepEqual(grid[0], ['film', 'film IRI', 'release year', 'release year IRI', 'language', 'language IRI']);
    assert.equal(grid.length, films.table!.rows.length + 1);
    assert.deepEqual(grid, readBack(answerToDelimited(films, 'csv'), 'csv'));
  });

  it('numbers stay numbers: the count column is its lexical value, no IRI column for it', () => {
    const grid = readBack(answerToDelimited(counts, 'csv'), 'csv');
    assert.deepEqual(grid[0], ['film', 'film IRI', 'actors']);
    for (const l of grid.slice(1)) assert.match(l[2]!, /^\d+$/);
  });

  it('hostile labels cannot break the row structure (commas, quotes, newlines, tabs) and formulas are neutralised with an apostrophe; a negative number stays a number', () => {
    const hostile = ['Smith, "Jr."\r\nnext line', '=HYPERLINK("http://evil/","x")', '+SUM(A1:A9)', '-2+3', '@cmd', '\tTAB', '-3', '+2.5e3'];
    const answer = { ...films, table: { columns: [{ name: 'x', label: 'name' }, { name: 'y', label: '=1+1' }], rows: hostile.map((h, i): (AnswerItem | null)[] => [{ type: 'uri', value: E(`h${i}`), label: h }, i % 2 ? null : { type: 'literal', value: h, label: null }]) } };
    const expected = hostile.map((h) => guardFormula(h));
    assert.deepEqual(expected.slice(1, 6), ["'=HYPERLINK(\"http://evil/\",\"x\")", "'+SUM(A1:A9)", "'-2+3", "'@cmd", "'\tTAB"]);
    assert.deepEqual(expected.slice(6), ['-3', '+2.5e3']);
    const csv = readBack(answerToDelimited(answer, 'csv'), 'csv');
    assert.equal(csv.length, hostile.length + 1);
    assert.deepEqual(csv[0], ['name', 'name IRI', "'=1+1"]);
    hostile.forEach((_h, i) => {
      assert.deepEqual(csv[i + 1], [expected[i], E(`h${i}`), i % 2 ? '' : expected[i]]);
    });
    // TSV cannot quote: tabs and line breaks inside a value become spaces, never a new cell or row
    const tsvText = answerToDelimited(answer, 'tsv');
    assert.equal(tsvText.split('\n').length, hostile.length + 2);
    const tsv = readBack(tsvText, 'tsv');
    assert.equal(tsv.length, hostile.length + 1);
    for (const l of tsv) assert.equal(l.length, 3);
    assert.equal(tsv[1]![0], 'Smith, "Jr."  next line');
    assert.equal(tsv[6]![0], "' TAB");
  });

  it('a set answer exports as one column "answer" (with its IRIs); "no answer" as the header alone', () => {
    const set = { ...films, table: undefined, answerType: 'entities' as const };
    assert.deepEqual(tableOf(set).columns, [{ name: 'answer', label: 'answer' }]);
    const grid = readBack(answerToDelimited(set, 'csv'), 'csv');
    assert.deepEqual(grid[0], ['answer', 'answer IRI']);
    assert.equal(grid.length, films.answers.length + 1);
    assert.equal(answerToDelimited({ answers: [] }, 'csv'), 'answer\r\n');
    const number = answerToDelimited({ answers: [{ type: 'literal', value: '42', label: null, datatype: 'http://www.w3.org/2001/XMLSchema#integer' }] }, 'tsv');
    assert.equal(number, 'answer\n42\n');
  });

  it('terminal table: aligned columns under their labels, empty cells blank, numbers right-aligned; --iris adds the IRI columns', () => {
    const lines = textTable(films.table!);
    assert.match(lines[0]!, /^film\s+release year\s+language$/);
    assert.match(lines[1]!, /^─+ {2}─+ {2}─+$/);
    assert.equal(lines.length, films.table!.rows.length + 2);
    const col2 = lines[0]!.indexOf('release year');
    const heat = lines.filter((l) => l.startsWith('Heat '));
    assert.deepEqual(heat.map((l) => l.slice(col2, col2 + 4)).sort(), ['1972', '1995']);
    // a row without a language ends after the year: the language cell is empty
    const noLang = films.table!.rows.findIndex((r) => r[2] === null);
    assert.equal(lines[noLang + 2]!.slice(lines[0]!.indexOf('language')).trim(), '');
    const withIris = textTable(films.table!, { iris: true });
    assert.match(withIris[0]!, /^film\s+film IRI\s+release year\s+release year IRI\s+language\s+language IRI$/);
    assert.ok(withIris.some((l) => l.includes(E('Heat'))));
    const n = textTable(counts.table!);
    const right = n[0]!.length;
    for (const l of n.slice(2)) assert.equal(l.length, right, `numbers end under the heading's end: "${l}"`);
  });

  it('terminal table: a label with a newline or an escape sequence stays on its row and cannot drive the terminal', () => {
    const table: AnswerTable = { columns: [{ name: 'x', label: 'name' }], rows: [[{ type: 'uri', value: E('a'), label: 'one\ntwo \u001b[31mred\u001b[0m' }], [null], [{ type: 'literal', value: 'x'.repeat(200), label: null }]] };
    const lines = textTable(table);
    assert.equal(lines.length, 5);
    assert.ok(lines.every((l) => !/[\u0000-\u001f]/.test(l)), JSON.stringify(lines));
    assert.equal(lines[3], '');
    assert.equal(Array.from(lines[4]!).length, 60);
    assert.ok(lines[4]!.endsWith('…'));
  });
});
