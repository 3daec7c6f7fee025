/** SPARQL text ⇄ sparqljs AST, the IRI check and AST pieces: shared by compile, ground, execute, fallback, synth and serve. */
export { parseSparql, assertReadOnly, queryKind, generateSparql, type QueryKind } from './text';
export { isSafeIri, checkIri } from './iri';
export { countAll } from './ast';
