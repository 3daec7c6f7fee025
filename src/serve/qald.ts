import { AskgraphError, type Answer, type AnswerItem, type AnswerTable } from '../core';

/**
 * QALD-JSON (the format of the QALD challenges and of GERBIL QA's web-service interface):
 * {questions: [{id, answertype, question: [{language, string}], query: {sparql}, answers: [<SPARQL JSON result>]}]}.
 * `answertype` as in the QALD files: resource, number, boolean, date or string. A table answer (several
 * variables) is one result with every column in `head.vars` and a binding per row; its answertype is that of
 * its first column (the row keys: resource for entities or groups of entities).
 */
export interface QaldDocument {
  dataset?: unknown;
  questions: {
    id: string;
    answertype: 'resource' | 'number' | 'boolean' | 'date' | 'string';
    question: { language: string; string: string }[];
    query: { sparql?: string };
    /** Only when this question of a whole file could not be answered (its error; answers are then empty). */
    error?: { code: string; message: string };
    answers: ({ head: { vars: string[] }; results: { bindings: Record<string, Record<string, string>>[] } } | { head: Record<string, never>; boolean: boolean })[];
  }[];
}

/** A term of a SPARQL JSON binding. */
function qaldTerm(a: AnswerItem): Record<string, string> {
  const term: Record<string, string> = { type: a.type, value: a.value };
  if (a.type === 'literal' && a.datatype) term.datatype = a.datatype;
  return term;
}

/**
 * A table answer as one SPARQL JSON result of several variables: `head.vars` every column (the SPARQL
 * variable names, in order), a binding per row in the answer's order; an empty cell is the variable absent
 * from that row's binding, as a SPARQL endpoint writes an unbound OPTIONAL.
 */
function tableResult(table: AnswerTable): QaldDocument['questions'][number]['answers'][number] {
  const vars = table.columns.map((c) => c.name);
  const bindings = table.rows.map((row) => {
    const b: Record<string, Record<string, string>> = {};
    vars.forEach((v, i) => {
      const cell = row[i];
      if (cell) b[v] = qaldTerm(cell);
    });
    return b;
  });
  return { head: { vars }, results: { bindings } };
}

export function toQald(answer: Answer, opts: { id?: string; lang?: string } = {}): QaldDocument {
  const items = answer.answers;
  const first = items.length === 1 ? items[0] : undefined;
  const isBoolean = !answer.table && first?.type === 'literal' && (answer.answerType === 'boolean' || first.datatype?.endsWith('#boolean') === true);
  let result: QaldDocument['questions'][number]['answers'][number];
  if (answer.table) {
    result = tableResult(answer.table);
  } else if (isBoolean) {
    result = { head: {}, boolean: first.value === 'true' || first.value === '1' };
  } else {
    const allUris = items.every((a) => a.type === 'uri');
    const v = allUris ? 'uri' : items.every((a) => a.type === 'literal') ? 'literal' : 'answer';
    result = {
      head: { vars: [v] },
      results: {
        bindings: items.map((a) => ({ [v]: qaldTerm(a) })),
      },
    };
  }
  return {
    questions: [
      {
        id: opts.id ?? '1',
        answertype: qaldAnswerType(answer, isBoolean),
        question: [{ language: opts.lang ?? 'en', string: answer.question }],
        query: answer.sparql ? { sparql: answer.sparql } : {},
        answers: [result],
      },
    ],
  };
}

const XSD = 'http://www.w3.org/2001/XMLSchema#';
const NUMERIC = /^(integer|decimal|float|double|long|int|short|byte|nonNegativeInteger|positiveInteger|nonPositiveInteger|negativeInteger|unsignedLong|unsignedInt|unsignedShort|unsignedByte)$/;

function qaldAnswerType(answer: Answer, isBoolean: boolean): QaldDocument['questions'][number]['answertype'] {
  if (isBoolean || answer.answerType === 'boolean') return 'boolean';
  if (answer.answerType === 'number') return 'number';
  const items = answer.answers;
  if (items.length === 0 || items.some((a) => a.type === 'uri')) return 'resource';
  const local = (d?: string) => (d?.startsWith(XSD) ? d.slice(XSD.length) : '');
  if (items.every((a) => NUMERIC.test(local(a.datatype)))) return 'number';
  if (items.every((a) => /^(date|dateTime|gYear|gYearMonth)$/.test(local(a.datatype)))) return 'date';
  return 'string';
}

/** One question of a QALD file: its id and its English text (a QALD file lists one entry per language). */
export interface QaldQuestion {
  id: string;
  text: string | undefined;
}

/** The questions of a whole QALD-JSON document ({dataset?, questions: [{id, question: [{language, string}]}]}). */
export function qaldQuestions(doc: unknown, maxQuestions: number): { dataset?: unknown; questions: QaldQuestion[] } {
  const d = typeof doc === 'object' && doc !== null ? doc : {};
  const list = 'questions' in d ? d.questions : undefined;
  if (!Array.isArray(list)) throw new AskgraphError('BAD_REQUEST', 'a QALD document needs a "questions" array');
  if (list.length > maxQuestions) {
    throw new AskgraphError('INPUT_TOO_LARGE', `the QALD document has ${list.length} questions; at most ${maxQuestions} are answered per request`);
  }
  const questions = list.map((q: unknown, i: number): QaldQuestion => {
    const e = (q ?? {}) as { id?: unknown; question?: unknown };
    const id = typeof e.id === 'string' || typeof e.id === 'number' ? String(e.id) : String(i + 1);
    const langs: unknown[] = Array.isArray(e.question) ? e.question : [];
    const en = langs.find(
      (l): l is { language: string; string: string } =>
        typeof l === 'object' && l !== null && 'language' in l && typeof l.language === 'string' && /^en(\b|[-_])/i.test(l.language) && 'string' in l && typeof l.string === 'string',
    );
    return { id, text: en?.string };
  });
  const dataset = 'dataset' in d ? d.dataset : undefined;
  return { ...(dataset !== undefined ? { dataset } : {}), questions };
}
