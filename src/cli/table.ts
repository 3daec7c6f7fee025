import type { AnswerItem, AnswerTable } from '../core';
import { cellText, entityColumns } from '../core';

const XSD = 'http://www.w3.org/2001/XMLSchema#';
const NUMERIC = /^(integer|decimal|float|double|long|int|short|byte|nonNegativeInteger|positiveInteger|nonPositiveInteger|negativeInteger|unsignedLong|unsignedInt|unsignedShort|unsignedByte)$/;
/** Widest a label cell is shown at a terminal (the whole value is in --json, CSV and TSV). */
const MAX_CELL = 60;

/**
 * A value as one terminal cell: control characters (a newline, a tab, an escape sequence that would recolour or
 * move the cursor) and bidirectional overrides become spaces, so no label can break a row or the terminal.
 */
function terminalText(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, ' ');
}

function cut(s: string, max: number): string {
  const chars = Array.from(s); // code points, not UTF-16 units
  return chars.length > max ? chars.slice(0, max - 1).join('') + '…' : s;
}

const width = (s: string) => Array.from(s).length;

/**
 * A table answer as aligned text lines for a terminal: a header of column labels, a rule, one line per row;
 * numeric columns right-aligned; an empty cell (an absent optional value) is blank. `iris`: each entity column
 * is followed by its IRIs (as in CSV). Long labels are cut at 60 characters with "…".
 */
export function textTable(table: AnswerTable, opts: { iris?: boolean } = {}): string[] {
  const withIri = entityColumns(table);
  // the shown columns: each answer column, and with `iris` its IRIs after an entity column (never cut)
  const cols: { label: string; iri: boolean; numeric: boolean; text: (row: (AnswerItem | null)[]) => string }[] = [];
  table.columns.forEach((c, i) => {
    const cells = table.rows.map((r) => r[i]).filter((x): x is AnswerItem => x != null);
    const numeric = cells.length > 0 && cells.every((x) => x.type === 'literal' && NUMERIC.test(x.datatype?.startsWith(XSD) ? x.datatype.slice(XSD.length) : ''));
    cols.push({ label: c.label, iri: false, numeric, text: (r) => cellText(r[i]) });
    if (opts.iris && withIri[i]) cols.push({ label: `${c.label} IRI`, iri: true, numeric: false, text: (r) => {
      const x = r[i];
      return x?.type === 'uri' ? x.value : '';
    } });
  });
  const show = (s: string, iri: boolean) => (iri ? terminalText(s) : cut(terminalText(s), MAX_CELL));
  const header = cols.map((c) => show(c.label, c.iri));
  const rows = table.rows.map((r) => cols.map((c) => show(c.text(r), c.iri)));
  const widths = header.map((h, j) => Math.max(width(h), ...rows.map((r) => width(r[j] ?? ''))));
  const pad = (s: string, j: number) => {
    const fill = ' '.repeat(Math.max(0, (widths[j] ?? 0) - width(s)));
    return cols[j]?.numeric ? fill + s : s + fill;
  };
  const line = (cells: string[]) => cells.map(pad).join('  ').trimEnd();
  return [line(header), widths.map((w) => '─'.repeat(w)).join('  '), ...rows.map(line)];
}
