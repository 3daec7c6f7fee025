export { parseForm, parseRelation, plainLiteralType, RDF_LANG_STRING } from './parser';
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
  type RefMapper,
} from './transform';
export { tokenize, locate } from './lexer';
export * from './diff';
