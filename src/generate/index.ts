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
  type NameState,
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
  type GraphNames,
} from './parser';
export { HttpGenerator, splitCandidates, type HttpGeneratorOptions } from './http';
export { nameTrie, openNameText, openNameToken, openNameForm, isOpenLiteral, type NameTrieNode } from './names';
