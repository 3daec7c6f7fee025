import type { Answer } from '../core';

/**
 * QALD-JSON (the format of the QALD challenges and of GERBIL QA's web-service interface):
 * {questions: [{id, question: [{language, string}], query: {sparql}, answers: [<SPARQL JSON result>]}]}.
 */
export interface QaldDocument {
  questions: {
    id: string;
    question: { language: string; string: string }[];
    query: { sparql?: string };
    answers: ({ head: { vars: string[] }; results: { bindings: Record<string, Record<string, string>>[] } } | { head: {}; boolean: boolean })[];
  }[];
}

export function toQald(answer: Answer, opts: { id?: string; lang?: string } = {}): QaldDocument {
  const items = answer.answers;
  const isBoolean = items.length === 1 && items[0].type === 'literal' && (answer.answerType === 'boolean' || items[0].datatype?.endsWith('#boolean'));
  let result: QaldDocument['questions'][number]['answers'][number];
  if (isBoolean) {
    result = { head: {}, boolean: items[0].value === 'true' || items[0].value === '1' };
  } else {
    const allUris = items.every((a) => a.type === 'uri');
    const v = allUris ? 'uri' : items.every((a) => a.type === 'literal') ? 'literal' : 'answer';
    result = {
      head: { vars: [v] },
      results: {
        bindings: items.map((a) => {
          const term: Record<string, string> = { type: a.type, value: a.value };
          if (a.type === 'literal' && a.datatype) term.datatype = a.datatype;
          return { [v]: term };
        }),
      },
    };
  }
  return {
    questions: [
      {
        id: opts.id ?? '1',
        question: [{ language: opts.lang ?? 'en', string: answer.question }],
        query: answer.sparql ? { sparql: answer.sparql } : {},
        answers: [result],
      },
    ],
  };
}
