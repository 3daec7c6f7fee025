/**
 * What the question's wording asks for, read from its words alone: yes or no (`yesNoWording`), a number or a
 * boolean (`expectedAnswer`). The judging checks and the orchestration compare a reading's answer with it.
 */

export type ExpectedAnswer = 'number' | 'boolean';

/**
 * A question opening with an auxiliary verb, negated or not ("is …", "did …", "didn't …", "should …", "can't …"):
 * worded for yes or no. The one yes/no opening of yesNoWording and expectedAnswer.
 */
const OPENS_WITH_AUXILIARY = /^(?:(?:is|are|was|were|do|does|did|has|have|had|could|would|should)(?:n['’]t)?|can(?:['’]t)?|will|won['’]t)\b/;

/**
 * Whether the wording can ask yes or no: it opens with an auxiliary verb ("is …", "did …", "do you know if …") or
 * asks "if" / "whether". A yes/no reading of anything else ("tom hanks comedies") answers a question nobody asked.
 */
export function yesNoWording(question: string): boolean {
  const q = question.trim().toLowerCase();
  return OPENS_WITH_AUXILIARY.test(q) || /\b(if|whether)\b/.test(q);
}

/**
 * What shape of answer the question's wording asks for, when it says so plainly: "how many …" / "number of …" (not "… per / each / every …": a value per group, a table) /
 * "how far apart …" / "by how much …" / "difference in …" a number; a question opening with an auxiliary verb ("did …", "is …", "are there …") yes or no. Undefined
 * when the wording does not commit (wh-questions, noun phrases), and for "X or Y" alternatives, which name
 * their answer ("is Heat or Casino older" → one of them).
 */
export function expectedAnswer(question: string): ExpectedAnswer | undefined {
  const q = question.trim().toLowerCase();
  // a count per group ("how many products does each supplier have", "number of staff per office") is a table of counts
  if (/^(how\s+(many|much)\b|(the\s+|what\s+is\s+the\s+)?(number|count|total|average|percentage|share)\s+of\b)/.test(q)) return /\b(per|each|every)\b/.test(q) ? undefined : 'number';
  // differences (ABSDIFF): "how far apart were …", "by how much does …", "what is the difference in rating between …"
  if (/^(how\s+far\s+apart\b|by\s+how\s+(much|many)\b|(the\s+|what\s+is\s+the\s+|what's\s+the\s+)?difference\s+in\b)/.test(q)) return 'number';
  // "can you name …", "do you know which …" are requests, not yes/no questions
  if (/^(can|could|would|will|do)\s+you\b/.test(q)) return undefined;
  if (OPENS_WITH_AUXILIARY.test(q) && !/\bor\b/.test(q)) return 'boolean';
  return undefined;
}
