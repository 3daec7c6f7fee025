import { AskgraphError } from '../core';

/**
 * IRIs go into the AST as terms, but sparqljs writes them between <> unescaped, so an IRI with a space,
 * '>' or quote could still break out of a query. The one test of what the SPARQL IRIREF production allows,
 * with a scheme (compile, grounding, label look-ups, store loading all use it).
 */
const IRI_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const IRI_FORBIDDEN = /[\u0000-\u0020<>"{}|^`\\]/;

export function isSafeIri(iri: string): boolean {
  return IRI_SCHEME.test(iri) && !IRI_FORBIDDEN.test(iri);
}

/** The IRI itself when isSafeIri, else BAD_REQUEST. */
export function checkIri(iri: string): string {
  if (!isSafeIri(iri)) throw new AskgraphError('BAD_REQUEST', `not an absolute IRI: ${JSON.stringify(iri)}`);
  return iri;
}
