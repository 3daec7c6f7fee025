export * from './types';
export { BudgetGuard, BudgetExhausted, guardOf } from './budget';
export { runChain, assertGrounded, chainTrace, CONFIDENCE_CAP, MAX_FALLBACK_CONFIDENCE } from './chain';
export { mineRelationVocabulary, chainFromForm, chainToForm, hopKey, HopModel, type RelationVocabulary, type VocabExample } from './vocabulary';
export { questionTerms, questionContentTerms, terms, stem } from './text';
export { PathReader, type PathReaderOptions } from './readers/paths';
export { TripleReader, scoreNeighbourhood, type TripleReaderOptions, type ScoredEdge } from './readers/triples';
export { ExploreReader, type ExploreReaderOptions } from './readers/explore';
export { defaultReaders, readersByName, READER_NAMES, type ReaderOptions } from './registry';
