/** SPARQL text ⇄ sparqljs AST, shared by compile, ground, execute, synth and fallback. */
export { parseSparql, assertReadOnly, queryKind, generateSparql, type QueryKind } from './text';
