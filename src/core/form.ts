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
// ---- form language v3: tables (grammar/logical-form.ebnf [31]–[38]) ----
export type GroupOp = 'GROUPCOUNT' | 'GROUPSUM' | 'GROUPAVG' | 'GROUPMAX' | 'GROUPMIN';
export type OrderOp = 'ASC' | 'DESC';
export type SliceOp = 'LIMIT' | 'OFFSET';
export type MoreOp = 'MORE' | 'LESS';

/** A column of (TABLE x c1 … cn): a relation's value, or (MINUS r1 r2) the difference of two of the member's values. */
export type Column = Relation | { kind: 'minus'; args: [Relation, Relation] };

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
  | { kind: 'arith'; op: ArithOp; args: [Form, Form] } // (ABSDIFF a b) = |v(a) − v(b)|, a and b one value each — number ([30])
  // ---- form language v3: tables, ordering, value comparisons, text containment ([31]–[38]) ----
  | { kind: 'table'; arg: Form; columns: Column[] } // (TABLE x r1 … rn): a row per member and its values, an empty cell where none ([31])
  | { kind: 'group'; op: GroupOp; arg: Form; by: Relation; value?: Relation } // (GROUPCOUNT x r) / (GROUPAVG x r v): a row per r-value ([32])
  | { kind: 'having'; arg: Form; op: CompareOp; value: Literal } // (HAVING t GT 10): the rows of a group table whose aggregate compares ([33])
  | { kind: 'order'; op: OrderOp; arg: Form; relation?: Relation } // (DESC x r) / (ASC t): rows in order ([34])
  | { kind: 'slice'; op: SliceOp; n: number; arg: Form } // (LIMIT 3 t) / (OFFSET 5 t): a window of an ordered table ([35])
  | { kind: 'attrcompare'; op: CompareOp; relation: Relation; other: Relation } // (GT r1 r2) = { s : v(s r1) op v(s r2) } ([36])
  | { kind: 'more'; op: MoreOp; args: [Form, Form] } // (MORE a b): is number a > number b — boolean ([37])
  | { kind: 'contains'; relation?: Relation; text: string }; // (CONTAINS [ word ]) / (CONTAINS r [ word ]): label / value contains the text, any case ([38]); the text is a span of the question, never an entity

/**
 * What a form's answer is: a set of entities/values, one number, one boolean, or a table (rows of several
 * values: projections of attributes, a value per group, ordered top-k lists — form language v3).
 */
export type AnswerType = 'entities' | 'number' | 'boolean' | 'table';

