/** Moved to src/core/morph.ts (shared with src/ground); re-exported for the lexicon. */
export * from '../core/morph';
