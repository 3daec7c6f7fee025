/** JSON Lines in and out, written byte-for-byte like Python's json.dumps(ensure_ascii=False) so files match the bootstrap script. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AskgraphError } from '../core';
import type { Example } from './types';

/** Python str.splitlines(): every line boundary Python knows, no trailing empty line. */
export function splitLines(text: string): string[] {
  const lines = text.split(/\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** json.dumps(value, ensure_ascii=False) with Python's default separators (", " and ": "). */
export function pyJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new AskgraphError('DATA_FORMAT', `cannot write ${value} as JSON`);
    return Number.isInteger(value) ? String(value) : JSON.stringify(value);
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value)) return '[' + value.map(pyJson).join(', ') + ']';
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  return '{' + entries.map(([k, v]) => JSON.stringify(k) + ': ' + pyJson(v)).join(', ') + '}';
}

/** The text of a JSON scalar read from a data set (an id, a name): a string as is, a number or boolean as String() writes it; null, a list or an object has none. */
export function scalarText(value: unknown): string | undefined {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;
}

export function toJsonl(rows: readonly unknown[]): string {
  return rows.map((r) => pyJson(r) + '\n').join('');
}

/** Writes JSON Lines, making the file's folder when it does not exist (`askgraph import … --out new/dir/x.jsonl`). */
export function writeJsonl(file: string, rows: readonly unknown[]): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, toJsonl(rows), 'utf8');
}

/** Parses JSON Lines (blank lines ignored); a bad line throws DATA_FORMAT with its line number. */
export function parseJsonl<T = unknown>(text: string, source = '<input>'): T[] {
  const out: T[] = [];
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (!line) continue;
    try {
      out.push(JSON.parse(line) as T);
    } catch (e) {
      throw new AskgraphError('DATA_FORMAT', `${source}:${i + 1}: not valid JSON (${(e as Error).message})`, {
        details: { file: source, line: i + 1 },
      });
    }
  }
  return out;
}

/** Reads a data set in the JSON Lines format and checks each example's shape. */
export function readExamples(file: string): Example[] {
  const rows = parseJsonl(readText(file), file);
  return rows.map((r, i) => checkExample(r, `${file}: example ${i + 1}`));
}

export function checkExample(input: unknown, where: string): Example {
  const bad = (what: string) => new AskgraphError('DATA_FORMAT', `${where}: ${what}`);
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw bad('not an object');
  const r = input as Record<string, unknown>;
  if (typeof r.question !== 'string') throw bad('"question" must be a string');
  if (!Array.isArray(r.answers) || !r.answers.every((a) => typeof a === 'string')) throw bad('"answers" must be a list of strings');
  if (r.form !== undefined && r.form !== null && typeof r.form !== 'string') throw bad('"form" must be a string');
  if (r.rows !== undefined && !(Array.isArray(r.rows) && r.rows.every((row) => Array.isArray(row) && row.every((c) => c === null || typeof c === 'string')))) throw bad('"rows" must be a list of lists of strings (null for an empty cell)');
  if (r.sparql !== undefined && r.sparql !== null && typeof r.sparql !== 'string') throw bad('"sparql" must be a string');
  const meta = (typeof r.meta === 'object' && r.meta !== null ? r.meta : { dataset: 'unknown' }) as Example['meta'];
  return {
    id: scalarText(r.id) ?? where,
    question: r.question,
    form: (r.form as string | null) ?? undefined,
    sparql: (r.sparql as string | null) ?? undefined,
    answers: r.answers,
    ...(r.rows !== undefined ? { rows: r.rows as (string | null)[][] } : {}),
    topic: Array.isArray(r.topic) ? (r.topic as string[]) : undefined,
    meta,
  };
}

export function readText(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new AskgraphError('NOT_FOUND', `cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, { cause: e });
  }
}
