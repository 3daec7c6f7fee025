import express, { type Request, type Response, Router } from 'express';
import { AskgraphError } from '../core';
import { type ServeContext, withDeadline } from './context';
import { SparqlParamsSchema, validate } from './schemas';
import { FORMAT_ALIASES, OFFERS, serializeAsk, serializeSelect, triplesToNTriples } from './sparql-results';
import { classifyQuery } from './stages';

/**
 * SPARQL 1.1 Protocol, read-only: query via GET, urlencoded POST, or an application/sparql-query
 * body. Any update (update= field, application/sparql-update body, or an update in query=) is refused
 * with 403 UPDATE_FORBIDDEN before it reaches the store.
 */
export function sparqlRouter(ctx: ServeContext): Router {
  const r = Router();
  const limit = ctx.config.limits.bodyBytes;
  const form = express.urlencoded({ limit, extended: false, parameterLimit: 20 });
  const text = express.text({ limit, type: ['application/sparql-query', 'application/sparql-update'] });

  const handle = async (req: Request, res: Response) => {
    const ct = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    const fromBody = req.method === 'POST' && ct === 'application/x-www-form-urlencoded' ? (req.body as Record<string, unknown>) : {};
    const params = validate(SparqlParamsSchema, { ...(req.query as Record<string, unknown>), ...fromBody }, 'SPARQL protocol parameters');
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
    if (query === undefined || query.trim() === '') throw new AskgraphError('BAD_REQUEST', 'missing SPARQL query (parameter "query")');
    const graphs = [params['default-graph-uri'], params['named-graph-uri']].flat().filter((g) => g !== undefined && g !== '');
    if (graphs.length > 0) throw new AskgraphError('UNSUPPORTED', 'default-graph-uri / named-graph-uri are not supported; use FROM in the query');

    const kind = classifyQuery(query); // SPARQL_SYNTAX / UPDATE_FORBIDDEN before anything runs
    const offers = kind === 'select' ? OFFERS.select : kind === 'ask' ? OFFERS.ask : OFFERS.graph;
    let media: string | false;
    if (params.format !== undefined) {
      const m = FORMAT_ALIASES[params.format.toLowerCase()] ?? params.format.toLowerCase();
      media = (offers as readonly string[]).includes(m) ? m : false;
    } else {
      media = req.accepts([...offers]);
    }
    res.vary('Accept');
    if (!media) {
      throw new AskgraphError('NOT_ACCEPTABLE', `no acceptable result format for a ${kind.toUpperCase()} query; offered: ${offers.join(', ')}`);
    }

    // never longer than the request may take: a query outliving its request would only block the store
    const t = ctx.config.timeouts;
    const timeoutMs = Math.min(params.timeout ?? t.queryMs, t.maxQueryMs, t.requestMs);
    ctx.metrics.sparqlQueries.inc({ kind });
    const ex = ctx.gateway.executor;
    // The executor enforces timeoutMs itself (kills the Oxigraph worker); the deadline here is a backstop.
    const grace = timeoutMs + 2000;
    let body: string;
    if (kind === 'select') body = serializeSelect(await withDeadline(ex.select(query, { timeoutMs }), grace, 'QUERY_TIMEOUT', 'the query'), media);
    else if (kind === 'ask') body = serializeAsk(await withDeadline(ex.ask(query, { timeoutMs }), grace, 'QUERY_TIMEOUT', 'the query'), media);
    else body = triplesToNTriples(await withDeadline(ex.construct(query, { timeoutMs }), grace, 'QUERY_TIMEOUT', 'the query'));
    if (res.headersSent) return;
    const charset = media.startsWith('text/') || media.includes('json') || media.includes('xml') || media.includes('n-triples') ? '; charset=utf-8' : '';
    res.setHeader('Content-Type', media + charset);
    res.send(body);
  };

  r.get('/sparql', handle);
  r.post('/sparql', form, text, handle);
  return r;
}
