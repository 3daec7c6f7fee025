export { compileForm, dateValue, numValue, sortKey, toRelation, tcBounds } from './compile';
export { sparqlToForm, type ToFormOptions } from './to-form';
export { parseSparql, assertReadOnly, queryKind, generateSparql, type QueryKind } from './sparql';
export {
  type CompileOptions,
  resolveOptions,
  packCompileOptions,
  packNamespaces,
} from './terms';
