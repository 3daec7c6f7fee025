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

export type Form =
  | { kind: 'entity'; ref: Ref }
  | Literal
  | { kind: 'class'; ref: Ref } // a bare class name in expression position, e.g. (AND theater.play …)
  | { kind: 'join'; relation: Relation; arg: Form } // (JOIN r x) = { s : (s r o), o ∈ x }
  | { kind: 'and'; args: [Form, Form] }
  | { kind: 'count'; arg: Form }
  | { kind: 'arg'; op: ArgOp; arg: Form; relation: Relation } // (ARGMAX x r)
  | { kind: 'compare'; op: CompareOp; relation: Relation; value: Literal } // (GT r v) = { s : (s r o), o > v }
  | { kind: 'tc'; arg: Form; relation: Relation; value: Literal }; // (TC x r t): x whose r-interval contains t

