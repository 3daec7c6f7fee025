import * as fs from 'node:fs';
import * as os from 'node:os';
import { z } from 'zod';
import { AskgraphError } from '../core';

/**
 * Default pipeline concurrency: one question per core (at least 2). Measured on the 2-core box with
 * scripts/load-test.ts: 2 slots gave the best throughput and tail; unbounded (32) the worst.
 */
const DEFAULT_ASKS = Math.max(2, os.availableParallelism());

/**
 * Server configuration. Sources, lowest precedence first: defaults < JSON config file
 * (--config FILE or ASKGRAPH_CONFIG) < environment (ASKGRAPH_*) < command-line flags.
 * Every source is validated with the same zod schema, so a bad value fails at start-up with
 * the key that is wrong.
 */
export const ServeConfigSchema = z
  .object({
    port: z.number().int().min(0).max(65535).default(8080),
    host: z.string().min(1).default('127.0.0.1'),
    /** Pack dir, store dir / snapshot, or http(s) SPARQL endpoint URL (undefined = embedded movies store). */
    store: z.string().min(1).optional(),
    /** Parser model dir (undefined = the pack's model). */
    model: z.string().min(1).optional(),
    pack: z.string().min(1).optional(),
    /** An OpenAI-compatible chat/completions server that writes the forms instead of the parser model. */
    generator: z
      .object({
        url: z.string().regex(/^https?:\/\/\S+$/i, 'must be an http(s) URL'),
        /** Model name sent to the server (default "default"). */
        model: z.string().min(1).optional(),
      })
      .strict()
      .optional(),
    /** When non-empty, API routes need header X-API-Key with one of these. */
    apiKeys: z.array(z.string().min(8, 'API keys must have at least 8 characters')).default([]),
    /** Token bucket per API key (or per client address without keys). perMinute 0 = off. */
    rateLimit: z
      .object({ perMinute: z.number().min(0).default(600), burst: z.number().int().min(1).default(60) })
      .strict()
      .default({ perMinute: 600, burst: 60 }),
    /** Origins allowed by CORS; ["*"] = any; [] = no CORS headers at all. */
    cors: z.object({ origins: z.array(z.string().min(1)).default([]) }).strict().default({ origins: [] }),
    /** Answer cache (LRU + TTL, bounded by entries and bytes); max 0 = off. */
    cache: z
      .object({
        max: z.number().int().min(0).default(1000),
        ttlMs: z.number().int().min(1).default(300_000),
        maxBytes: z.number().int().min(1024).default(64 * 1024 * 1024),
      })
      .strict()
      .default({ max: 1000, ttlMs: 300_000, maxBytes: 64 * 1024 * 1024 }),
    limits: z
      .object({
        bodyBytes: z.number().int().min(1024).max(16 * 1024 * 1024).default(64 * 1024),
        questionChars: z.number().int().min(1).max(100_000).default(1000),
      })
      .strict()
      .default({ bodyBytes: 64 * 1024, questionChars: 1000 }),
    timeouts: z
      .object({
        /** Whole request (ask, parse, sparql …): 504 REQUEST_TIMEOUT after it. */
        requestMs: z.number().int().min(1).default(30_000),
        /** Default per-query timeout of /sparql (overridable per request with ?timeout=ms up to maxQueryMs). */
        queryMs: z.number().int().min(1).default(10_000),
        maxQueryMs: z.number().int().min(1).default(60_000),
      })
      .strict()
      .default({ requestMs: 30_000, queryMs: 10_000, maxQueryMs: 60_000 }),
    /** Pipeline work (ask, parse) running at once, and how many more may wait (then 503 SERVER_BUSY). */
    concurrency: z
      .object({ asks: z.number().int().min(1).max(256).default(DEFAULT_ASKS), queue: z.number().int().min(0).max(100_000).default(1024) })
      .strict()
      .default({ asks: DEFAULT_ASKS, queue: 1024 }),
    /**
     * The public /sparql endpoint: limits checked before a query runs (400 QUERY_TOO_COMPLEX), the
     * result cap (422 RESULT_TOO_LARGE), federation and dataset policy, and whether the embedded store
     * runs user queries in a store process of their own (so question answering keeps its capacity).
     */
    sparql: z
      .object({
        maxQueryBytes: z.number().int().min(256).max(16 * 1024 * 1024).default(32 * 1024),
        maxDepth: z.number().int().min(4).max(1000).default(48),
        maxPatterns: z.number().int().min(10).max(1_000_000).default(1000),
        maxRows: z.number().int().min(1).max(10_000_000).default(10_000),
        maxResultBytes: z.number().int().min(1024).max(1024 * 1024 * 1024).default(32 * 1024 * 1024),
        /** A query whose parse takes longer is refused (QUERY_TOO_COMPLEX); parsing runs off the main thread. */
        parseTimeoutMs: z.number().int().min(50).default(2000),
        /** SERVICE clauses: refused (403 FEDERATION_FORBIDDEN) unless true; a remote upstream would otherwise fetch any URL. */
        allowService: z.boolean().default(false),
        /** Remote store: FROM / FROM NAMED forwarded to the upstream only when true (400 DATASET_UNSUPPORTED otherwise). */
        allowDataset: z.boolean().default(false),
        /** Embedded store: user queries in store processes of their own (each a copy of the store in memory). */
        isolate: z.boolean().default(true),
        /** How many such processes (queries go to the least busy one). */
        processes: z.number().int().min(1).max(16).default(1),
        /** Queries one client (API key, or address without keys) may have running or waiting at once; more is 429. */
        perClient: z.number().int().min(1).max(1000).default(2),
      })
      .strict()
      .default({
        maxQueryBytes: 32 * 1024,
        maxDepth: 48,
        maxPatterns: 1000,
        maxRows: 10_000,
        maxResultBytes: 32 * 1024 * 1024,
        parseTimeoutMs: 2000,
        allowService: false,
        allowDataset: false,
        isolate: true,
        processes: 1,
        perClient: 2,
      }),
    /**
     * What one client may ask of the pipeline: options above these ceilings are 400 BAD_REQUEST (a request may
     * narrow its own work, not widen it without bound), and asks one client (API key, or address without keys)
     * may have running or waiting at once (more is 429 RATE_LIMITED).
     */
    ask: z
      .object({
        maxBeam: z.number().int().min(1).max(32).default(16),
        maxAttempts: z.number().int().min(1).max(1000).default(48),
        maxBestOf: z.number().int().min(1).max(100).default(5),
        /** Ceiling of the Algorithm 1 candidate counts kE, kR, k1, k2. */
        maxCandidates: z.number().int().min(1).max(10_000).default(100),
        maxQueryTimeoutMs: z.number().int().min(1).max(600_000).default(10_000),
        perClient: z.number().int().min(1).max(100_000).default(8),
        /** Asks with options that widen the defaults (tuned asks) holding a pipeline slot at once; the rest wait. */
        tunedConcurrency: z.number().int().min(1).max(256).default(1),
      })
      .strict()
      .default({ maxBeam: 16, maxAttempts: 48, maxBestOf: 5, maxCandidates: 100, maxQueryTimeoutMs: 10_000, perClient: 8, tunedConcurrency: 1 }),
    logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  })
  .strict();

export type ServeConfig = z.output<typeof ServeConfigSchema>;
export type ServeConfigInput = z.input<typeof ServeConfigSchema>;

/** Flags of `askgraph serve` that map onto the config (commander gives strings). */
export interface ServeFlags {
  port?: string | number;
  host?: string;
  store?: string;
  model?: string;
  pack?: string;
  config?: string;
  logLevel?: string;
  generator?: string;
  generatorModel?: string;
}

function intOf(value: string, key: string): number {
  const n = Number(value);
  if (!Number.isFinite(n)) throw new AskgraphError('BAD_REQUEST', `config: ${key} must be a number, got "${value}"`);
  return n;
}

function boolOf(value: string, key: string): boolean {
  if (/^(1|true|yes|on)$/i.test(value)) return true;
  if (/^(0|false|no|off)$/i.test(value)) return false;
  throw new AskgraphError('BAD_REQUEST', `config: ${key} must be true or false, got "${value}"`);
}

function listOf(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** The ASKGRAPH_* variables as a partial config object (documented in the serve command help). */
export function configFromEnv(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const out: Record<string, any> = {};
  const set = (path: string[], value: unknown) => {
    let o = out;
    for (const k of path.slice(0, -1)) o = o[k] ??= {};
    o[path[path.length - 1]] = value;
  };
  const e = (name: string) => {
    const v = env['ASKGRAPH_' + name];
    return v === undefined || v === '' ? undefined : v;
  };
  let v: string | undefined;
  if ((v = e('PORT'))) set(['port'], intOf(v, 'ASKGRAPH_PORT'));
  if ((v = e('HOST'))) set(['host'], v);
  if ((v = e('STORE'))) set(['store'], v);
  if ((v = e('MODEL'))) set(['model'], v);
  if ((v = e('PACK'))) set(['pack'], v);
  if ((v = e('GENERATOR'))) set(['generator', 'url'], v);
  if ((v = e('GENERATOR_MODEL'))) set(['generator', 'model'], v);
  if ((v = e('API_KEYS'))) set(['apiKeys'], listOf(v));
  if ((v = e('CORS_ORIGINS'))) set(['cors', 'origins'], listOf(v));
  if ((v = e('RATE_LIMIT_PER_MINUTE'))) set(['rateLimit', 'perMinute'], intOf(v, 'ASKGRAPH_RATE_LIMIT_PER_MINUTE'));
  if ((v = e('RATE_LIMIT_BURST'))) set(['rateLimit', 'burst'], intOf(v, 'ASKGRAPH_RATE_LIMIT_BURST'));
  if ((v = e('CACHE_MAX'))) set(['cache', 'max'], intOf(v, 'ASKGRAPH_CACHE_MAX'));
  if ((v = e('CACHE_TTL_MS'))) set(['cache', 'ttlMs'], intOf(v, 'ASKGRAPH_CACHE_TTL_MS'));
  if ((v = e('CACHE_MAX_BYTES'))) set(['cache', 'maxBytes'], intOf(v, 'ASKGRAPH_CACHE_MAX_BYTES'));
  if ((v = e('BODY_LIMIT_BYTES'))) set(['limits', 'bodyBytes'], intOf(v, 'ASKGRAPH_BODY_LIMIT_BYTES'));
  if ((v = e('QUESTION_MAX_CHARS'))) set(['limits', 'questionChars'], intOf(v, 'ASKGRAPH_QUESTION_MAX_CHARS'));
  if ((v = e('REQUEST_TIMEOUT_MS'))) set(['timeouts', 'requestMs'], intOf(v, 'ASKGRAPH_REQUEST_TIMEOUT_MS'));
  if ((v = e('QUERY_TIMEOUT_MS'))) set(['timeouts', 'queryMs'], intOf(v, 'ASKGRAPH_QUERY_TIMEOUT_MS'));
  if ((v = e('MAX_QUERY_TIMEOUT_MS'))) set(['timeouts', 'maxQueryMs'], intOf(v, 'ASKGRAPH_MAX_QUERY_TIMEOUT_MS'));
  if ((v = e('CONCURRENCY'))) set(['concurrency', 'asks'], intOf(v, 'ASKGRAPH_CONCURRENCY'));
  if ((v = e('QUEUE'))) set(['concurrency', 'queue'], intOf(v, 'ASKGRAPH_QUEUE'));
  if ((v = e('LOG_LEVEL'))) set(['logLevel'], v);
  if ((v = e('SPARQL_MAX_ROWS'))) set(['sparql', 'maxRows'], intOf(v, 'ASKGRAPH_SPARQL_MAX_ROWS'));
  if ((v = e('SPARQL_MAX_RESULT_BYTES'))) set(['sparql', 'maxResultBytes'], intOf(v, 'ASKGRAPH_SPARQL_MAX_RESULT_BYTES'));
  if ((v = e('SPARQL_ALLOW_SERVICE'))) set(['sparql', 'allowService'], boolOf(v, 'ASKGRAPH_SPARQL_ALLOW_SERVICE'));
  if ((v = e('SPARQL_ALLOW_DATASET'))) set(['sparql', 'allowDataset'], boolOf(v, 'ASKGRAPH_SPARQL_ALLOW_DATASET'));
  if ((v = e('SPARQL_ISOLATE'))) set(['sparql', 'isolate'], boolOf(v, 'ASKGRAPH_SPARQL_ISOLATE'));
  if ((v = e('SPARQL_PROCESSES'))) set(['sparql', 'processes'], intOf(v, 'ASKGRAPH_SPARQL_PROCESSES'));
  if ((v = e('SPARQL_PER_CLIENT'))) set(['sparql', 'perClient'], intOf(v, 'ASKGRAPH_SPARQL_PER_CLIENT'));
  if ((v = e('ASK_PER_CLIENT'))) set(['ask', 'perClient'], intOf(v, 'ASKGRAPH_ASK_PER_CLIENT'));
  return out;
}

function configFromFlags(flags: ServeFlags): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (flags.port !== undefined) out.port = typeof flags.port === 'number' ? flags.port : intOf(flags.port, '--port');
  if (flags.host !== undefined) out.host = flags.host;
  if (flags.store !== undefined) out.store = flags.store;
  if (flags.model !== undefined) out.model = flags.model;
  if (flags.pack !== undefined) out.pack = flags.pack;
  if (flags.logLevel !== undefined) out.logLevel = flags.logLevel;
  if (flags.generator !== undefined || flags.generatorModel !== undefined) out.generator = { url: flags.generator, model: flags.generatorModel };
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Deep merge of config layers (objects merge, arrays and scalars replace). */
export function mergeLayers(...layers: Record<string, unknown>[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const layer of layers) {
    for (const [k, v] of Object.entries(layer)) {
      if (v === undefined) continue;
      out[k] = isPlainObject(v) && isPlainObject(out[k]) ? mergeLayers(out[k] as Record<string, unknown>, v) : v;
    }
  }
  return out;
}

/** Validates a config object; errors name the offending key. */
export function parseServeConfig(input: unknown): ServeConfig {
  const r = ServeConfigSchema.safeParse(input ?? {});
  if (!r.success) {
    const first = r.error.issues[0];
    const where = first.path.length ? first.path.join('.') : '(root)';
    throw new AskgraphError('BAD_REQUEST', `invalid server configuration at ${where}: ${first.message}`, {
      details: { issues: r.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })) },
    });
  }
  return r.data;
}

function readConfigFile(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new AskgraphError('BAD_REQUEST', `cannot read config file ${file}: ${(e as Error).message}`, { cause: e });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new AskgraphError('DATA_FORMAT', `config file ${file} is not valid JSON: ${(e as Error).message}`, { cause: e });
  }
  if (!isPlainObject(value)) throw new AskgraphError('DATA_FORMAT', `config file ${file} must hold a JSON object`);
  return value;
}

/** defaults < file < env < flags, validated. */
export function loadServeConfig(flags: ServeFlags, env: NodeJS.ProcessEnv): ServeConfig {
  const file = flags.config ?? env.ASKGRAPH_CONFIG;
  const fromFile = file ? readConfigFile(file) : {};
  return parseServeConfig(mergeLayers(fromFile, configFromEnv(env), configFromFlags(flags)));
}
