/** Moved to src/core/wordnet.ts (shared through src/core/morph.ts); re-exported for the lexicon. */
export * from '../core/wordnet';
