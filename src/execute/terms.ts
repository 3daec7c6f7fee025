import { RDF_LANG_STRING, XSD_STRING, type SelectResult, type Term, type Triple } from '../core';

// The constants live in src/core/rdf.ts; re-exported for the stage's own modules.
export { RDF_LANG_STRING, RDFS_LABEL, XSD, XSD_STRING } from '../core';

/** The RDF/JS term shape shared by Oxigraph and Comunica (only what we read). */
export interface RdfJsTerm {
  termType: string;
  value: string;
  language?: string;
  datatype?: { value: string };
}

/** One narrowing point from RDF/JS terms (Oxigraph, Comunica) to our plain, cloneable Term. */
export function fromRdfJs(t: RdfJsTerm): Term {
  switch (t.termType) {
    case 'NamedNode':
      return { type: 'uri', value: t.value };
    case 'BlankNode':
      return { type: 'bnode', value: t.value };
    case 'Literal': {
      const out: Term = { type: 'literal', value: t.value };
      if (t.language) out.lang = t.language;
      else if (t.datatype && t.datatype.value !== XSD_STRING) out.datatype = t.datatype.value;
      return out;
    }
    default:
      // Quoted triples (RDF-star) and variables never reach answers; keep their text form.
      return { type: 'literal', value: t.value };
  }
}

interface JsonTerm {
  type: string;
  value: string;
  datatype?: string;
  'xml:lang'?: string;
}

/** A SPARQL 1.1 JSON results term (W3C format, also the older "typed-literal") as a Term. */
function fromJsonTerm(t: JsonTerm): Term {
  if (t.type === 'uri') return { type: 'uri', value: t.value };
  if (t.type === 'bnode') return { type: 'bnode', value: t.value };
  const out: Term = { type: 'literal', value: t.value };
  if (t['xml:lang']) out.lang = t['xml:lang'];
  else if (t.datatype && t.datatype !== XSD_STRING && t.datatype !== RDF_LANG_STRING) out.datatype = t.datatype;
  return out;
}

/** Parses SPARQL JSON results text of a SELECT. */
export function parseJsonSelect(text: string): SelectResult {
  const doc = JSON.parse(text) as { head: { vars?: string[] }; results: { bindings: Record<string, JsonTerm>[] } };
  const vars = doc.head.vars ?? [];
  const rows = doc.results.bindings.map((b) => {
    const row: Record<string, Term> = {};
    for (const [k, v] of Object.entries(b)) row[k] = fromJsonTerm(v);
    return row;
  });
  return { vars, rows };
}

export function parseJsonAsk(text: string): boolean {
  const doc = JSON.parse(text) as { boolean?: unknown };
  return doc.boolean === true;
}

export function tripleFromRdfJs(q: { subject: RdfJsTerm; predicate: RdfJsTerm; object: RdfJsTerm }): Triple {
  return { s: fromRdfJs(q.subject), p: fromRdfJs(q.predicate), o: fromRdfJs(q.object) };
}

/** Characters that may not appear inside an IRI reference <…> in SPARQL / N-Triples. */
const BAD_IRI = /[\u0000-\u0020<>"{}|^`\\]/;

export function isSafeIri(iri: string): boolean {
  return iri.length > 0 && !BAD_IRI.test(iri) && /^[A-Za-z][A-Za-z0-9+.-]*:/.test(iri);
}
