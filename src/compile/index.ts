export { compileForm, dateValue, numValue, sortKey, toRelation, tcBounds } from './compile';
export { sparqlToForm, type ToFormOptions } from './to-form';
export {
  type CompileOptions,
  resolveOptions,
  packCompileOptions,
  packNamespaces,
} from './terms';
