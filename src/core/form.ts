/**
 * The logical-form AST (ChatKBQA / GrailQA S-expressions). The grammar is grammar/logical-form.ebnf;
 * src/form parses, prints, normalises and diffs it. Every stage speaks this type.
 */

/** How an entity, class or relation is named: a bare name/id, a bracketed label, or an IRI. */
export type Ref =
  | { kind: 'name'; name: string } // directed_by, people.person.nationality, m.0yrlqjm, theater.play
  | { kind: 'label'; label: string } // [ Forrest Gump ]
  | { kind: 'iri'; iri: string }; // <http://...>

export type Relation =
  | { kind: 'rel'; ref: Ref }
  | { kind: 'reverse'; of: Relation } // (R r)
  | { kind: 'chain'; first: Relation; then: Relation }; // (JOIN r1 r2) in relation position (ARGMAX / comparison paths)

/** A typed literal; datatype is a full IRI (xsd:integer, xsd:date, …); strings may carry a language tag. */
export interface Literal {
  kind: 'literal';
  value: string;
  datatype: string;
  lang?: string;
}

export type CompareOp = 'GT' | 'GE' | 'LT' | 'LE';
export type ArgOp = 'ARGMAX' | 'ARGMIN';
export type AggregateOp = 'AVG' | 'SUM' | 'MAX' | 'MIN';
export type RatioOp = 'RATIO' | 'PERCENT';
export type CommonOp = 'MOSTCOMMON' | 'LEASTCOMMON';
export type ArgCountOp = 'ARGMAXCOUNT' | 'ARGMINCOUNT';
export type ArithOp = 'ABSDIFF';

export type Form =
  | { kind: 'entity'; ref: Ref }
  | Literal
  | { kind: 'class'; ref: Ref } // a bare class name in expression position, e.g. (AND theater.play …)
  | { kind: 'join'; relation: Relation; arg: Form } // (JOIN r x) = { s : (s r o), o ∈ x }
  | { kind: 'and'; args: [Form, Form] }
  | { kind: 'count'; arg: Form }
  | { kind: 'arg'; op: ArgOp; arg: Form; relation: Relation } // (ARGMAX x r)
  | { kind: 'compare'; op: CompareOp; relation: Relation; value: Literal } // (GT r v) = { s : (s r o), o > v }
  | { kind: 'tc'; arg: Form; relation: Relation; value: Literal } // (TC x r t): x whose r-interval contains t
  // ---- form language v2 (grammar/logical-form.ebnf [22]–[30]) ----
  | { kind: 'ask'; arg: Form } // (ASK x): true iff x is non-empty — boolean
  | { kind: 'diff'; args: [Form, Form] } // (DIFF a b) = a \ b
  | { kind: 'or'; args: [Form, Form] } // (OR a b) = a ∪ b
  | { kind: 'aggregate'; op: AggregateOp; arg: Form } // (AVG x) … over the values in x — number
  | { kind: 'ratio'; op: RatioOp; args: [Form, Form] } // (RATIO a b) = |a| / |b|, PERCENT ×100 — number
  | { kind: 'common'; op: CommonOp; arg: Form; relation: Relation } // (MOSTCOMMON x r): the o of (s r o), s ∈ x, reached by the most s
  | { kind: 'argcount'; op: ArgCountOp; arg: Form; relation: Relation } // (ARGMAXCOUNT x r): the s ∈ x with the most r-values
  | { kind: 'has'; relation: Relation } // (HAS r) = { s : (s r o) for some o } — "has an address", SQL's join
  | { kind: 'arith'; op: ArithOp; args: [Form, Form] }; // (ABSDIFF a b) = |v(a) − v(b)|, a and b one value each — number ([30])

/**
 * What a form's answer is: a set of entities/values, one number, one boolean, or a table (rows of several
 * values: projections of attributes, a value per group, ordered top-k lists — form language v3).
 */
export type AnswerType = 'entities' | 'number' | 'boolean' | 'table';

