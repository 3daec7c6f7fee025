import * as crypto from 'node:crypto';
import * as path from 'node:path';
import cors from 'cors';
import express, { type NextFunction, type Request, type Response } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import helmet from 'helmet';
import pino, { type Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { AskgraphError, packageRoot } from '../core';
import { Admission } from './admission';
import { AnswerCache } from './cache';
import { parseServeConfig, type ServeConfig, type ServeConfigInput } from './config';
import type { ServeContext } from './context';
import type { ServeGateway } from './gateway';
import { redactPaths, toHttpError } from './http-errors';
import { ServeMetrics, PROMETHEUS_CONTENT_TYPE } from './metrics';
import { openApiDocument } from './openapi';
import { TokenBucketStore, TokenBuckets } from './rate-limit';
import { apiRouter } from './routes-api';
import { inspectorRouter } from './routes-inspector';
import { sparqlRouter } from './routes-sparql';
import { diffFormsText, EndpointExecutor, OxigraphExecutor, QueryChecker, type StoreHealth } from './stages';

export interface AppOptions {
  logger?: Logger;
  metrics?: ServeMetrics;
}

export type AskgraphApp = express.Express & { locals: { ctx: ServeContext } };

/** The web inspector's static files (src/serve/public; tsc does not copy them, so resolve from the package root). */
export function publicDir(): string {
  return path.join(packageRoot(), 'src', 'serve', 'public');
}

/** The client's address: req.ip (X-Forwarded-For from a trusted proxy, see trustProxy), else the socket's. */
function clientAddress(req: Request): string | undefined {
  return req.ip ?? req.socket.remoteAddress;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** A request's route for logs and metrics: the one a handler set in res.locals, else the matched Express route's path. */
function routeOf(req: Request, res: Response): string {
  const set: unknown = res.locals.route;
  if (typeof set === 'string') return set;
  const route: unknown = req.route; // Express types it any: a Route, or undefined when none matched
  return typeof route === 'object' && route !== null && 'path' in route ? String(route.path) : '(unmatched)';
}

function digest(s: string): Buffer {
  return crypto.createHash('sha256').update(s).digest();
}

/**
 * The express app in front of a gateway. Logging policy: one JSON line per request at info with
 * request id, method, route, status, duration and the question's length — never the question text,
 * the query string or API keys (the question text is logged at debug level only).
 */
export function createApp(gateway: ServeGateway, config: ServeConfigInput | ServeConfig = {}, opts: AppOptions = {}): AskgraphApp {
  const cfg = parseServeConfig(config);
  const log = opts.logger ?? pino({ level: cfg.logLevel, base: { service: 'askgraph' } });
  const ctx: ServeContext = {
    gateway,
    config: cfg,
    metrics: opts.metrics ?? new ServeMetrics(),
    cache: new AnswerCache(cfg.cache),
    log,
    inflight: new Map(),
    admission: new Admission({ concurrency: cfg.concurrency.asks, queue: cfg.concurrency.queue }),
    diff: diffFormsText,
    checker: new QueryChecker({ timeoutMs: cfg.sparql.parseTimeoutMs, maxQueue: 256 }),
  };
  ctx.metrics.gauge('askgraph_asks_running', 'Questions (ask, parse) running in the pipeline now.', () => ctx.admission.active);
  ctx.metrics.gauge('askgraph_asks_queued', 'Questions waiting for a pipeline slot now.', () => ctx.admission.queued);
  if (gateway.executor instanceof OxigraphExecutor) {
    const ex = gateway.executor;
    const sum = (f: (h: StoreHealth) => number) => () => Object.values(ex.health()).reduce((n, h) => n + f(h), 0);
    ctx.metrics.counter('askgraph_store_restarts_total', 'Store processes restarted since start (timeouts, traps, crashes), all lanes.', sum((h) => h.restarts));
    ctx.metrics.gauge('askgraph_store_processes_not_ready', 'Store processes starting, restarting or failed now.', sum((h) => (h.state === 'ready' ? 0 : 1)));
  }
  const buckets = new TokenBuckets(cfg.rateLimit);
  const keyDigests = cfg.apiKeys.map(digest);
  const started = Date.now();

  const app = express() as AskgraphApp;
  app.locals.ctx = ctx;
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  if (cfg.trustProxy.length > 0) {
    // behind a load balancer: req.ip is the client X-Forwarded-For names, when the socket is a trusted proxy
    try {
      app.set('trust proxy', cfg.trustProxy);
    } catch (e) {
      throw new AskgraphError('BAD_REQUEST', `invalid server configuration at trustProxy: ${(e as Error).message}`, { cause: e });
    }
  }

  // request id and access log (pino-http: one line per request at info, with only the fields below —
  // never the URL, its query string or headers, so neither the question text nor API keys)
  const logFields = (req: Request, res: Response, ms: number) => {
    const questionLength: unknown = res.locals.questionLength;
    const code: unknown = res.locals.errorCode;
    return { method: req.method, route: routeOf(req, res), status: res.statusCode, ms, questionLength, code };
  };
  app.use(
    pinoHttp<Request, Response>({
      logger: log,
      quietReqLogger: true,
      quietResLogger: true,
      genReqId: (req, res) => {
        const given = req.headers['x-request-id'];
        const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : crypto.randomUUID();
        res.setHeader('X-Request-Id', id);
        return id;
      },
      customLogLevel: () => 'info',
      customSuccessMessage: () => 'request',
      customErrorMessage: () => 'request',
      customSuccessObject: (req, res, v: { responseTime: number }) => logFields(req, res, v.responseTime),
      customErrorObject: (req, res, _err, v: { responseTime: number }) => logFields(req, res, v.responseTime),
    }),
  );

  // metrics, per-request timeout
  app.use((req: Request, res: Response, next: NextFunction) => {
    const t0 = process.hrtime.bigint();
    const timer = setTimeout(() => {
      if (!res.headersSent) sendError(req, res, new AskgraphError('REQUEST_TIMEOUT', `request exceeded ${cfg.timeouts.requestMs} ms`));
    }, cfg.timeouts.requestMs);
    timer.unref();
    res.on('close', () => clearTimeout(timer));
    res.on('finish', () => {
      clearTimeout(timer);
      const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
      const route = routeOf(req, res);
      ctx.metrics.requests.inc({ method: req.method, route, status: String(res.statusCode) });
      ctx.metrics.requestSeconds.observe({ route }, seconds);
    });
    next();
  });

  // security headers (helmet, configured to send exactly these four; the inspector uses no inline script or style)
  app.use(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          imgSrc: ["'self'", 'data:'],
          frameAncestors: ["'none'"],
          baseUri: ["'none'"],
          formAction: ["'self'"],
        },
      },
      xContentTypeOptions: true,
      referrerPolicy: { policy: 'no-referrer' },
      xFrameOptions: { action: 'deny' },
      crossOriginEmbedderPolicy: false,
      crossOriginOpenerPolicy: false,
      crossOriginResourcePolicy: false,
      originAgentCluster: false,
      strictTransportSecurity: false,
      xDnsPrefetchControl: false,
      xDownloadOptions: false,
      xPermittedCrossDomainPolicies: false,
      xPoweredBy: false,
      xXssProtection: false,
    }),
  );

  // CORS (the cors package): only configured origins get the headers; preflights answer 204 either way.
  const origins = cfg.cors.origins;
  if (origins.length > 0) {
    app.use(
      cors({
        origin: (origin, cb) => cb(null, !origin ? false : origins.includes('*') ? '*' : origins.includes(origin) ? origin : false),
        methods: ['GET', 'POST', 'OPTIONS'],
        allowedHeaders: ['Content-Type', 'Accept', 'X-API-Key', 'X-Request-Id'],
        exposedHeaders: ['X-Request-Id', 'X-Cache', 'Retry-After', 'X-SPARQL-MaxRows'],
        maxAge: 600,
        optionsSuccessStatus: 204,
        preflightContinue: true,
      }),
    );
  }
  app.use((req, res, next) => {
    if (req.method === 'OPTIONS') {
      res.locals.route = 'OPTIONS';
      res.status(204).end();
      return;
    }
    next();
  });

  // open routes
  // Health: the store processes' real state (never a query, so it answers while queries run), no paths.
  // 200 "ok" when every store process is ready, 200 "degraded" while one (re)starts, 503 "failed" when
  // the store cannot be loaded any more. A remote store: "degraded" (with the reason) while its calls of
  // the last minute include failures (timeouts, unreachable, HTTP 5xx, truncated responses).
  app.get('/healthz', (_req, res) => {
    const ex = gateway.executor;
    const lanes: Record<string, StoreHealth> = ex instanceof OxigraphExecutor ? ex.health() : {};
    for (const l of Object.values(lanes)) if (l.lastRestart) l.lastRestart = redactPaths(l.lastRestart);
    const endpoint = ex instanceof EndpointExecutor ? ex.health() : undefined;
    if (endpoint?.reason) endpoint.reason = redactPaths(endpoint.reason);
    const states = Object.values(lanes).map((l) => l.state);
    const status = states.includes('failed') ? 'failed' : states.some((x) => x !== 'ready') || endpoint?.state === 'degraded' ? 'degraded' : 'ok';
    res.status(status === 'failed' ? 503 : 200).json({
      status,
      version: redactPaths(gateway.version),
      store: redactPaths(ex.id),
      ...(Object.keys(lanes).length ? { storeProcesses: lanes } : {}),
      ...(endpoint ? { endpoint } : {}),
      model: gateway.generator?.id ?? null,
      uptimeSeconds: Math.round((Date.now() - started) / 1000),
    });
  });
  app.get('/metrics', async (_req, res) => {
    const text = await ctx.metrics.expose();
    res.setHeader('Content-Type', PROMETHEUS_CONTENT_TYPE);
    res.send(text);
  });
  app.get('/openapi.json', (_req, res) => {
    res.json(openApiDocument(cfg));
  });
  app.use(
    (req, res, next) => {
      if (req.method === 'GET' || req.method === 'HEAD') res.locals.route = 'static';
      next();
    },
    express.static(publicDir(), { index: 'index.html', fallthrough: true, dotfiles: 'ignore', maxAge: 0 }),
    (_req, res, next) => {
      delete res.locals.route;
      next();
    },
  );

  // API keys, then the per-key token bucket: for everything not served above (the API routes, and
  // unknown paths too, so that routing differences such as /SPARQL or /sparql/ cannot skip the check)
  app.use((req, res, next) => {
    const key = req.headers['x-api-key'];
    let who = 'ip:' + (clientAddress(req) ?? 'unknown');
    if (keyDigests.length > 0) {
      const d = typeof key === 'string' ? digest(key) : undefined;
      if (!d || !keyDigests.some((k) => crypto.timingSafeEqual(k, d))) {
        throw new AskgraphError('UNAUTHORIZED', typeof key === 'string' ? 'invalid API key' : 'missing API key (header X-API-Key)');
      }
      who = 'key:' + d.toString('hex').slice(0, 16);
    }
    res.locals.client = who;
    next();
  });
  // express-rate-limit with the token bucket as its store, keyed by the client above; 429 RATE_LIMITED
  // with Retry-After (whole seconds until a token is there) through the one error handler.
  app.use(
    rateLimit({
      limit: cfg.rateLimit.burst,
      store: new TokenBucketStore(buckets, cfg.rateLimit.burst),
      // without keys: per address, an IPv6 client per /56 (the library's ipKeyGenerator), as one client can hold a whole prefix
      keyGenerator: (req, res) => {
        const who = res.locals.client as string;
        const address = clientAddress(req);
        return who.startsWith('ip:') && address ? 'ip:' + ipKeyGenerator(address) : who;
      },
      skip: () => !buckets.enabled,
      standardHeaders: false,
      legacyHeaders: false,
      validate: { ip: false, xForwardedForHeader: false, forwardedHeader: false },
      handler: (req, res, next) => {
        const reset = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
        const seconds = Math.max(1, Math.ceil(((reset?.getTime() ?? Date.now()) - Date.now()) / 1000));
        res.setHeader('Retry-After', String(seconds));
        next(new AskgraphError('RATE_LIMITED', `rate limit exceeded; retry in ${seconds} s`));
      },
    }),
  );

  app.use(apiRouter(ctx));
  app.use(inspectorRouter(ctx));
  app.use(sparqlRouter(ctx));

  app.use((req, _res, next) => {
    next(new AskgraphError('NOT_FOUND', `no route for ${req.method} ${req.path.slice(0, 200)}`));
  });

  function sendError(req: Request, res: Response, e: unknown): void {
    const { status, body, internal } = toHttpError(e);
    if (internal) req.log.error({ err: e }, 'internal error');
    ctx.metrics.errors.inc({ code: body.error.code });
    res.locals.errorCode = body.error.code;
    if (res.headersSent) return;
    if (body.error.code === 'SERVER_BUSY') res.setHeader('Retry-After', '1');
    if (status >= 500) body.error.message = redactPaths(body.error.message);
    res.status(status).json(body);
  }

  // The only place errors become responses: {error:{code,message}}, never a stack.
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (res.headersSent) {
      req.log.debug({ err }, 'error after the response was sent (e.g. request timeout)');
      return;
    }
    sendError(req, res, err);
  });

  return app;
}
