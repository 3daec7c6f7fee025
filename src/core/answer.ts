import type { Answer } from './types';

/** The honest no-answer: no answers, source "none", confidence 0 (fields may be filled in by the caller). */
export function noAnswer(question: string, fields: Partial<Omit<Answer, 'question' | 'answers' | 'source' | 'confidence'>> = {}): Answer {
  return {
    question,
    answers: [],
    form: null,
    groundedForm: null,
    sparql: null,
    source: 'none',
    confidence: 0,
    beam: [],
    trace: [],
    timings: { generate: 0, ground: 0, execute: 0, fallback: 0, total: 0 },
    ...fields,
  };
}
