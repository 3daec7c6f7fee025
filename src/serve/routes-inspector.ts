import * as fs from 'node:fs';
import * as path from 'node:path';
import express, { Router } from 'express';
import { z } from 'zod';
import { AskgraphError, iriLocalName, nameInNamespace, type PackConfig } from '../core';
import type { ServeContext } from './context';
import { parseSparql } from '../sparql';
import type { IriTerm, NegatedPropertySet, Pattern, PropertyPath, Triple as SparqlTriple } from 'sparqljs';
import { redactPaths } from './http-errors';
import { validate } from './schemas';

/**
 * What the web inspector shows besides answers: an overview of the graph and the model
 * (GET /v1/overview) and labels for IRIs it displays (POST /v1/labels), so people read labels and
 * see IRIs on hover.
 */

const SAFE_IRI = /^[^\s<>"{}|^`\\]+$/;
const LabelsBodySchema = z.object({ iris: z.array(z.string().min(1).max(2000)).max(500) }).strict();
const QueryGraphBodySchema = z.object({ sparql: z.string().min(1) }).strict();

/** A term of a triple pattern as the inspector draws it; a property path is its SPARQL text. */
export interface PatternTerm {
  type: 'var' | 'uri' | 'literal' | 'bnode' | 'path';
  value: string;
}
export interface TriplePattern {
  s: PatternTerm;
  p: PatternTerm;
  o: PatternTerm;
}
/** At most this many patterns are drawn. */
const MAX_DRAWN_PATTERNS = 200;

type QueryTerm = SparqlTriple['subject'] | SparqlTriple['predicate'] | SparqlTriple['object'];
/** A step of a property path: an IRI, a path, or the ^IRI inside a negated property set. */
type PathStep = IriTerm | PropertyPath | NegatedPropertySet['items'][number];

function patternTerm(t: QueryTerm): PatternTerm {
  if ('type' in t) return { type: 'path', value: pathText(t) };
  switch (t.termType) {
    case 'Variable':
      return { type: 'var', value: `?${t.value}` };
    case 'NamedNode':
      return { type: 'uri', value: t.value };
    case 'BlankNode':
      return { type: 'bnode', value: `_:${t.value}` };
    default:
      return { type: 'literal', value: t.value };
  }
}
function pathText(p: PathStep): string {
  if ('termType' in p) return `<${p.value}>`;
  const items = p.items.map((i: PathStep) => pathText(i));
  if (p.pathType === '/' || p.pathType === '|') return `(${items.join(p.pathType)})`;
  if (p.pathType === '^' || p.pathType === '!') return p.pathType + items.join('');
  return items.join('') + p.pathType;
}
/** Every triple pattern of a parsed query, in groups, OPTIONAL, UNION, MINUS, GRAPH and subqueries alike. */
function collectPatterns(patterns: Pattern[] | undefined, out: TriplePattern[]): void {
  for (const w of patterns ?? []) {
    if (out.length >= MAX_DRAWN_PATTERNS) return;
    if (w.type === 'bgp') for (const t of w.triples) out.push({ s: patternTerm(t.subject), p: patternTerm(t.predicate), o: patternTerm(t.object) });
    else if (w.type === 'query') collectPatterns(w.where, out);
    else if ('patterns' in w) collectPatterns(w.patterns, out);
  }
}

/**
 * The triple patterns of a SPARQL query, for the inspector's picture of the query. The text is checked by
 * the server's one query checker first (size, nesting, parse time in its worker, pattern count), so the
 * parse here is of a query known to be small; bad SPARQL is 400 SPARQL_SYNTAX (updates 403 UPDATE_FORBIDDEN, oversized ones QUERY_TOO_COMPLEX).
 */
export async function queryPatterns(ctx: ServeContext, sparql: string): Promise<{ form: string; patterns: TriplePattern[]; truncated: boolean }> {
  const s = ctx.config.sparql;
  const checked = await ctx.checker.check(sparql, { maxQueryBytes: s.maxQueryBytes, maxDepth: s.maxDepth, maxPatterns: s.maxPatterns, maxRows: s.maxRows });
  // The checker parsed it already (a syntax error is its SPARQL_SYNTAX); this parse only reads the patterns.
  const parsed = parseSparql(sparql);
  const patterns: TriplePattern[] = [];
  // (an update was refused by the checker: it has no patterns to draw)
  if (parsed.type === 'query') {
    if (parsed.queryType === 'CONSTRUCT' && !parsed.where) collectPatterns([{ type: 'bgp', triples: parsed.template ?? [] }], patterns);
    collectPatterns(parsed.where, patterns);
  }
  return { form: checked.form, patterns, truncated: patterns.length >= MAX_DRAWN_PATTERNS };
}

export interface ModelCard {
  id: string;
  /** e.g. "askgraph-small seq2seq" or "HTTP generator". */
  name: string;
  kind: 'seq2seq' | 'http' | 'other';
  parameters?: number;
  /** Training data: the file the trainer read and how many question/form pairs it had. */
  trainedOn?: { data: string; questions: number; validation?: number };
  trainMinutes?: number;
  endpoint?: string;
}

interface Overview {
  pack: { name: string; title: string; description?: string };
  examples: string[];
  store: { id: string; triples?: number; entities?: number; relations: { name: string; iri: string; count?: number }[]; classes: { name: string; iri: string; count: number }[] };
  model: ModelCard | null;
}

/** A term's name: relative to the pack's vocabulary namespace when inside it, else the IRI's local name (core). */
function localName(iri: string, ns?: string): string {
  return nameInNamespace(iri, ns) ?? iriLocalName(iri);
}

/** The model card from the model folder's report.json (written by the trainer), or the HTTP generator's endpoint. */
export function modelCard(generator: { id: string; dir?: string; endpoint?: string } | undefined): ModelCard | null {
  if (!generator) return null;
  if (generator.endpoint) return { id: generator.id, name: `HTTP generator (${generator.id.replace(/^http:.*#/, '')})`, kind: 'http', endpoint: generator.endpoint };
  if (!generator.dir) return { id: generator.id, name: generator.id, kind: 'other' };
  let report: unknown;
  try {
    report = JSON.parse(fs.readFileSync(path.join(generator.dir, 'report.json'), 'utf8'));
  } catch {
    return { id: generator.id, name: generator.id, kind: 'seq2seq' };
  }
  // the file is the trainer's, but read as any JSON: a field that is missing or of another type is left out
  const field = (o: unknown, key: string): unknown => (typeof o === 'object' && o !== null ? Object.getOwnPropertyDescriptor(o, key)?.value : undefined);
  const command = field(report, 'command');
  const data = typeof command === 'string' ? /--data\s+(\S+)/.exec(command)?.[1] : undefined;
  const size = field(report, 'size');
  const card: ModelCard = { id: generator.id, name: `askgraph-${typeof size === 'string' || typeof size === 'number' ? String(size) : 'custom'} seq2seq`, kind: 'seq2seq' };
  const params = field(report, 'params');
  if (typeof params === 'number') card.parameters = params;
  const train = field(field(report, 'data'), 'train');
  if (data && typeof train === 'number') {
    card.trainedOn = { data: `${path.basename(path.dirname(data))}/${path.basename(data)}`, questions: train };
    const valid = field(field(report, 'data'), 'valid');
    if (typeof valid === 'number') card.trainedOn.validation = valid;
  }
  const trainSeconds = field(report, 'trainSeconds');
  if (typeof trainSeconds === 'number') card.trainMinutes = Math.round(trainSeconds / 60);
  return card;
}

async function buildOverview(ctx: ServeContext): Promise<Overview> {
  const g = ctx.gateway;
  const pack = g.pack as { dir: string; config: PackConfig } | undefined;
  const cfg = pack?.config;
  const ns = cfg?.vocabularyNamespace;
  const ex = g.executor;
  const timeoutMs = Math.min(ctx.config.timeouts.queryMs, 10_000);
  const overview: Overview = {
    pack: { name: cfg?.name ?? 'store', title: cfg?.title ?? cfg?.name ?? redactPaths(ex.id), ...(cfg?.description ? { description: cfg.description } : {}) },
    examples: cfg?.examples ?? [],
    // the store id names its data folder or file: never the path (as /healthz)
    store: { id: redactPaths(ex.id), relations: [], classes: [] },
    model: modelCard(g.generator),
  };
  const labelPreds = (cfg?.labelPredicates ?? []).filter((p) => SAFE_IRI.test(p));
  // Each figure is best effort: a slow or limited endpoint leaves it out rather than failing the page.
  const tries: Promise<void>[] = [
    ex.count('SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }', { timeoutMs }).then((n) => void (overview.store.triples = n)),
    ex
      .select('SELECT ?p (COUNT(*) AS ?n) WHERE { ?s ?p ?o } GROUP BY ?p ORDER BY DESC(?n) LIMIT 200', { timeoutMs })
      .then((r) => {
        const skip = new Set([...(cfg?.labelPredicates ?? []), ...(cfg?.aliasPredicates ?? []), 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type']);
        overview.store.relations = r.rows.flatMap((row) => {
          const p = row.p;
          return p?.type === 'uri' && !skip.has(p.value) && (!ns || p.value.startsWith(ns)) ? [{ name: localName(p.value, ns), iri: p.value, count: Number(row.n?.value) }] : [];
        });
      }),
    ex
      .select('SELECT ?c (COUNT(DISTINCT ?s) AS ?n) WHERE { ?s a ?c } GROUP BY ?c ORDER BY DESC(?n) LIMIT 30', { timeoutMs })
      .then((r) => {
        overview.store.classes = r.rows.flatMap((row) => {
          const c = row.c;
          return c?.type === 'uri' ? [{ name: localName(c.value), iri: c.value, count: Number(row.n?.value) }] : [];
        });
      }),
  ];
  if (labelPreds.length) {
    const values = labelPreds.map((p) => `<${p}>`).join(' ');
    // entities: labelled IRIs outside the vocabulary namespace (relations and classes are labelled too)
    const notVocabulary = ns && SAFE_IRI.test(ns) ? ` && !STRSTARTS(STR(?s), "${ns}")` : '';
    tries.push(
      ex.count(`SELECT (COUNT(DISTINCT ?s) AS ?n) WHERE { VALUES ?lp { ${values} } ?s ?lp ?l . FILTER(isIRI(?s)${notVocabulary}) }`, { timeoutMs }).then((n) => void (overview.store.entities = n)),
    );
  }
  await Promise.allSettled(tries);
  return overview;
}

export function inspectorRouter(ctx: ServeContext): Router {
  const r = Router();
  let overview: Promise<Overview> | undefined;
  r.get('/v1/overview', async (_req, res) => {
    overview ??= buildOverview(ctx);
    overview.catch(() => (overview = undefined));
    res.json(await overview);
  });
  r.post('/v1/labels', express.json({ limit: ctx.config.limits.bodyBytes }), async (req, res) => {
    const body = validate(LabelsBodySchema, req.body, 'request body (expected JSON {iris: [...]}, at most 500)');
    const iris = [...new Set(body.iris)].filter((i) => SAFE_IRI.test(i));
    if (iris.length === 0) {
      res.json({ labels: {} });
      return;
    }
    const labels = await ctx.gateway.executor.labels(iris, { timeoutMs: ctx.config.timeouts.queryMs });
    if (!(labels instanceof Map)) throw new AskgraphError('INTERNAL', 'labels lookup returned no map');
    res.json({ labels: Object.fromEntries(labels) });
  });
  r.post('/v1/query-graph', express.json({ limit: ctx.config.limits.bodyBytes }), async (req, res) => {
    const body = validate(QueryGraphBodySchema, req.body, 'request body (expected JSON {sparql})');
    res.json(await queryPatterns(ctx, body.sparql));
  });
  return r;
}
