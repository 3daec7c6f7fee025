import express, { type Request, type Response, Router } from 'express';
import { AskgraphError } from '../core';
import { Admission } from './admission';
import { ASK_OPTION_DEFAULTS, DEFAULT_BEAM } from './stages';
import { askCached, type ServeContext, withDeadline } from './context';
import { parseFormBody } from './form-body';
import { redactPaths, toHttpError } from './http-errors';
import { qaldQuestions, toQald, type QaldDocument } from './qald';
import { answerToDelimited, DELIMITED_MEDIA, itemAt } from '../core';
import {
  AskBodySchema,
  AskFormatParamSchema,
  AskOptionsSchema,
  AskQuerySchema,
  checkQuestion,
  CompileBodySchema,
  DiffBodySchema,
  ParseBodySchema,
  QaldParamsSchema,
  validate,
  type AskOptionsInput,
} from './schemas';

/** What /v1/ask answers with: the Answer JSON, QALD-JSON, or the answer as a CSV / TSV table. */
type AskFormat = 'json' | 'qald' | 'csv' | 'tsv';

/** Questions of one QALD file answered per request (the body limit and the request timeout bound it too). */
const MAX_QALD_QUESTIONS = 1000;

/** /v1/ask, /v1/parse, /v1/compile, /v1/diff and the benchmark interfaces (/qald, /gerbil). */
export function apiRouter(ctx: ServeContext): Router {
  const r = Router();
  const limit = ctx.config.limits.bodyBytes;
  const json = express.json({ limit, strict: true, type: ['application/json', 'application/*+json'] });
  const raw = express.raw({ limit, type: () => true });
  const maxQ = ctx.config.limits.questionChars;
  const caps = ctx.config.ask;
  /** Asks running or waiting, by client. */
  const inflight = new Map<string, number>();

  /** Options may narrow a request's own work, not widen it past the server's ceilings (config `ask`). */
  const checkCeilings = (options: AskOptionsInput) => {
    const o = options as Record<string, unknown>;
    const ceilings: [string, number, string][] = [
      ['beam', caps.maxBeam, 'ask.maxBeam'],
      ['maxAttempts', caps.maxAttempts, 'ask.maxAttempts'],
      ['bestOf', caps.maxBestOf, 'ask.maxBestOf'],
      ['kE', caps.maxCandidates, 'ask.maxCandidates'],
      ['kR', caps.maxCandidates, 'ask.maxCandidates'],
      ['k1', caps.maxCandidates, 'ask.maxCandidates'],
      ['k2', caps.maxCandidates, 'ask.maxCandidates'],
      ['queryTimeoutMs', caps.maxQueryTimeoutMs, 'ask.maxQueryTimeoutMs'],
    ];
    for (const [key, max, setting] of ceilings) {
      const v = o[key];
      if (typeof v === 'number' && v > max) {
        throw new AskgraphError('BAD_REQUEST', `invalid options: ${key} ${v} is above this server's limit of ${max} (server setting ${setting})`, {
          details: { option: key, max },
        });
      }
    }
  };

  /**
   * Tuned asks (options that widen the pipeline's defaults: a larger beam, more attempts, best-of-n, the
   * full beam first, Algorithm 1 settings, a longer budget, a per-query timeout other than the default)
   * pass this gate before taking a pipeline slot, so they hold at most `ask.tunedConcurrency` slots and
   * asks with default options always find the others.
   */
  const tuned = new Admission({ concurrency: caps.tunedConcurrency, queue: ctx.config.concurrency.queue });
  const isTuned = (options: AskOptionsInput) => {
    const o = options as Record<string, unknown>;
    const d = ASK_OPTION_DEFAULTS;
    const above = (k: keyof typeof d) => typeof o[k] === 'number' && o[k] > d[k];
    return (
      above('beam') ||
      above('maxAttempts') ||
      above('bestOf') ||
      above('timeoutMs') ||
      (o.queryTimeoutMs !== undefined && o.queryTimeoutMs !== d.queryTimeoutMs) ||
      o.strategy === 'best-of-n' ||
      o.adaptiveBeam === false ||
      ['kE', 'tE', 'kR', 'tR', 'k1', 't1', 'k2', 't2'].some((k) => o[k] !== undefined)
    );
  };

  const reply = async (req: Request, res: Response, question: string, options: AskOptionsInput, format: AskFormat, lang?: string, id?: string) => {
    checkCeilings(options);
    // a per-client share of the pipeline: one client cannot fill the admission slots and queue
    const client = String(res.locals.client ?? 'anonymous');
    const mine = inflight.get(client) ?? 0;
    if (mine >= caps.perClient) {
      res.setHeader('Retry-After', '1');
      throw new AskgraphError('RATE_LIMITED', `${mine} questions of this client are running or waiting; at most ${caps.perClient} at once`);
    }
    inflight.set(client, mine + 1);
    let out: Awaited<ReturnType<typeof askCached>>;
    try {
      const run = () => askCached(ctx, req, question, options, () => !res.headersSent);
      const got = isTuned(options) ? await tuned.run(run, () => !res.headersSent) : await run();
      if (!got) throw new AskgraphError('REQUEST_TIMEOUT', 'the request timed out while waiting for a free slot');
      out = got;
    } finally {
      const n = (inflight.get(client) ?? 1) - 1;
      if (n > 0) inflight.set(client, n);
      else inflight.delete(client);
    }
    const { answer, cached } = out;
    if (res.headersSent) return;
    res.setHeader('X-Cache', cached ? 'hit' : 'miss');
    if (format === 'csv' || format === 'tsv') {
      // the answer as a table (answer-table.ts): a header row of column labels, an IRI column after each entity column
      res.type(`${DELIMITED_MEDIA[format]}; charset=utf-8; header=present`);
      res.setHeader('Content-Disposition', `attachment; filename="answer.${format}"`);
      res.send(answerToDelimited(answer, format));
      return;
    }
    res.json(format === 'qald' ? toQald(answer, { lang, id }) : answer);
  };

  /**
   * The answer's format on /v1/ask: `format=` names it (json, qald, csv, tsv); else the Accept header picks JSON,
   * CSV (text/csv) or TSV (text/tab-separated-values), JSON for anything else.
   */
  const askFormat = (req: Request, res: Response, named: AskFormat | undefined): AskFormat => {
    res.vary('Accept');
    if (named) return named;
    const m = req.accepts(['application/json', DELIMITED_MEDIA.csv, DELIMITED_MEDIA.tsv]);
    return m === DELIMITED_MEDIA.csv ? 'csv' : m === DELIMITED_MEDIA.tsv ? 'tsv' : 'json';
  };

  r.post('/v1/ask', json, async (req, res) => {
    const body = validate(AskBodySchema, req.body, 'request body (expected JSON {question, options?})');
    const question = checkQuestion(body.question, maxQ);
    const { format } = validate(AskFormatParamSchema, { format: req.query.format }, 'query parameter format');
    res.locals.questionLength = question.length;
    await reply(req, res, question, body.options ?? {}, askFormat(req, res, format));
  });

  r.get('/v1/ask', async (req, res) => {
    const q = validate(AskQuerySchema, req.query, 'query parameters');
    const question = checkQuestion(q.question, maxQ);
    res.locals.questionLength = question.length;
    const options: AskOptionsInput = {};
    if (q.beam !== undefined) options.beam = q.beam;
    if (q.timeoutMs !== undefined) options.timeoutMs = q.timeoutMs;
    if (q.noParser !== undefined) options.noParser = q.noParser;
    if (q.adaptiveBeam !== undefined) options.adaptiveBeam = q.adaptiveBeam;
    if (q.fallback !== undefined) options.fallback = q.fallback === 'off' ? 'off' : q.fallback.split(',').filter(Boolean);
    const parsed = validate(AskOptionsSchema, options, 'query parameters');
    await reply(req, res, question, parsed, askFormat(req, res, q.format));
  });

  r.post('/v1/parse', json, async (req, res) => {
    const body = validate(ParseBodySchema, req.body, 'request body (expected JSON {question, beam?})');
    const question = checkQuestion(body.question, maxQ);
    res.locals.questionLength = question.length;
    const ms = ctx.config.timeouts.requestMs;
    const beam = body.beam ?? DEFAULT_BEAM;
    checkCeilings({ beam });
    const out = await ctx.admission.run(
      () => withDeadline(ctx.gateway.parse(question, { beam }), ms, 'REQUEST_TIMEOUT', 'parsing the question'),
      () => !res.headersSent,
    );
    // the JSON of `askgraph parse --json`
    if (out && !res.headersSent) {
      res.json({
        question: out.question,
        model: ctx.gateway.generator?.id ?? null,
        beam,
        timeMs: Math.round(out.timeMs * 10) / 10,
        candidates: out.candidates.map((c) => ({ rank: c.rank, form: c.form, logProb: c.logProb })),
      });
    }
  });

  r.post('/v1/compile', json, async (req, res) => {
    const body = validate(CompileBodySchema, req.body, 'request body (expected JSON {form})');
    const c = await withDeadline(Promise.resolve(ctx.gateway.compile(body.form)), ctx.config.timeouts.requestMs, 'REQUEST_TIMEOUT', 'compiling');
    // the JSON of `askgraph compile --json`
    if (!res.headersSent) res.json({ sparql: c.sparql, kind: c.kind, answerVar: c.answerVar, topicEntities: c.topicEntities });
  });

  r.post('/v1/diff', json, (req, res) => {
    const body = validate(DiffBodySchema, req.body, 'request body (expected JSON {a, b})');
    if (!ctx.diff) throw new AskgraphError('UNSUPPORTED', 'form diff is not available in this build');
    res.json(ctx.diff(body.a, body.b));
  });

  // QALD-JSON answers: GET /qald?question=… (or ?query=…), POST /qald and POST /gerbil with GERBIL QA's
  // form (query=<question>&lang=en; urlencoded or multipart, UTF-8 with latin1 fallback) or JSON.
  const qald = async (req: Request, res: Response, fields: Record<string, unknown>) => {
    const p = validate(QaldParamsSchema, fields, 'QALD parameters');
    const text = p.query ?? p.question;
    if (text === undefined) throw new AskgraphError('BAD_REQUEST', 'missing question (form field "query" or "question")');
    const lang = (p.lang ?? 'en').toLowerCase();
    if (!/^en(\b|[-_])/.test(lang)) throw new AskgraphError('UNSUPPORTED', `language "${p.lang}" is not supported (only en)`);
    const question = checkQuestion(text, maxQ);
    res.locals.questionLength = question.length;
    await reply(req, res, question, {}, 'qald', 'en', p.id);
  };
  r.get('/qald', (req, res) => qald(req, res, req.query as Record<string, unknown>));
  const qaldPost = async (req: Request, res: Response) => {
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    if (/^application\/json/i.test(req.headers['content-type'] ?? '') && body.length > 0) {
      let doc: unknown;
      try {
        doc = JSON.parse(body.toString('utf8'));
      } catch {
        throw new AskgraphError('BAD_REQUEST', 'malformed request body (invalid JSON)');
      }
      if (doc && typeof doc === 'object' && 'questions' in doc) return qaldFile(req, res, doc);
    }
    return qald(req, res, { ...(req.query as Record<string, unknown>), ...(await parseFormBody(body, req.headers['content-type'])) });
  };

  // A whole QALD-JSON file: every question answered (as many at once as the pipeline has slots), in
  // the file's order with its ids; a question that fails carries its error and no answers.
  const qaldFile = async (req: Request, res: Response, doc: unknown) => {
    const { dataset, questions } = qaldQuestions(doc, MAX_QALD_QUESTIONS);
    const out: QaldDocument['questions'] = [];
    const answerOne = async (q: (typeof questions)[number]): Promise<QaldDocument['questions'][number]> => {
      try {
        if (q.text === undefined) throw new AskgraphError('UNSUPPORTED', 'the question has no English text (only en is supported)');
        const question = checkQuestion(q.text, maxQ);
        const { answer } = await askCached(ctx, req, question, {}, () => !res.headersSent);
        return itemAt(toQald(answer, { id: q.id, lang: 'en' }).questions, 0, 'the QALD document of one question');
      } catch (e) {
        // as the error handler would answer it alone (http-errors.ts)
        const { status, body, internal } = toHttpError(e);
        if (internal) req.log.error({ err: e }, 'internal error (a question of a QALD file)');
        const error = { code: body.error.code, message: status >= 500 ? redactPaths(body.error.message) : body.error.message };
        return { id: q.id, answertype: 'resource', question: q.text === undefined ? [] : [{ language: 'en', string: q.text }], query: {}, answers: [], error };
      }
    };
    let next = 0;
    const worker = async () => {
      while (next < questions.length && !res.headersSent) {
        const i = next++;
        out[i] = await answerOne(itemAt(questions, i, 'QALD questions'));
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(ctx.config.concurrency.asks, questions.length)) }, worker));
    if (!res.headersSent) res.json({ ...(dataset !== undefined ? { dataset } : {}), questions: out });
  };
  r.post('/qald', raw, qaldPost);
  r.post('/gerbil', raw, qaldPost);
  return r;
}
