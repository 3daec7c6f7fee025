export { createGateway, parserConfidence, type Gateway, type GatewayOptions, type ParseResult, type ScoringGenerator } from './gateway';
export { ASK_DEFAULTS, AskOptionsObject, AskOptionsSchema, MAX_QUESTION_LENGTH, validateQuestion, checkAskOptions, type AskOptions } from './options';
export { cpuMs, PhaseClock, type StartupPhase } from './startup';
export { failureOf, TRANSIENT_OUTCOMES } from './failure';
