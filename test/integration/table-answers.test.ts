/**
 * Table answers everywhere (issue 21): the CLI (text table, --iris, --json, --format csv|tsv), /v1/ask (JSON, CSV
 * and TSV by format= or Accept), the QALD output with several variables, and the table SPARQL in the trace.
 * The forms come from a LOCAL STAND-IN LLM server (`--generator`; the shipped parser model does not write table
 * forms yet); everything after it is real: the movies pack in embedded Oxigraph, grounding, compilation,
 * execution, the CLI and the HTTP server. CSV and TSV are read back with Python's csv module (Debian python3).
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { createGateway, type Gateway } from '../../src/pipeline';
import type { RunningServer } from '../../src/serve';
import { cli } from '../helpers/cli';
import { standInLlm, type StandIn } from '../helpers/stand-in-llm';
import { entity, getJson, postJson, startTestServer } from './serve-helpers';
import { closeAll } from '../helpers/close-all';

const FILMS_Q = 'list the films Michael Mann directed with their release year and language';
const TOP_Q = 'which three directors made the most films with Tom Hanks';
const REPLIES = {
  [FILMS_Q]: '(TABLE (JOIN directed_by [ Michael Mann ]) release_year in_language)',
  [TOP_Q]: '(LIMIT 3 (DESC (GROUPCOUNT (JOIN starred_actors [ Tom Hanks ]) directed_by)))',
};

function readBack(text: string, format: 'csv' | 'tsv'): string[][] {
  const dialect = format === 'csv' ? '' : ", delimiter='\\t', quoting=csv.QUOTE_NONE";
  const r = spawnSync('python3', ['-c', `import csv, io, json, sys; print(json.dumps(list(csv.reader(io.StringIO(sys.stdin.read(), newline='')${dialect}))))`], { input: text, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as string[][];
}

interface Cell {
  value: string;
  label: string | null;
  type: 'uri' | 'literal';
  datatype?: string;
}
interface Table {
  columns: { name: string; label: string }[];
  rows: (Cell | null)[][];
}

describe('table answers through the real pipeline (stand-in LLM writes the forms): CLI, /v1/ask JSON / CSV / TSV, QALD', function () {
  this.timeout(180_000);
  let llm: StandIn;
  let g: Gateway;
  let srv: RunningServer;
  /** The films table as `ask --json` gives it (the reference for the other formats). */
  let films: { answers: Cell[]; answerType: string; table: Table; sparql: string; trace: { stage: string; outcome: string; sparql?: string }[] };

  before(async () => {
    llm = await standInLlm(REPLIES);
    g = await createGateway({ generatorUrl: llm.url });
    srv = await startTestServer(g);
  });
  after(async () => {
    await closeAll(srv, g, llm);
  });

  it('ask --json: answerType "table", the columns and rows (null = an absent language), answers = the first column; the trace shows the table SPARQL', async () => {
    const r = await cli(['ask', FILMS_Q, '--generator', llm.url, '--json']);
    assert.equal(r.code, 0, r.err);
    films = JSON.parse(r.out);
    assert.equal(films.answerType, 'table');
    assert.equal(films.table.columns.length, 3);
    assert.deepEqual(films.table.columns.slice(1).map((c) => c.label), ['release year', 'in language']);
    assert.ok(films.table.rows.length >= 10);
    assert.ok(films.table.rows.some((row) => row[2] === null), 'an absent language is an empty cell');
    assert.ok(films.table.rows.some((row) => row[0]?.label === 'Heat' && row[1]?.label === '1995'));
    assert.deepEqual(new Set(films.answers.map((a) => a.value)), new Set(films.table.rows.map((row) => row[0]?.value)));
    // the SPARQL of the answer and of its trace entry is the table query: every column projected, OPTIONAL cells
    assert.match(films.sparql, /^SELECT DISTINCT \?x \?c1 \?c2\b/);
    assert.match(films.sparql, /OPTIONAL/);
    const ran = films.trace.find((t) => t.stage === 'execute' && t.outcome === 'answers');
    assert.equal(ran?.sparql, films.sparql);
  });

  it('ask (text): an aligned table under the column labels, empty cells blank, the row count; the SPARQL shown is the table query', async () => {
    const r = await cli(['ask', FILMS_Q, '--generator', llm.url]);
    assert.equal(r.code, 0, r.err);
    const lines = r.out.split('\n');
    const head = lines.findIndex((l) => /^\S.*\s{2,}release year\s{2,}in language$/.test(l));
    assert.ok(head >= 0, r.out);
    assert.match(lines[head + 1] ?? '', /^─+ {2}─+ {2}─+$/);
    const col = lines[head]!.indexOf('release year');
    const body = lines.slice(head + 2, head + 2 + films.table.rows.length);
    assert.deepEqual(body.map((l) => l.slice(0, col).trim()), films.table.rows.map((row) => row[0]?.label ?? ''));
    assert.ok(body.every((l) => !l.includes('http://')), 'labels, not IRIs');
    const noLang = films.table.rows.findIndex((row) => row[2] === null);
    assert.equal(body[noLang]!.slice(lines[head]!.indexOf('in language')), '');
    assert.equal(lines[head + 2 + films.table.rows.length], `(${films.table.rows.length} rows; --format csv or tsv exports them)`);
    assert.match(r.out, /\nsparql:\n {2}SELECT DISTINCT \?x \?c1 \?c2/);
    // --iris: an IRI column after each entity column
    const v = await cli(['ask', FILMS_Q, '--generator', llm.url, '--iris']);
    assert.equal(v.code, 0, v.err);
    assert.match(v.out, /IRI\s{2,}release year\s{2,}release year IRI\s{2,}in language\s{2,}in language IRI\n/);
    assert.ok(v.out.includes(entity('Heat')));
  });

  it('ask --format csv | tsv: a header of column labels, an IRI column after each entity column, one line per row, empty cells empty', async () => {
    const c = await cli(['ask', FILMS_Q, '--generator', llm.url, '--format', 'csv']);
    assert.equal(c.code, 0, c.err);
    const csv = readBack(c.out, 'csv');
    const [l0, l1, l2] = films.table.columns.map((x) => x.label);
    assert.deepEqual(csv[0], [l0, `${l0} IRI`, l1, `${l1} IRI`, l2, `${l2} IRI`]);
    assert.equal(csv.length, films.table.rows.length + 1);
    films.table.rows.forEach((row, i) => {
      const line = csv[i + 1]!;
      assert.deepEqual(line, row.flatMap((cell) => [cell ? (cell.label ?? cell.value) : '', cell?.type === 'uri' ? cell.value : '']));
    });
    const t = await cli(['ask', FILMS_Q, '--generator', llm.url, '--format', 'tsv']);
    assert.equal(t.code, 0, t.err);
    assert.deepEqual(readBack(t.out, 'tsv'), csv);
    // a top-k of groups: ordered rows, the count a number
    const k = await cli(['ask', TOP_Q, '--generator', llm.url, '--format', 'csv']);
    assert.equal(k.code, 0, k.err);
    const top = readBack(k.out, 'csv');
    assert.deepEqual(top[0], ['directed by', 'directed by IRI', 'count']);
    assert.equal(top.length, 4);
    const counts = top.slice(1).map((l) => Number(l[2]));
    assert.deepEqual(counts, [...counts].sort((a, b) => b - a));
  });

  it('ask --format: a bad value or --json with csv is a usage error (exit 2) before anything loads', async () => {
    const bad = await cli(['ask', FILMS_Q, '--format', 'xlsx']);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /^askgraph: BAD_REQUEST: .*xlsx.*csv/);
    const both = await cli(['ask', FILMS_Q, '--format', 'csv', '--json']);
    assert.equal(both.code, 2);
    assert.match(both.err, /BAD_REQUEST: give either --json or --format csv/);
    assert.match(both.out, /"code": "BAD_REQUEST"/);
  });

  it('/v1/ask: the JSON carries the table; the trace SPARQL is the top-k query (GROUP BY, ORDER BY DESC, LIMIT 3)', async () => {
    const r = await postJson(srv.url + '/v1/ask', { question: TOP_Q });
    assert.equal(r.status, 200);
    assert.equal(r.body.answerType, 'table');
    assert.deepEqual(r.body.table.columns.map((c: { label: string }) => c.label), ['directed by', 'count']);
    assert.equal(r.body.table.rows.length, 3);
    assert.match(r.body.sparql, /GROUP BY \?g/);
    assert.match(r.body.sparql, /ORDER BY DESC \(\?n\)/);
    assert.match(r.body.sparql, /LIMIT 3$/);
    assert.ok(r.body.trace.some((t: { sparql?: string }) => t.sparql === r.body.sparql));
    assert.match(r.headers.get('vary') ?? '', /Accept/i);
  });

  it('/v1/ask: CSV with format=csv (GET and POST) or Accept: text/csv, TSV with Accept: text/tab-separated-values; JSON otherwise; an unknown format is 400', async () => {
    const get = await fetch(srv.url + '/v1/ask?format=csv&question=' + encodeURIComponent(FILMS_Q));
    assert.equal(get.status, 200);
    assert.equal(get.headers.get('content-type'), 'text/csv; charset=utf-8; header=present');
    assert.match(get.headers.get('content-disposition') ?? '', /attachment; filename="answer\.csv"/);
    const csvText = await get.text();
    const grid = readBack(csvText, 'csv');
    assert.equal(grid.length, films.table.rows.length + 1);
    assert.equal(grid[0]![2], 'release year');
    const cli = await fetch(srv.url + '/v1/ask?question=' + encodeURIComponent(FILMS_Q), { headers: { Accept: 'text/csv' } });
    assert.equal(await cli.text(), csvText);
    const post = await fetch(srv.url + '/v1/ask?format=csv', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ question: FILMS_Q }) });
    assert.equal(await post.text(), csvText);
    const tsv = await fetch(srv.url + '/v1/ask', { method: 'POST', headers: { 'content-type': 'application/json', Accept: 'text/tab-separated-values' }, body: JSON.stringify({ question: FILMS_Q }) });
    assert.match(tsv.headers.get('content-type') ?? '', /^text\/tab-separated-values; charset=utf-8/);
    assert.deepEqual(readBack(await tsv.text(), 'tsv'), grid);
    // browsers (text/html, …, */*) and JSON clients get JSON
    for (const accept of ['application/json', 'text/html,application/xhtml+xml,*/*;q=0.8', '*/*']) {
      const j = await getJson(srv.url + '/v1/ask?question=' + encodeURIComponent(FILMS_Q), { headers: { Accept: accept } });
      assert.equal(j.body.answerType, 'table', accept);
    }
    const bad = await postJson(srv.url + '/v1/ask?format=xlsx', { question: FILMS_Q });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 'BAD_REQUEST');
  });

  it('QALD output of a table answer: every column in head.vars, a binding per row, an absent cell an absent variable (/v1/ask?format=qald and /qald)', async () => {
    for (const url of [srv.url + '/v1/ask?format=qald&question=' + encodeURIComponent(FILMS_Q), srv.url + '/qald?question=' + encodeURIComponent(FILMS_Q)]) {
      const r = await getJson(url);
      assert.equal(r.status, 200, url);
      const q = r.body.questions[0];
      assert.equal(q.answertype, 'resource');
      assert.equal(q.query.sparql, films.sparql);
      const res = q.answers[0];
      assert.deepEqual(res.head.vars, films.table.columns.map((c) => c.name));
      assert.equal(res.results.bindings.length, films.table.rows.length);
      films.table.rows.forEach((row, i) => {
        const b = res.results.bindings[i];
        films.table.columns.forEach((c, j) => {
          const cell = row[j];
          if (cell) assert.deepEqual(b[c.name], { type: cell.type, value: cell.value, ...(cell.datatype ? { datatype: cell.datatype } : {}) });
          else assert.equal(c.name in b, false, `row ${i}: ${c.name} is absent`);
        });
      });
    }
    const top = await getJson(srv.url + '/qald?question=' + encodeURIComponent(TOP_Q));
    const res = top.body.questions[0].answers[0];
    assert.deepEqual(res.head.vars, ['g', 'n']);
    assert.equal(res.results.bindings[0].n.datatype, 'http://www.w3.org/2001/XMLSchema#integer');
  });
});
