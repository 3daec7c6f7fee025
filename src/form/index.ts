export { parseForm, parseRelation, plainLiteralType, OPERATOR_NAMES } from './parser';
/** Re-exported for callers that import it with the form API; defined once in core/rdf.ts. */
export { RDF_LANG_STRING } from '../core';
export { printForm, printRelation, printRef, printLiteral } from './print';
export {
  mapChildren,
  children,
  mapRefs,
  mapRelation,
  entityRefs,
  containsTexts,
  relationRefs,
  classRefs,
  normalizeForm,
  canonicalText,
  formsEqual,
  skeleton,
  answerTypeOf,
  typeErrors,
  type RefMapper,
} from './transform';
export { tokenize, locate } from './lexer';
export * from './diff';
