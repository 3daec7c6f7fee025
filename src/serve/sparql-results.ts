import { XSD_STRING, type SelectResult, type Term, type Triple } from '../core';

/** SPARQL 1.1 result serialisations (JSON, XML, CSV, TSV) and N-Triples for graphs. */

export const MEDIA = {
  json: 'application/sparql-results+json',
  xml: 'application/sparql-results+xml',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  ntriples: 'application/n-triples',
  turtle: 'text/turtle',
} as const;


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

function xmlEscape(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

function xmlTerm(t: Term): string {
  if (t.type === 'uri') return `<uri>${xmlEscape(t.value)}</uri>`;
  if (t.type === 'bnode') return `<bnode>${xmlEscape(t.value)}</bnode>`;
  const attr = t.lang
    ? ` xml:lang="${xmlEscape(t.lang)}"`
    : t.datatype && t.datatype !== XSD_STRING
      ? ` datatype="${xmlEscape(t.datatype)}"`
      : '';
  return `<literal${attr}>${xmlEscape(t.value)}</literal>`;
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

/** Offered media types per result kind, best first (the first is the default for Accept: *\/*). */
export const OFFERS = {
  select: [MEDIA.json, 'application/json', MEDIA.xml, 'application/xml', 'text/xml', MEDIA.csv, MEDIA.tsv],
  ask: [MEDIA.json, 'application/json', MEDIA.xml, 'application/xml', 'text/xml'],
  graph: [MEDIA.ntriples, MEDIA.turtle, 'text/plain'],
} as const;

/** `?format=` shortcuts (for browsers and curl users). */
export const FORMAT_ALIASES: Record<string, string> = {
  json: MEDIA.json,
  xml: MEDIA.xml,
  csv: MEDIA.csv,
  tsv: MEDIA.tsv,
  nt: MEDIA.ntriples,
  ntriples: MEDIA.ntriples,
  turtle: MEDIA.turtle,
  ttl: MEDIA.turtle,
};

export function serializeSelect(r: SelectResult, media: string): string {
  if (media === MEDIA.csv) return selectToCsv(r);
  if (media === MEDIA.tsv) return selectToTsv(r);
  if (media.includes('xml')) return selectToXml(r);
  return selectToJson(r);
}

export function serializeAsk(v: boolean, media: string): string {
  return media.includes('xml') ? askToXml(v) : askToJson(v);
}
