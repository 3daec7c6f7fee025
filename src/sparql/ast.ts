import { Wildcard } from 'sparqljs';
import type * as S from 'sparqljs';
import { variable } from '../core';

/** `(COUNT(*) AS ?name)`, the row count of a group. */
export function countAll(name: string): S.VariableExpression {
  return { expression: { type: 'aggregate', aggregation: 'count', distinct: false, expression: new Wildcard() }, variable: variable(name) };
}
