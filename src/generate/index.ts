export { SentencePieceTokenizer } from './tokenizer';
export { OnnxSession, int64Tensor, float32Tensor, type TensorData, type SessionOptions } from './onnx';
export {
  GrammarConstraint,
  isLiteralSymbol,
  tokensToFormText,
  escapeLabel,
  type TargetVocabulary,
  type ConstraintOptions,
  type ConstraintState,
} from './constraint';
export { beamSearch, teacherForce, logMass, type StepDecoder, type BeamOptions, type Hypothesis } from './beam';
export {
  loadParser,
  clearParserCache,
  readModelConfig,
  defaultModelDir,
  readLabelsFile,
  packLabels,
  OnnxParser,
  OnnxStepDecoder,
  gatherBatch,
  type ModelConfig,
  type ParserOptions,
  type ParserGenerateOptions,
} from './parser';
export { HttpGenerator, splitCandidates, type HttpGeneratorOptions } from './http';
