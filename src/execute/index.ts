/** The stores: embedded Oxigraph (in a worker) and SPARQL endpoints (Comunica), one Executor interface. */
export { OxigraphExecutor, type OxigraphOptions, type StoreHealth, type StoreState, type UserQueryResult } from './oxigraph';
export { runUserQuery, type UserRunOptions } from './public-query';
export { QueryChecker } from './checker';
export { analyseQuery, checkTokenDepth, precheckQuery, DEFAULT_USER_QUERY_LIMITS, type CheckedQuery, type UserQueryLimits, type QueryDataset } from './user-query';
export { EndpointExecutor, type EndpointHealth, type EndpointOptions } from './endpoint';
export {
  isEndpointUrl,
  loadPack,
  parsePackConfig,
  openExecutor,
  PACK_FILE,
  packOfStore,
  packManifest,
  refreshPackManifest,
  verifyPack,
  resolveStoreSpec,
  storeDataFiles,
  type OpenOptions,
  type StoreExecutor,
  type StoreSpec,
} from './pack';
export { runCompiled, canonicalRowOrder, tableKeys, type RunOptions } from './run';
export {
  buildStore,
  detectFormat,
  loadFile,
  loadText,
  saveSnapshot,
  digestOf,
  type FileDigest,
  loadSnapshot,
  mintEntity,
  mintRelation,
  tripleFileToNTriples,
  DATA_EXTENSIONS,
  type DataFormat,
  type StoreSource,
  type BuildInfo,
} from './loaders';
export { checkReadOnly, type QueryForm } from './readonly';
export { buildLabelQuery, lookupLabels, LabelPicker, withLocalNameLabels } from './labels';
export { queryByForm } from './readonly';
