export { parseForm, parseRelation, plainLiteralType, RDF_LANG_STRING, OPERATOR_NAMES } from './parser';
export { printForm, printRelation, printRef, printLiteral } from './print';
export {
  mapRefs,
  mapRelation,
  entityRefs,
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
