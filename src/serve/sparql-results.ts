import { AskgraphError, defined, XSD_STRING, type SelectResult, type Term, type Triple } from '../core';

/**
 * SPARQL 1.1 result serialisations (JSON, XML, CSV, TSV) and graph serialisations (N-Triples, N-Quads,
 * Turtle, TriG, N3 — all written as N-Triples lines, which each of them reads —, RDF/XML and JSON-LD).
 * Results reach this file already bounded by the /sparql row and byte caps.
 *
 * Why not oxigraph's serialisers (issue 24, checked with oxigraph 0.5.11): its JS API writes RDF only
 * through Store.dump (a throw-away store that drops duplicate triples and reorders them) and SPARQL
 * results only from its own store's queries, not from a remote endpoint's rows; namedNode() refuses
 * IRIs that remote upstreams do return (a space: URIError), which we write \u-escaped; and its RDF/XML
 * writes a BEL raw (XML that does not parse) and a predicate like <http://x/rel/123> as
 * `<oxprefix: xmlns:oxprefix="http://x/rel/123">`, where this file answers 406 naming formats that work.
 */

export const MEDIA = {
  json: 'application/sparql-results+json',
  xml: 'application/sparql-results+xml',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  ntriples: 'application/n-triples',
  turtle: 'text/turtle',
  nquads: 'application/n-quads',
  trig: 'application/trig',
  n3: 'text/n3',
  rdfxml: 'application/rdf+xml',
  jsonld: 'application/ld+json',
} as const;

const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';

function jsonTerm(t: Term): Record<string, string> {
  const o: Record<string, string> = { type: t.type, value: t.value };
  if (t.type === 'literal') {
    if (t.lang) o['xml:lang'] = t.lang;
    else if (t.datatype && t.datatype !== XSD_STRING) o.datatype = t.datatype;
  }
  return o;
}

export function selectToJson(r: SelectResult): string {
  const bindings = r.rows.map((row) => {
    const b: Record<string, Record<string, string>> = {};
    for (const v of r.vars) if (row[v]) b[v] = jsonTerm(row[v]);
    return b;
  });
  return JSON.stringify({ head: { vars: r.vars }, results: { bindings } });
}

function askToJson(value: boolean): string {
  return JSON.stringify({ head: {}, boolean: value });
}

const XML_ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
function xmlEscape(s: string): string {
  return s.replace(/[&<>"']/g, (c) => defined(XML_ENTITIES[c], `the XML entity of ${c}`));
}

function xmlTerm(t: Term): string {
  if (t.type === 'uri') return `<uri>${xmlText(t.value, 'an IRI', RESULTS_ELSEWHERE)}</uri>`;
  if (t.type === 'bnode') return `<bnode>${xmlText(t.value, 'a blank node', RESULTS_ELSEWHERE)}</bnode>`;
  const attr = t.lang
    ? ` xml:lang="${xmlText(t.lang, 'a language tag', RESULTS_ELSEWHERE)}"`
    : t.datatype && t.datatype !== XSD_STRING
      ? ` datatype="${xmlText(t.datatype, 'an IRI', RESULTS_ELSEWHERE)}"`
      : '';
  return `<literal${attr}>${xmlText(t.value, 'a literal', RESULTS_ELSEWHERE)}</literal>`;
}

const XML_HEAD = '<?xml version="1.0"?>\n<sparql xmlns="http://www.w3.org/2005/sparql-results#">\n';

export function selectToXml(r: SelectResult): string {
  let s = XML_HEAD + '  <head>\n';
  for (const v of r.vars) s += `    <variable name="${xmlEscape(v)}"/>\n`;
  s += '  </head>\n  <results>\n';
  for (const row of r.rows) {
    s += '    <result>\n';
    for (const v of r.vars) if (row[v]) s += `      <binding name="${xmlEscape(v)}">${xmlTerm(row[v])}</binding>\n`;
    s += '    </result>\n';
  }
  return s + '  </results>\n</sparql>\n';
}

function askToXml(value: boolean): string {
  return XML_HEAD + `  <head/>\n  <boolean>${value}</boolean>\n</sparql>\n`;
}

function csvField(t: Term | undefined): string {
  if (!t) return '';
  const v = t.type === 'bnode' ? '_:' + t.value : t.value;
  return /[",\r\n]/.test(v) ? '"' + v.replace(/"/g, '""') + '"' : v;
}

export function selectToCsv(r: SelectResult): string {
  const lines = [r.vars.join(',')];
  for (const row of r.rows) lines.push(r.vars.map((v) => csvField(row[v])).join(','));
  return lines.join('\r\n') + '\r\n';
}

function literalBody(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t');
}

function iriBody(v: string): string {
  // N-Triples IRIREF forbids <>"{}|^`\ and controls/space: \u-escape them
  return v.replace(/[\u0000-\u0020<>"{}|^`\\]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0'));
}

/** A term in N-Triples / Turtle syntax (TSV cells, N-Triples lines). */
export function ntTerm(t: Term): string {
  if (t.type === 'uri') return `<${iriBody(t.value)}>`;
  if (t.type === 'bnode') return `_:${t.value.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  const body = `"${literalBody(t.value)}"`;
  if (t.lang) return `${body}@${t.lang}`;
  if (t.datatype && t.datatype !== XSD_STRING) return `${body}^^<${iriBody(t.datatype)}>`;
  return body;
}

export function selectToTsv(r: SelectResult): string {
  const lines = [r.vars.map((v) => '?' + v).join('\t')];
  for (const row of r.rows) lines.push(r.vars.map((v) => (row[v] ? ntTerm(row[v]) : '')).join('\t'));
  return lines.join('\n') + '\n';
}

export function triplesToNTriples(triples: Triple[]): string {
  return triples.map((t) => `${ntTerm(t.s)} ${ntTerm(t.p)} ${ntTerm(t.o)} .\n`).join('');
}

/** XML 1.0 cannot carry these characters at all (not even as references). */
const XML_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
/** The longest suffix of a predicate IRI that is an XML NCName (RDF/XML writes predicates as QNames). */
const NCNAME_SUFFIX = /[A-Za-z_\u00C0-\uFFFD][A-Za-z0-9_.\-\u00B7\u00C0-\uFFFD]*$/;

const GRAPH_ELSEWHERE = 'N-Triples, Turtle or JSON-LD';
const RESULTS_ELSEWHERE = 'SPARQL JSON, CSV or TSV';

/**
 * Text for XML 1.0 (SPARQL results XML, RDF/XML): escaped, carriage returns as references (a parser
 * turns a raw CR into LF); a control character XML 1.0 cannot carry at all is 406 naming the
 * formats that can, never a document that does not parse.
 */
function xmlText(s: string, what: string, elsewhere = GRAPH_ELSEWHERE): string {
  if (XML_FORBIDDEN.test(s)) throw new AskgraphError('NOT_ACCEPTABLE', `${what} holds a character that XML cannot carry; ask for ${elsewhere}`);
  return xmlEscape(s).replace(/\r/g, '&#13;');
}

/**
 * RDF/XML: one rdf:Description per subject, predicates as QNames with a namespace declared on the
 * property element (a predicate IRI without an NCName suffix cannot be written in RDF/XML: 406).
 */
export function triplesToRdfXml(triples: Triple[]): string {
  const bySubject = new Map<string, { s: Term; props: Triple[] }>();
  for (const t of triples) {
    const key = t.s.type + ' ' + t.s.value;
    let e = bySubject.get(key);
    if (!e) bySubject.set(key, (e = { s: t.s, props: [] }));
    e.props.push(t);
  }
  const node = (t: Term) => (t.type === 'bnode' ? `rdf:nodeID="${bnodeId(t.value)}"` : `rdf:about="${xmlText(t.value, 'an IRI')}"`);
  let out = `<?xml version="1.0" encoding="utf-8"?>\n<rdf:RDF xmlns:rdf="${RDF}">\n`;
  for (const { s, props } of bySubject.values()) {
    out += `  <rdf:Description ${node(s)}>\n`;
    for (const { p, o } of props) {
      const m = NCNAME_SUFFIX.exec(p.value);
      if (!m || m.index === 0) throw new AskgraphError('NOT_ACCEPTABLE', `the predicate <${p.value}> cannot be written in RDF/XML; ask for N-Triples, Turtle or JSON-LD`);
      const ns = xmlText(p.value.slice(0, m.index), 'an IRI');
      const el = 'p:' + m[0];
      const open = `    <${el} xmlns:p="${ns}"`;
      if (o.type === 'uri') out += `${open} rdf:resource="${xmlText(o.value, 'an IRI')}"/>\n`;
      else if (o.type === 'bnode') out += `${open} rdf:nodeID="${bnodeId(o.value)}"/>\n`;
      else {
        const attr = o.lang ? ` xml:lang="${xmlText(o.lang, 'a language tag')}"` : o.datatype && o.datatype !== XSD_STRING ? ` rdf:datatype="${xmlText(o.datatype, 'an IRI')}"` : '';
        out += `${open}${attr}>${xmlText(o.value, 'a literal')}</${el}>\n`;
      }
    }
    out += '  </rdf:Description>\n';
  }
  return out + '</rdf:RDF>\n';
}

function bnodeId(v: string): string {
  return 'b' + v.replace(/[^A-Za-z0-9_-]/g, '_');
}

/** JSON-LD in expanded form (no context to guess): one node object per subject. */
export function triplesToJsonLd(triples: Triple[]): string {
  const nodes = new Map<string, Record<string, unknown[]> & { '@id'?: string }>();
  const id = (t: Term) => (t.type === 'bnode' ? '_:' + bnodeId(t.value) : t.value);
  for (const { s, p, o } of triples) {
    const key = id(s);
    let n = nodes.get(key);
    if (!n) nodes.set(key, (n = { '@id': key } as Record<string, unknown[]> & { '@id': string }));
    const value =
      o.type === 'literal'
        ? { '@value': o.value, ...(o.lang ? { '@language': o.lang } : o.datatype && o.datatype !== XSD_STRING ? { '@type': o.datatype } : {}) }
        : { '@id': id(o) };
    (n[p.value] ??= []).push(value);
  }
  return JSON.stringify([...nodes.values()]);
}

/** Offered media types per result kind, best first (the first is the default for Accept: *\/*). */
export const OFFERS = {
  select: [MEDIA.json, 'application/json', MEDIA.xml, 'application/xml', 'text/xml', MEDIA.csv, MEDIA.tsv],
  ask: [MEDIA.json, 'application/json', MEDIA.xml, 'application/xml', 'text/xml'],
  graph: [MEDIA.ntriples, MEDIA.turtle, MEDIA.rdfxml, MEDIA.jsonld, MEDIA.nquads, MEDIA.trig, MEDIA.n3, 'application/xml', 'text/xml', 'application/json', 'text/plain'],
} as const;

/**
 * `format=` / `output=` / `results=` values (SPARQLWrapper sends all three; browsers and curl users
 * use them too), by result kind: "xml" and "json" name SPARQL results for SELECT / ASK and RDF/XML /
 * JSON-LD for graphs, as SPARQLWrapper means them.
 */
const FORMAT_ALIASES: Record<'results' | 'graph', Record<string, string>> = {
  results: { json: MEDIA.json, xml: MEDIA.xml, csv: MEDIA.csv, tsv: MEDIA.tsv },
  graph: {
    nt: MEDIA.ntriples,
    ntriples: MEDIA.ntriples,
    'n-triples': MEDIA.ntriples,
    turtle: MEDIA.turtle,
    ttl: MEDIA.turtle,
    n3: MEDIA.n3,
    xml: MEDIA.rdfxml,
    rdf: MEDIA.rdfxml,
    'rdf+xml': MEDIA.rdfxml,
    rdfxml: MEDIA.rdfxml,
    json: MEDIA.jsonld,
    'json-ld': MEDIA.jsonld,
    jsonld: MEDIA.jsonld,
    nq: MEDIA.nquads,
    nquads: MEDIA.nquads,
    'n-quads': MEDIA.nquads,
    trig: MEDIA.trig,
  },
};

/** The media type a format parameter names for a result kind, if it names one that is offered. */
export function mediaForFormat(value: string, kind: 'select' | 'ask' | 'graph'): string | undefined {
  const v = value.trim().toLowerCase();
  const m = FORMAT_ALIASES[kind === 'graph' ? 'graph' : 'results'][v] ?? v;
  return (OFFERS[kind] as readonly string[]).includes(m) ? m : undefined;
}

/**
 * The media type of all `format` / `output` / `results` values together (each may be repeated):
 * SPARQLWrapper sends a name and a media type for the same thing (format=tsv&format=text/tab-separated-values).
 * Values naming nothing offered are ignored (Accept decides when none is left); when the rest name
 * different types, a value that is itself a media type wins; two media types that differ are 400.
 */
export function mediaForFormats(values: string[], kind: 'select' | 'ask' | 'graph'): string | undefined {
  const named = new Map<string, boolean>(); // media type → named by a media type
  for (const v of values) {
    const m = mediaForFormat(v, kind);
    if (m) named.set(m, (named.get(m) ?? false) || v.includes('/'));
  }
  if (named.size <= 1) return named.keys().next().value;
  const byType = [...named].filter(([, t]) => t).map(([m]) => m);
  if (byType.length === 1) return byType[0];
  throw new AskgraphError('BAD_REQUEST', `the format parameters name different result formats (${[...named.keys()].join(', ')}); give one`);
}

/** SPARQL result media types (what a SELECT can be written as). */
const RESULT_MEDIA: readonly string[] = [MEDIA.json, MEDIA.xml, MEDIA.csv, MEDIA.tsv];

/**
 * Content negotiation for a result kind (the caller drops media type parameters other than q first,
 * see acceptWithoutParams). A CONSTRUCT / DESCRIBE asked with SPARQL result types only (roqet asks
 * for results XML and reads the answer as such; editors always send results JSON) gets that type —
 * the triples as ?s ?p ?o solutions (triplesAsSelect), as Virtuoso answers it — instead of 406.
 */
export function negotiate(accepts: (offers: string[]) => string | false, kind: 'select' | 'ask' | 'graph'): string | undefined {
  const m = accepts([...OFFERS[kind]]);
  if (m) return m;
  if (kind !== 'graph') return undefined;
  return accepts([...RESULT_MEDIA]) || undefined;
}

/** A graph as SPARQL solutions of ?s ?p ?o, one per triple. */
export function triplesAsSelect(triples: Triple[]): SelectResult {
  return { vars: ['s', 'p', 'o'], rows: triples.map((t) => ({ s: t.s, p: t.p, o: t.o })) };
}

/** A graph in `media`: an RDF syntax, or one of the SPARQL result types negotiate may pick for a graph. */
export function serializeGraphAs(triples: Triple[], media: string): string {
  return RESULT_MEDIA.includes(media) ? serializeSelect(triplesAsSelect(triples), media) : serializeGraph(triples, media);
}

/** An Accept header without media type parameters other than q (Express' negotiation would need offers to match them). */
export function acceptWithoutParams(accept: string): string {
  return accept
    .split(',')
    .map((range) => {
      const [type = '', ...params] = range.split(';');
      return [type.trim(), ...params.map((p) => p.trim()).filter((p) => /^q\s*=/i.test(p))].join(';');
    })
    .join(', ');
}

export function serializeGraph(triples: Triple[], media: string): string {
  if (media === MEDIA.rdfxml || media === 'application/xml' || media === 'text/xml') return triplesToRdfXml(triples);
  if (media === MEDIA.jsonld || media === 'application/json') return triplesToJsonLd(triples);
  return triplesToNTriples(triples);
}

export function serializeSelect(r: SelectResult, media: string): string {
  if (media === MEDIA.csv) return selectToCsv(r);
  if (media === MEDIA.tsv) return selectToTsv(r);
  if (media.includes('xml')) return selectToXml(r);
  return selectToJson(r);
}

export function serializeAsk(v: boolean, media: string): string {
  return media.includes('xml') ? askToXml(v) : askToJson(v);
}
