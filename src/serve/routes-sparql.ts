import express, { type Request, type Response, Router } from 'express';
import { AskgraphError, type Triple } from '../core';
import { type ServeContext, withDeadline } from './context';
import { SPARQL_PARAM_KEYS, SparqlParamsSchema, validate } from './schemas';
import { Admission } from './admission';
import { acceptWithoutParams, mediaForFormats, negotiate, OFFERS, serializeAsk, serializeGraph, serializeGraphAs, serializeSelect } from './sparql-results';
import { runUserQuery } from './stages';

const SD = 'http://www.w3.org/ns/sparql-service-description#';
const FORMATS = 'http://www.w3.org/ns/formats/';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';

/** The SPARQL 1.1 Service Description of this endpoint (GET /sparql without a query). */
function serviceDescription(endpoint: string): Triple[] {
  const svc = { type: 'bnode' as const, value: 'service' };
  const ds = { type: 'bnode' as const, value: 'dataset' };
  const g = { type: 'bnode' as const, value: 'defaultGraph' };
  const iri = (value: string) => ({ type: 'uri' as const, value });
  const t = (s: Triple['s'], p: string, o: Triple['o']): Triple => ({ s, p: iri(p), o });
  return [
    t(svc, RDF_TYPE, iri(SD + 'Service')),
    t(svc, SD + 'endpoint', iri(endpoint)),
    t(svc, SD + 'supportedLanguage', iri(SD + 'SPARQL11Query')),
    t(svc, SD + 'feature', iri(SD + 'UnionDefaultGraph')),
    ...['SPARQL_Results_JSON', 'SPARQL_Results_XML', 'SPARQL_Results_CSV', 'SPARQL_Results_TSV', 'N-Triples', 'Turtle', 'RDF_XML', 'JSON-LD', 'N-Quads', 'TriG'].map((f) =>
      t(svc, SD + 'resultFormat', iri(FORMATS + f)),
    ),
    t(svc, SD + 'defaultDataset', ds),
    t(ds, RDF_TYPE, iri(SD + 'Dataset')),
    t(ds, SD + 'defaultGraph', g),
    t(g, RDF_TYPE, iri(SD + 'Graph')),
  ];
}

function list(v: string | string[] | undefined): string[] {
  return (v === undefined ? [] : Array.isArray(v) ? v : [v]).filter((x) => x !== '');
}

/**
 * SPARQL 1.1 Protocol, read-only: query via GET, urlencoded POST, or an application/sparql-query
 * body; unknown parameters are ignored; `format` / `output` / `results` name a result format (else
 * Accept decides); GET without a query gives the service description; other methods 405 with Allow.
 * Any update is refused with 403 UPDATE_FORBIDDEN before it reaches the store. A query is checked once
 * before it runs (size and nesting on the main thread, the parse in the checker worker: 400
 * QUERY_TOO_COMPLEX), runs in the store's user lane with the row cap (the result is cut there and
 * X-SPARQL-MaxRows says so, as Virtuoso does), the byte cap (422 RESULT_TOO_LARGE) and the federation
 * / dataset policy of runUserQuery; a client's queries beyond sparql.perClient wait their turn.
 */
export function sparqlRouter(ctx: ServeContext): Router {
  const r = Router();
  const limit = ctx.config.limits.bodyBytes;
  const form = express.urlencoded({ limit, extended: false, parameterLimit: 100 });
  const text = express.text({ limit, type: ['application/sparql-query', 'application/sparql-update'] });
  const s = ctx.config.sparql;
  const limits = { maxQueryBytes: s.maxQueryBytes, maxDepth: s.maxDepth, maxPatterns: s.maxPatterns, maxRows: s.maxRows };
  /** /sparql queries of each client: at most perClient at once in the store, perClientQueue more waiting. */
  const perClient = new Map<string, Admission>();
  const parseParams = (known: Record<string, unknown>) => validate(SparqlParamsSchema, known, 'SPARQL protocol parameters');

  const handle = async (req: Request, res: Response) => {
    const ct = ((req.headers['content-type'] ?? '').split(';')[0] ?? '').trim().toLowerCase();
    const fromBody = req.method === 'POST' && ct === 'application/x-www-form-urlencoded' ? (req.body as Record<string, unknown>) : {};
    const all: Record<string, unknown> = { ...(req.query as Record<string, unknown>), ...fromBody };
    const known = Object.fromEntries(SPARQL_PARAM_KEYS.filter((k) => all[k] !== undefined).map((k) => [k, all[k]]));
    const params = parseParams(known);
    if (ct === 'application/sparql-update' || params.update !== undefined) {
      throw new AskgraphError('UPDATE_FORBIDDEN', 'this endpoint is read-only: SPARQL updates are refused');
    }
    let query = params.query;
    if (req.method === 'POST' && ct === 'application/sparql-query') {
      if (params.query !== undefined) throw new AskgraphError('BAD_REQUEST', 'give the query either as the body or as query=, not both');
      query = typeof req.body === 'string' ? req.body : undefined;
    } else if (req.method === 'POST' && ct !== 'application/x-www-form-urlencoded') {
      throw new AskgraphError('UNSUPPORTED_MEDIA_TYPE', `POST /sparql needs application/sparql-query or application/x-www-form-urlencoded, not "${ct || 'none'}"`);
    }
    const formats = [...list(params.format), ...list(params.output), ...list(params.results)];
    if (req.headers.accept) req.headers.accept = acceptWithoutParams(req.headers.accept);
    if (query === undefined && req.method !== 'POST') {
      // SPARQL 1.1 Service Description
      const media = mediaForFormats(formats, 'graph') ?? req.accepts([...OFFERS.graph]);
      res.vary('Accept');
      if (!media) throw new AskgraphError('NOT_ACCEPTABLE', `no acceptable format for the service description; offered: ${OFFERS.graph.join(', ')}`);
      res.setHeader('Content-Type', media + '; charset=utf-8');
      res.send(serializeGraph(serviceDescription(`${req.protocol}://${req.get('host') ?? 'localhost'}/sparql`), media));
      return;
    }
    if (query === undefined || query.trim() === '') throw new AskgraphError('BAD_REQUEST', 'missing SPARQL query (parameter "query")');

    // a per-client share of the store: one client cannot queue the user store process full; one
    // analyst's tools (a few threads, a federating engine's parallel requests) wait their turn
    const client = String(res.locals.client ?? 'anonymous');
    let mine = perClient.get(client);
    if (!mine) perClient.set(client, (mine = new Admission({ concurrency: s.perClient, queue: s.perClientQueue })));
    try {
      await mine.run(() => run(req, res, query, params, formats), () => !res.headersSent);
    } catch (e) {
      if (!(e instanceof AskgraphError && e.code === 'SERVER_BUSY')) throw e;
      res.setHeader('Retry-After', '1');
      throw new AskgraphError('RATE_LIMITED', `${s.perClient} SPARQL queries of this client are running and ${s.perClientQueue} waiting; retry later`);
    } finally {
      if (mine.active === 0 && mine.queued === 0) perClient.delete(client);
    }
  };

  const run = async (req: Request, res: Response, query: string, params: ReturnType<typeof parseParams>, formats: string[]) => {
    // size and nesting here (linear), the one parse in the checker worker
    const checked = await ctx.checker.check(query, limits);
    const kind = checked.form === 'SELECT' ? 'select' : checked.form === 'ASK' ? 'ask' : 'graph';
    const offers = OFFERS[kind];
    const media = mediaForFormats(formats, kind) ?? negotiate((o) => req.accepts(o), kind);
    res.vary('Accept');
    if (!media) {
      throw new AskgraphError('NOT_ACCEPTABLE', `no acceptable result format for a ${checked.form} query; offered: ${offers.join(', ')}`);
    }
    const defaults = list(params['default-graph-uri']);
    const named = list(params['named-graph-uri']);
    const dataset = defaults.length || named.length ? { default: defaults, named } : undefined;

    // never longer than the request may take: a query outliving its request would only block the store
    const t = ctx.config.timeouts;
    const timeoutMs = Math.min(params.timeout ?? t.queryMs, t.maxQueryMs, t.requestMs);
    ctx.metrics.sparqlQueries.inc({ kind: checked.form.toLowerCase() });
    // The executor enforces timeoutMs itself (kills the store process); the deadline here is a backstop.
    const result = await withDeadline(
      runUserQuery(ctx.gateway.executor, checked, {
        timeoutMs,
        maxRows: s.maxRows,
        truncate: true,
        maxBytes: s.maxResultBytes,
        allowService: s.allowService,
        allowDataset: s.allowDataset,
        ...(dataset ? { dataset } : {}),
      }),
      timeoutMs + 2000,
      'QUERY_TIMEOUT',
      'the query',
    );
    const body =
      result.form === 'SELECT' ? serializeSelect(result.result, media) : result.form === 'ASK' ? serializeAsk(result.value, media) : serializeGraphAs(result.triples, media);
    if (res.headersSent) return;
    // Virtuoso's convention (ResultSetMaxRows): the result is cut at the cap and a header says so
    if (result.truncated) res.setHeader('X-SPARQL-MaxRows', String(s.maxRows));
    const charset = media.startsWith('text/') || media.includes('json') || media.includes('xml') || media.includes('n-') || media.includes('trig') ? '; charset=utf-8' : '';
    res.setHeader('Content-Type', media + charset);
    res.send(body);
  };

  r.get('/sparql', handle);
  r.post('/sparql', form, text, handle);
  // any other method on /sparql (not a route of its own: OpenAPI has no "any method")
  r.use('/sparql', (req, res, next) => {
    if (req.path !== '/') {
      next();
      return;
    }
    res.setHeader('Allow', 'GET, HEAD, POST, OPTIONS');
    next(new AskgraphError('METHOD_NOT_ALLOWED', `the SPARQL endpoint takes GET and POST, not ${req.method}`));
  });
  return r;
}
