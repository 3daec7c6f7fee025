import type { Answer, AnswerItem, AnswerTable } from './types';

/**
 * An answer as rows and columns, and its CSV / TSV export (`askgraph ask --format csv|tsv`, `/v1/ask` with
 * `format=csv|tsv` or `Accept: text/csv | text/tab-separated-values`). Plain functions of an Answer: the CLI
 * and the server write the same bytes.
 *
 * The export convention, for spreadsheets:
 * - the first row is the header: the column labels;
 * - a cell holds what people read: an entity's label (its IRI when it has none), a literal's lexical value
 *   (numbers and dates as the graph writes them, which spreadsheets parse);
 * - each column that holds entities is followed by a column "<label> IRI" with their IRIs, so a sheet can
 *   still join on identity (two entities may share a label);
 * - an empty cell is an absent value (an OPTIONAL that did not match), never a dropped row;
 * - CSV is RFC 4180: CRLF line ends, a field with a comma, a double quote, CR or LF is quoted and its quotes
 *   doubled, so no label can break the row structure; TSV (IANA text/tab-separated-values) cannot quote, so a
 *   tab, CR or LF inside a value becomes a space;
 * - formula injection (OWASP "CSV injection"): a cell that starts with = + - @, a tab or a CR gets a leading
 *   apostrophe (`'=1+2`), so a spreadsheet shows it as text instead of running it — except a plain number
 *   (`-3`, `+2.5e3`), which is no formula and stays a number.
 *
 * An answer that is not a table (a set, a number, yes/no) exports as a one-column table headed "answer";
 * "no answer" as the header row alone.
 */

export type DelimitedFormat = 'csv' | 'tsv';

export const DELIMITED_MEDIA: Record<DelimitedFormat, string> = {
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
};

/** The answer's table: its own (answerType 'table'), else its answers as one column headed "answer". */
export function tableOf(answer: Pick<Answer, 'answers' | 'table'>): AnswerTable {
  if (answer.table) return answer.table;
  return { columns: [{ name: 'answer', label: 'answer' }], rows: answer.answers.map((a) => [a]) };
}

/** What a person reads in a cell: an entity's label (else its IRI), a literal's lexical value; '' for an empty cell. */
export function cellText(item: AnswerItem | null | undefined): string {
  if (!item) return '';
  return item.type === 'uri' ? (item.label ?? item.value) : item.value;
}

/** Columns that hold at least one entity (they get an IRI column beside them). */
export function entityColumns(table: AnswerTable): boolean[] {
  return table.columns.map((_c, i) => table.rows.some((r) => r[i]?.type === 'uri'));
}

/** The table as strings: the header (labels, "<label> IRI" after each entity column) and one line per row. */
export function tableGrid(table: AnswerTable): { header: string[]; rows: string[][] } {
  const withIri = entityColumns(table);
  const header: string[] = [];
  table.columns.forEach((c, i) => {
    header.push(c.label);
    if (withIri[i]) header.push(`${c.label} IRI`);
  });
  const rows = table.rows.map((row) => {
    const out: string[] = [];
    table.columns.forEach((_c, i) => {
      const cell = row[i] ?? null;
      out.push(cellText(cell));
      if (withIri[i]) out.push(cell?.type === 'uri' ? cell.value : '');
    });
    return out;
  });
  return { header, rows };
}

const PLAIN_NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** A cell a spreadsheet would run as a formula gets a leading apostrophe; a plain number stays as it is. */
export function guardFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) && !PLAIN_NUMBER.test(text) ? "'" + text : text;
}

function csvField(text: string): string {
  const v = guardFormula(text);
  return /[",\r\n]/.test(v) ? '"' + v.replace(/"/g, '""') + '"' : v;
}

function tsvField(text: string): string {
  return guardFormula(text).replace(/[\t\r\n]/g, ' ');
}

/** The answer as CSV (RFC 4180, CRLF) or TSV (LF), header row first; see the convention above. */
export function answerToDelimited(answer: Pick<Answer, 'answers' | 'table'>, format: DelimitedFormat): string {
  const { header, rows } = tableGrid(tableOf(answer));
  const field = format === 'csv' ? csvField : tsvField;
  const sep = format === 'csv' ? ',' : '\t';
  const eol = format === 'csv' ? '\r\n' : '\n';
  return [header, ...rows].map((r) => r.map(field).join(sep)).join(eol) + eol;
}
