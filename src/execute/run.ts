import { AnswerItem, AnswerTable, AskgraphError, CompiledQuery, Executor, isAskgraphError, Outcome, Term, toAskgraphError } from '../core';
import { XSD } from './terms';

export interface RunOptions {
  /** Budget for the query and the label lookup together (executor default when absent). */
  timeoutMs?: number;
  /** Attach labels to IRI answers (default true). */
  labels?: boolean;
}

function item(t: Term): AnswerItem | undefined {
  if (t.type === 'uri') return { value: t.value, label: null, type: 'uri' };
  if (t.type === 'literal') return { value: t.value, label: null, type: 'literal', ...(t.datatype ? { datatype: t.datatype } : {}) };
  return undefined; // blank nodes cannot be named outside the store: not answers
}

/** A fixed order of a set of answers: by the text shown (label, else value), then the value (code-unit order, no locale). */
export function canonicalOrder(a: AnswerItem, b: AnswerItem): number {
  const x = a.label ?? a.value;
  const y = b.label ?? b.value;
  if (x !== y) return x < y ? -1 : 1;
  return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
}

const DECIMAL_TYPES = new Set([XSD + 'decimal', XSD + 'double', XSD + 'float']);

/**
 * One lexical form per number, whichever store computed it: Oxigraph and Virtuoso write averages with
 * different digits ("2.5", "2.500000000", "2.5E0"). Decimals and doubles become the shortest text of
 * the double closest to them, rounded to 12 significant digits (an aggregate's last digits are noise).
 */
export function canonicalNumber(value: string, datatype: string | undefined): string {
  if (!datatype || !DECIMAL_TYPES.has(datatype)) return value;
  const n = Number(value);
  if (!Number.isFinite(n)) return value;
  const text = String(Number(n.toPrecision(12)));
  if (datatype !== XSD + 'decimal') return text;
  return /[eE]/.test(text) ? value : text.includes('.') ? text : text + '.0';
}

/**
 * Runs a compiled query by its kind and returns an Outcome (never throws for query failures): answers
 * deduplicated, topic entity IRIs removed, IRIs labelled with one batched label query. A failing label
 * lookup fails the outcome like a failing query ('timeout' for QUERY_TIMEOUT, else 'error' with its code;
 * a store restart is retried once): never answers with null labels. Literal answers keep label null (their
 * value is the text).
 */
export async function runCompiled(executor: Executor, compiled: CompiledQuery, opts: RunOptions = {}): Promise<Outcome> {
  const first = await runOnce(executor, compiled, opts);
  // The store process died under this query (killed, crashed on another one) and is being restarted:
  // run it once more, in the time left. Without this, a question asked while the store restarts
  // would skip its best form and could be answered by a worse one.
  if (first.status === 'error' && first.error?.code === 'STORE_UNAVAILABLE' && (opts.timeoutMs === undefined || first.timeMs < opts.timeoutMs)) {
    const again = await runOnce(executor, compiled, opts.timeoutMs === undefined ? opts : { ...opts, timeoutMs: opts.timeoutMs - first.timeMs });
    return { ...again, timeMs: first.timeMs + again.timeMs };
  }
  return first;
}

/** Rows compared cell by cell in canonicalOrder; an empty cell (null) first. */
export function canonicalRowOrder(a: readonly (AnswerItem | null)[], b: readonly (AnswerItem | null)[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? null;
    const y = b[i] ?? null;
    if (x === null || y === null) {
      if (x !== y) return x === null ? -1 : 1;
      continue;
    }
    const c = canonicalOrder(x, y);
    if (c !== 0) return c;
  }
  return 0;
}

function cellKey(t: AnswerItem | null): string {
  return t === null ? '' : `${t.type} ${t.datatype ?? ''} ${t.value}`;
}

/** Reads the label of every IRI in the items (one batched lookup); a failed lookup fails the outcome. */
async function attachLabels(executor: Executor, items: AnswerItem[], timeoutMs: number | undefined): Promise<void> {
  const iris = [...new Set(items.filter((a) => a.type === 'uri').map((a) => a.value))];
  if (iris.length === 0) return;
  let labels: Map<string, string>;
  try {
    labels = await executor.labels(iris, { timeoutMs });
  } catch (e) {
    const err = isAskgraphError(e) ? e : toAskgraphError(e);
    throw new AskgraphError(err.code, `label lookup: ${err.message}`, { cause: e });
  }
  for (const a of items) if (a.type === 'uri') a.label = labels.get(a.value) ?? null;
}

/**
 * kind 'table': a row per result row, a cell per column (null where the variable is unbound: an empty cell from an
 * OPTIONAL, never a dropped row); equal rows once; rows whose key (first cell) is a topic entity left out; numbers in
 * one lexical form; IRIs labelled. The query's order is kept when it orders (compiled.ordered), else the canonical one.
 */
async function runTable(executor: Executor, compiled: CompiledQuery, opts: RunOptions, timeoutMs: () => number | undefined): Promise<AnswerTable> {
  const columns = compiled.columns ?? [{ name: compiled.answerVar, label: compiled.answerVar }];
  const res = await executor.select(compiled.sparql, { timeoutMs: timeoutMs() });
  const topics = new Set(compiled.topicEntities);
  const seen = new Set<string>();
  const rows: (AnswerItem | null)[][] = [];
  for (const row of res.rows) {
    const cells = columns.map((c): AnswerItem | null => {
      const t = row[c.name];
      const a = t ? item(t) : undefined;
      if (!a) return null;
      if (a.type === 'literal') a.value = canonicalNumber(a.value, a.datatype);
      return a;
    });
    const first = cells[0];
    if (first?.type === 'uri' && topics.has(first.value)) continue;
    const key = cells.map(cellKey).join('\u0000');
    if (seen.has(key)) continue;
    seen.add(key);
    rows.push(cells);
  }
  if (opts.labels !== false) await attachLabels(executor, rows.flat().filter((c): c is AnswerItem => c !== null), timeoutMs());
  if (!compiled.ordered) rows.sort(canonicalRowOrder);
  return { columns, rows };
}

/** The distinct values of a table's first column, in row order (the row keys: `answers` of a table answer). */
export function tableKeys(table: AnswerTable): AnswerItem[] {
  const seen = new Set<string>();
  const out: AnswerItem[] = [];
  for (const row of table.rows) {
    const c = row[0];
    if (!c || seen.has(cellKey(c))) continue;
    seen.add(cellKey(c));
    out.push(c);
  }
  return out;
}

async function runOnce(executor: Executor, compiled: CompiledQuery, opts: RunOptions): Promise<Outcome> {
  const t0 = Date.now();
  const remaining = () => (opts.timeoutMs === undefined ? undefined : Math.max(1, opts.timeoutMs - (Date.now() - t0)));
  let answers: AnswerItem[];
  let table: AnswerTable | undefined;
  try {
    if (compiled.kind === 'table') {
      table = await runTable(executor, compiled, opts, remaining);
      answers = tableKeys(table);
    } else if (compiled.kind === 'ask') {
      const b = await executor.ask(compiled.sparql, { timeoutMs: remaining() });
      answers = [{ value: String(b), label: null, type: 'literal', datatype: XSD + 'boolean' }];
    } else if (compiled.kind === 'count') {
      const n = await executor.count(compiled.sparql, { timeoutMs: remaining() });
      answers = [{ value: String(n), label: null, type: 'literal', datatype: XSD + 'integer' }];
    } else if (compiled.kind === 'value') {
      // one literal (an aggregate or a ratio): an unbound result (MAX of nothing, a ratio over 0) is no answer
      const res = await executor.select(compiled.sparql, { timeoutMs: remaining() });
      const t = res.rows[0]?.[compiled.answerVar];
      answers = t?.type === 'literal' ? [{ value: canonicalNumber(t.value, t.datatype), label: null, type: 'literal', ...(t.datatype ? { datatype: t.datatype } : {}) }] : [];
    } else {
      const res = await executor.select(compiled.sparql, { timeoutMs: remaining() });
      const topics = new Set(compiled.topicEntities);
      const seen = new Set<string>();
      answers = [];
      for (const row of res.rows) {
        const t = row[compiled.answerVar];
        if (!t || (t.type === 'uri' && topics.has(t.value))) continue;
        const a = item(t);
        const key = `${t.type} ${t.datatype ?? ''} ${t.lang ?? ''} ${t.value}`;
        if (!a || seen.has(key)) continue;
        seen.add(key);
        answers.push(a);
      }
      const iris = answers.filter((a) => a.type === 'uri').map((a) => a.value);
      if (opts.labels !== false && iris.length > 0) {
        // A failed lookup fails the outcome (a timeout is a timeout): answers whose labels could not be read
        // are not the answer (null labels for named entities), and they must not be cached as one.
        let labels: Map<string, string>;
        try {
          labels = await executor.labels(iris, { timeoutMs: remaining() });
        } catch (e) {
          const err = isAskgraphError(e) ? e : toAskgraphError(e);
          throw new AskgraphError(err.code, `label lookup: ${err.message}`, { cause: e });
        }
        for (const a of answers) if (a.type === 'uri') a.label = labels.get(a.value) ?? null;
      }
      // SPARQL without ORDER BY has no order: the store's own (which differs between a store loaded from the
      // data files and one loaded from its snapshot) must not decide which answer comes first
      answers.sort(canonicalOrder);
    }
  } catch (e) {
    const err = isAskgraphError(e) ? e : toAskgraphError(e);
    return {
      status: err.code === 'QUERY_TIMEOUT' ? 'timeout' : 'error',
      answers: [],
      error: { code: err.code, message: err.message },
      timeMs: Date.now() - t0,
    };
  }
  return { status: answers.length ? 'answers' : 'empty', answers, ...(table ? { table } : {}), timeMs: Date.now() - t0 };
}
