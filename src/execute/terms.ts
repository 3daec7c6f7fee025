import { defined, RDF_LANG_STRING, XSD_STRING, type SelectResult, type Term, type Triple } from '../core';

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
  return selectFromJson(JSON.parse(text) as Parameters<typeof selectFromJson>[0]);
}

/** A parsed SPARQL JSON results document of a SELECT as rows of Terms. */
export function selectFromJson(doc: { head: { vars?: string[] }; results: { bindings: Record<string, JsonTerm>[] } }): SelectResult {
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



const NT_ESCAPE = /\\(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|([tbnrf"'\\]))/g;
const NT_CHAR: Record<string, string> = { t: '\t', b: '\b', n: '\n', r: '\r', f: '\f', '"': '"', "'": "'", '\\': '\\' };
function ntUnescape(s: string): string {
  return s.replace(NT_ESCAPE, (all: string, u4?: string, u8?: string, c?: string) => {
    const hex = u4 ?? u8;
    return hex !== undefined ? String.fromCodePoint(parseInt(hex, 16)) : defined(NT_CHAR[c ?? ''], `the N-Triples escape ${all}`);
  });
}
const NT_TERM = /\s*(?:<([^>]*)>|_:([^\s<"]+)|"((?:[^"\\]|\\.)*)"(?:@([A-Za-z]+(?:-[A-Za-z0-9]+)*)|\^\^<([^>]*)>)?)/y;

/**
 * Parses N-Triples (what endpoints send for CONSTRUCT / DESCRIBE on Accept: application/n-triples).
 * Strict: a line that is not a whole triple ending in " ." throws, so a body cut short is an error,
 * not fewer triples.
 */
export function parseNTriples(text: string): Triple[] {
  const out: Triple[] = [];
  let lineNo = 0;
  for (const raw of text.split(/\r?\n/)) {
    lineNo++;
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    NT_TERM.lastIndex = 0;
    const term = (): Term => {
      const m = NT_TERM.exec(line);
      if (!m) throw new Error(`N-Triples line ${lineNo}: not a triple`);
      if (m[1] !== undefined) return { type: 'uri', value: ntUnescape(m[1]) };
      if (m[2] !== undefined) return { type: 'bnode', value: m[2] };
      const t: Term = { type: 'literal', value: ntUnescape(defined(m[3], 'the text of an N-Triples literal')) };
      if (m[4]) t.lang = m[4].toLowerCase();
      else if (m[5] && m[5] !== XSD_STRING) t.datatype = ntUnescape(m[5]);
      return t;
    };
    const s = term();
    const p = term();
    const o = term();
    if (!/^\s*\.\s*(#.*)?$/.test(line.slice(NT_TERM.lastIndex))) throw new Error(`N-Triples line ${lineNo}: no final "."`);
    out.push({ s, p, o });
  }
  return out;
}
