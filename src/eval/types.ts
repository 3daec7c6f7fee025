/**
 * The one data-set format every importer writes and `askgraph eval` reads (JSON Lines, one example a line).
 * Forms are printed S-expressions with label entities (`[ Forrest Gump ]`); answers are labels (or IRIs).
 */
export interface Example {
  id: string;
  question: string;
  form?: string;
  sparql?: string;
  answers: string[];
  /**
   * Gold rows of a table answer (a QALD result with several variables): one list per binding, the cells in the
   * order of head.vars (null where the variable is unbound). `answers` then holds every cell's value.
   */
  rows?: (string | null)[][];
  topic?: string[];
  meta: ExampleMeta;
}

export interface ExampleMeta {
  dataset: string;
  hop?: number;
  qtype?: string;
  [key: string]: unknown;
}
