/** Data sets, metrics and the evaluation harness (`askgraph eval`, `askgraph import`). */
export type { Example, ExampleMeta } from './types';
export { pyJson, toJsonl, writeJsonl, parseJsonl, readExamples, checkExample, splitLines, readText } from './jsonl';
export {
  normalizeAnswer,
  answerKeys,
  cellKey,
  rowsMatch,
  scoreAnswers,
  mean,
  rate,
  percentile,
  latencySummary,
  type AnswerScores,
  type LatencySummary,
} from './metrics';
export { metaqaForm, importMetaqaLines, importMetaqaSplit, readMetaqaFile, METAQA_STEPS } from './importers/metaqa';
export {
  importPathQuestion,
  importWc2014,
  importPathDataset,
  parseGoldPath,
  pathForm,
  parseAnswerField,
  readKbTriples,
  writeTriplePack,
  PATH_DATASETS,
  INVERSE_SUFFIX,
} from './importers/pathquestion';
export { importQald, FREEBASE_NS, type ConversionStats, type QaldImport, type QaldOptions } from './importers/qald';
export { importGrailqa } from './importers/grailqa';
export {
  type BaseGraph,
  type BasePair,
  type Conversion,
  type Naming,
  nameForm,
  fromSexpr,
  fromSparql,
  questionSpan,
  wordName,
  splitOf,
} from './importers/base-corpus';
export {
  buildBaseCorpus,
  dataPath,
  holdOutNames,
  BASE_SOURCES,
  DEV_ONLY_SETS,
  DEFAULT_HOLD_OUT,
  GROUPS,
  type BaseCorpus,
  type BaseCorpusOptions,
  type SourceStat,
} from './importers/base-sources';
export {
  runExamples,
  scoreExample,
  oracleRunner,
  pipelineRunner,
  sampleExamples,
  type Asker,
  type AskOptionsLike,
  type EvalMode,
  type ExampleResult,
  type ExampleRunner,
  type OracleContext,
} from './run';
export { summarize, markdownReport, METRIC_DEFINITIONS, type EvalSummary, type GroupSummary } from './report';
export { loadDataset, type DatasetFormat } from './dataset';
