/**
 * Where entity labels come from: label predicates (rdfs:label, SKOS, schema.org, FOAF, Dublin Core), else
 * the IRI's local name split into words. One place for the list and the splitting rule; the entity index
 * (src/ground/store-index.ts), the executors' label lookups (src/execute) and schema discovery (src/synth)
 * all use these. A pack turns the local-name fallback on with pack.json `localNameLabels: true`.
 */
import { RDFS_LABEL } from './rdf';
import { identifierBoundaries } from './text';

export const SKOS_PREF_LABEL = 'http://www.w3.org/2004/02/skos/core#prefLabel';
export const SKOS_ALT_LABEL = 'http://www.w3.org/2004/02/skos/core#altLabel';
export const SCHEMA_NAME = 'http://schema.org/name';
export const SCHEMA_NAME_HTTPS = 'https://schema.org/name';
export const FOAF_NAME = 'http://xmlns.com/foaf/0.1/name';
export const DC_TITLE = 'http://purl.org/dc/elements/1.1/title';
export const DCTERMS_TITLE = 'http://purl.org/dc/terms/title';

/** Label predicates looked for in a new graph, in order of preference (the first one present wins a tie). */
export const LABEL_PREDICATES: readonly string[] = [RDFS_LABEL, SKOS_PREF_LABEL, SCHEMA_NAME, SCHEMA_NAME_HTTPS, FOAF_NAME, DC_TITLE, DCTERMS_TITLE];

/** Predicates whose labels are aliases (indexed, never preferred for display). */
export const ALIAS_PREDICATES: readonly string[] = [SKOS_ALT_LABEL];

/** The label source name of labels made from IRI local names (LabelSource.source in schema.json). */
export const LOCAL_NAME_SOURCE = 'iri-local-name';

/** The raw local name of an IRI: after the last '#' or '/' (the segment before when the IRI ends in one), %-decoded. */
export function iriLocalName(iri: string): string {
  let s = iri.replace(/[/#]+$/, '');
  const cut = Math.max(s.lastIndexOf('#'), s.lastIndexOf('/'));
  // urn:isbn:123 and similar have no '/': take what follows the last ':'.
  s = cut >= 0 ? s.slice(cut + 1) : s.slice(s.lastIndexOf(':') + 1);
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * The name of an IRI inside a namespace (the inverse of minting `<ns><encodeURIComponent(name)>`): the rest after
 * `ns`, %-decoded; undefined when the IRI is not inside it, is the namespace itself, or its rest is not valid
 * %-encoding.
 */
export function nameInNamespace(iri: string, ns: string | undefined): string | undefined {
  if (!ns || !iri.startsWith(ns) || iri.length === ns.length) return undefined;
  try {
    return decodeURIComponent(iri.slice(ns.length));
  } catch {
    return undefined;
  }
}

/**
 * Words of a local name, for display: `%20`, `_`, `-`, `+` and `.` become spaces; camelCase and ACRONYMWord
 * are split by text.ts `identifierBoundaries` ("inTown" → "in Town", "HTMLParser" → "HTML Parser", "IMDbRating"
 * → "IMDb Rating"); digits stay attached ("R2D2", "Route66"), other punctuation and case are kept.
 */
export function splitName(name: string): string {
  return identifierBoundaries(name.replace(/[_\-+.\s]+/g, ' '), false)
    .replace(/\s+/g, ' ')
    .trim();
}

/** An entity label from its IRI: the local name split into words ("Tom_Hanks" → "Tom Hanks"). Empty when none. */
export function localNameLabel(iri: string): string {
  return splitName(iriLocalName(iri));
}

/** A phrase for a schema term (class or property): the split local name, lower-cased except acronyms ("inTown" → "in town"). */
export function termPhrase(name: string): string {
  return splitName(name)
    .split(' ')
    .map((w) => (/^\p{Lu}{2,}$/u.test(w) ? w : w.toLowerCase()))
    .join(' ');
}
