/**
 * QALD-style JSON (questions + SPARQL + answers) → examples, with a form wherever sparqlToForm converts the query.
 * Reads the QALD layout ({questions: [{id, question: [{language, string}], query: {sparql}, answers: [{results|boolean}]}]})
 * and the flat layout of CWQ / WebQSP dumps ([{ID, question, sparql, answer(s), topic_entity}]).
 * Queries that do not convert keep their SPARQL and get no form; they are counted by reason.
 */
import { AskgraphError } from '../../core';
import { sparqlToForm, type ToFormOptions } from '../../compile';
import { printForm } from '../../form';
import { scalarText } from '../jsonl';
import type { Example } from '../types';

export const FREEBASE_NS = 'http://rdf.freebase.com/ns/';

export interface ConversionStats {
  total: number;
  converted: number;
  failed: number;
  /** Failure reasons (details.reason of CONVERSION_UNSUPPORTED, or the error code) → count. */
  reasons: Record<string, number>;
}

export interface QaldImport {
  examples: Example[];
  stats: ConversionStats;
}

export interface QaldOptions extends ToFormOptions {
  dataset?: string;
  /** Question language in QALD multilingual files (default "en"). */
  language?: string;
}

type Json = Record<string, unknown>;

function text(x: unknown): string | undefined {
  return typeof x === 'string' ? x : undefined;
}

/**
 * Answers of a QALD `answers` entry: bindings' values (IRIs or literal lexical forms; every cell of a result with
 * several variables), or "true"/"false" for ASK. A result with several variables (head.vars, else the bindings'
 * keys) also gives its rows: the cells in variable order, null where a variable is unbound.
 */
export function qaldAnswers(answers: unknown): { answers: string[]; rows?: (string | null)[][] } {
  const out: string[] = [];
  const rows: (string | null)[][] = [];
  let several = false;
  for (const a of Array.isArray(answers) ? answers : [answers]) {
    if (!a || typeof a !== 'object') continue;
    const o = a as Json;
    if (typeof o.boolean === 'boolean') out.push(String(o.boolean));
    const bindings = ((o.results as Json | undefined)?.bindings ?? []) as Json[];
    const headVars = (o.head as Json | undefined)?.vars;
    const vars = Array.isArray(headVars) && headVars.every((v) => typeof v === 'string') ? headVars : [...new Set(bindings.flatMap((b) => Object.keys(b)))];
    if (vars.length > 1) several = true;
    for (const b of bindings) {
      const cell = (v: unknown): string | null => (v && typeof v === 'object' && 'value' in v ? String((v as Json).value) : null);
      for (const v of Object.values(b)) {
        const c = cell(v);
        if (c !== null) out.push(c);
      }
      rows.push(vars.map((name) => cell(b[name])));
    }
  }
  return several ? { answers: out, rows } : { answers: out };
}

function questionText(q: unknown, language: string): string | undefined {
  if (typeof q === 'string') return q;
  if (Array.isArray(q)) {
    const hit = (q as Json[]).find((x) => x.language === language) ?? (q as Json[])[0];
    return hit ? text(hit.string) : undefined;
  }
  return undefined;
}

/** Freebase queries resolve against the Freebase namespace unless the caller's (a pack's) namespace is in the query. */
function conversionOptions(sparql: string, opts: QaldOptions): ToFormOptions {
  if (!sparql.includes(FREEBASE_NS) || (opts.vocabularyNamespace && sparql.includes(opts.vocabularyNamespace))) return opts;
  return { ...opts, vocabularyNamespace: FREEBASE_NS, classNamespace: FREEBASE_NS, entityNamespace: FREEBASE_NS };
}

export function importQald(data: unknown, opts: QaldOptions = {}): QaldImport {
  const language = opts.language ?? 'en';
  const rows: Json[] = Array.isArray(data)
    ? (data as Json[])
    : data && typeof data === 'object' && Array.isArray((data as Json).questions)
      ? ((data as Json).questions as Json[])
      : (() => {
          throw new AskgraphError('DATA_FORMAT', 'QALD: expected {questions: [...]} or a list of questions');
        })();
  const dataset = opts.dataset ?? (Array.isArray(data) ? 'cwq' : 'qald');
  const stats: ConversionStats = { total: 0, converted: 0, failed: 0, reasons: {} };
  const examples: Example[] = [];
  rows.forEach((r, i) => {
    const question = questionText(r.question, language);
    if (question === undefined) throw new AskgraphError('DATA_FORMAT', `QALD: question ${i + 1} has no ${language} text`);
    const sparql = text((r.query as Json | undefined)?.sparql) ?? text(r.sparql) ?? text(r.query);
    const gold = r.answers !== undefined && !(Array.isArray(r.answers) && r.answers.every((a) => typeof a === 'string')) ? qaldAnswers(r.answers) : undefined;
    const answers =
      gold !== undefined
        ? gold.answers
        : Array.isArray(r.answers)
          ? (r.answers as string[])
          : typeof r.answer === 'string'
            ? [r.answer]
            : [];
    const topicMap = r.topic_entity && typeof r.topic_entity === 'object' ? (r.topic_entity as Record<string, string>) : undefined;
    let form: string | undefined;
    if (sparql) {
      stats.total++;
      try {
        form = printForm(sparqlToForm(sparql, conversionOptions(sparql, opts)));
        stats.converted++;
      } catch (e) {
        stats.failed++;
        const err = e as { code?: string; details?: { reason?: unknown }; message?: string };
        const reason = err.code === 'CONVERSION_UNSUPPORTED' && typeof err.details?.reason === 'string' ? err.details.reason : (err.code ?? 'error');
        stats.reasons[reason] = (stats.reasons[reason] ?? 0) + 1;
      }
    }
    examples.push({
      id: scalarText(r.id ?? r.ID) ?? `${dataset}-${i}`,
      question,
      form,
      sparql,
      answers,
      ...(gold?.rows ? { rows: gold.rows } : {}),
      topic: topicMap ? Object.values(topicMap) : undefined,
      meta: { dataset, ...(typeof r.compositionality_type === 'string' ? { qtype: r.compositionality_type } : typeof r.kind === 'string' ? { qtype: r.kind } : {}) },
    });
  });
  return { examples, stats };
}
