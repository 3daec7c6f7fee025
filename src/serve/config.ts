import * as fs from 'node:fs';
import * as os from 'node:os';
import { z } from 'zod';
import { AskgraphError, itemAt } from '../core';

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
    /**
     * Proxies (load balancers) whose X-Forwarded-For names the client: addresses, CIDRs or express's names
     * (loopback, uniquelocal); [] = none trusted, the client is the socket's address. Behind nginx without
     * it every client is the balancer's address, one client for the rate limit and the per-client shares.
     */
    trustProxy: z.array(z.string().min(1)).default([]),
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
        /**
         * Queries one client (API key, or address without keys) may have in the store at once, and how
         * many more may wait their turn (beyond: 429 with Retry-After). One analyst's tools — a script
         * with a few threads, a federating engine's parallel requests — wait instead of failing.
         */
        perClient: z.number().int().min(1).max(1000).default(4),
        perClientQueue: z.number().int().min(0).max(100_000).default(64),
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
        perClient: 4,
        perClientQueue: 64,
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

/** How an environment value becomes a config value: zod schemas over the string, with the phrase for the error. */
const ENV_KINDS = {
  number: { schema: z.coerce.number(), expect: 'a number' },
  boolean: {
    schema: z
      .string()
      .regex(/^(1|true|yes|on|0|false|no|off)$/i)
      .transform((v) => /^(1|true|yes|on)$/i.test(v)),
    expect: 'true or false',
  },
  list: {
    schema: z.string().transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s.length > 0),
    ),
    expect: 'a comma-separated list',
  },
  string: { schema: z.string(), expect: 'a string' },
} as const;

export interface EnvVar {
  /** Full variable name (ASKGRAPH_…). */
  name: string;
  /** Where the value goes in the config; undefined for variables read by other stages (listed for --help). */
  path?: readonly string[];
  kind: keyof typeof ENV_KINDS;
  /** For --help; "%d" is replaced by the default, else "; default …" is appended when the key has one. */
  help: string;
  /** False where the default depends on the machine (the help says what it is instead). */
  showDefault?: boolean;
}

/**
 * The one table of environment variables: configFromEnv reads exactly these, and `askgraph serve --help`
 * prints exactly these (so the two cannot drift apart).
 */
export const ENV_VARS: readonly EnvVar[] = [
  { name: 'ASKGRAPH_CONFIG', kind: 'string', help: 'JSON config file, as --config' },
  { name: 'ASKGRAPH_PORT', path: ['port'], kind: 'number', help: 'port; 0 = any free port' },
  { name: 'ASKGRAPH_HOST', path: ['host'], kind: 'string', help: 'address to listen on' },
  { name: 'ASKGRAPH_STORE', path: ['store'], kind: 'string', help: 'pack dir, store dir / snapshot, or SPARQL endpoint URL' },
  { name: 'ASKGRAPH_MODEL', path: ['model'], kind: 'string', help: "parser model folder; default: the pack's model" },
  { name: 'ASKGRAPH_PACK', path: ['pack'], kind: 'string', help: 'knowledge pack folder' },
  { name: 'ASKGRAPH_GENERATOR', path: ['generator', 'url'], kind: 'string', help: 'URL of an OpenAI-compatible server that writes the forms' },
  { name: 'ASKGRAPH_GENERATOR_MODEL', path: ['generator', 'model'], kind: 'string', help: 'model name sent to it; default "default"' },
  { name: 'ASKGRAPH_LLM_KEY', kind: 'string', help: 'bearer token for the generator and the LLM reader' },
  { name: 'ASKGRAPH_LLM_URL', kind: 'string', help: 'OpenAI-compatible server of the fallback LLM reader; off when unset' },
  { name: 'ASKGRAPH_LLM_MODEL', kind: 'string', help: 'model name sent to it' },
  { name: 'ASKGRAPH_API_KEYS', path: ['apiKeys'], kind: 'list', help: 'comma-separated; when set, API routes need header X-API-Key' },
  { name: 'ASKGRAPH_TRUST_PROXY', path: ['trustProxy'], kind: 'list', help: 'comma-separated addresses / CIDRs / loopback of load balancers whose X-Forwarded-For names the client (rate limit, per-client shares); none = the socket address' },
  { name: 'ASKGRAPH_CORS_ORIGINS', path: ['cors', 'origins'], kind: 'list', help: 'comma-separated, * = any; none = no CORS headers' },
  { name: 'ASKGRAPH_RATE_LIMIT_PER_MINUTE', path: ['rateLimit', 'perMinute'], kind: 'number', help: 'requests per API key, or per client address without keys; 0 = off' },
  { name: 'ASKGRAPH_RATE_LIMIT_BURST', path: ['rateLimit', 'burst'], kind: 'number', help: 'requests at once before the per-minute rate applies' },
  { name: 'ASKGRAPH_CACHE_MAX', path: ['cache', 'max'], kind: 'number', help: 'answer cache entries, 0 = off' },
  { name: 'ASKGRAPH_CACHE_TTL_MS', path: ['cache', 'ttlMs'], kind: 'number', help: 'answer cache time to live' },
  { name: 'ASKGRAPH_CACHE_MAX_BYTES', path: ['cache', 'maxBytes'], kind: 'number', help: 'answer cache size' },
  { name: 'ASKGRAPH_BODY_LIMIT_BYTES', path: ['limits', 'bodyBytes'], kind: 'number', help: 'request body size' },
  { name: 'ASKGRAPH_QUESTION_MAX_CHARS', path: ['limits', 'questionChars'], kind: 'number', help: 'question length' },
  { name: 'ASKGRAPH_REQUEST_TIMEOUT_MS', path: ['timeouts', 'requestMs'], kind: 'number', help: 'whole request, then 504 REQUEST_TIMEOUT' },
  { name: 'ASKGRAPH_QUERY_TIMEOUT_MS', path: ['timeouts', 'queryMs'], kind: 'number', help: '/sparql query timeout unless ?timeout=ms' },
  { name: 'ASKGRAPH_MAX_QUERY_TIMEOUT_MS', path: ['timeouts', 'maxQueryMs'], kind: 'number', help: 'largest ?timeout=ms of /sparql' },
  { name: 'ASKGRAPH_CONCURRENCY', path: ['concurrency', 'asks'], kind: 'number', help: 'questions in the pipeline at once; default: cores, at least 2', showDefault: false },
  { name: 'ASKGRAPH_QUEUE', path: ['concurrency', 'queue'], kind: 'number', help: 'questions waiting; default %d; beyond: 503' },
  { name: 'ASKGRAPH_LOG_LEVEL', path: ['logLevel'], kind: 'string', help: 'fatal|error|warn|info|debug|trace|silent' },
  { name: 'ASKGRAPH_ASK_MAX_BEAM', path: ['ask', 'maxBeam'], kind: 'number', help: 'largest beam a /v1/ask or /v1/parse may ask for; default %d; beyond: 400' },
  { name: 'ASKGRAPH_ASK_MAX_ATTEMPTS', path: ['ask', 'maxAttempts'], kind: 'number', help: 'largest maxAttempts of one question; default %d' },
  { name: 'ASKGRAPH_ASK_MAX_BEST_OF', path: ['ask', 'maxBestOf'], kind: 'number', help: 'largest bestOf of one question; default %d' },
  { name: 'ASKGRAPH_ASK_MAX_CANDIDATES', path: ['ask', 'maxCandidates'], kind: 'number', help: 'largest kE / kR / k1 / k2 of one question; default %d' },
  { name: 'ASKGRAPH_ASK_MAX_QUERY_TIMEOUT_MS', path: ['ask', 'maxQueryTimeoutMs'], kind: 'number', help: 'largest queryTimeoutMs of one question; default %d' },
  { name: 'ASKGRAPH_ASK_PER_CLIENT', path: ['ask', 'perClient'], kind: 'number', help: 'questions of one client running or waiting at once; default %d; beyond: 429' },
  { name: 'ASKGRAPH_ASK_TUNED_CONCURRENCY', path: ['ask', 'tunedConcurrency'], kind: 'number', help: 'questions with options wider than the defaults in the pipeline at once; default %d' },
  { name: 'ASKGRAPH_SPARQL_PER_CLIENT', path: ['sparql', 'perClient'], kind: 'number', help: 'queries of one client — API key, or address without keys — in the store at once' },
  { name: 'ASKGRAPH_SPARQL_PER_CLIENT_QUEUE', path: ['sparql', 'perClientQueue'], kind: 'number', help: 'more that wait their turn; default %d; beyond: 429 with Retry-After' },
  { name: 'ASKGRAPH_SPARQL_MAX_ROWS', path: ['sparql', 'maxRows'], kind: 'number', help: 'rows or triples sent back; default %d; more are cut there, with header X-SPARQL-MaxRows' },
  { name: 'ASKGRAPH_SPARQL_MAX_RESULT_BYTES', path: ['sparql', 'maxResultBytes'], kind: 'number', help: 'result size, beyond: 422 RESULT_TOO_LARGE' },
  { name: 'ASKGRAPH_SPARQL_MAX_QUERY_BYTES', path: ['sparql', 'maxQueryBytes'], kind: 'number', help: 'query text size, beyond: 400 QUERY_TOO_COMPLEX' },
  { name: 'ASKGRAPH_SPARQL_MAX_DEPTH', path: ['sparql', 'maxDepth'], kind: 'number', help: 'nesting of groups, beyond: 400 QUERY_TOO_COMPLEX' },
  { name: 'ASKGRAPH_SPARQL_MAX_PATTERNS', path: ['sparql', 'maxPatterns'], kind: 'number', help: 'triple patterns, beyond: 400 QUERY_TOO_COMPLEX' },
  { name: 'ASKGRAPH_SPARQL_PARSE_TIMEOUT_MS', path: ['sparql', 'parseTimeoutMs'], kind: 'number', help: 'longer parses: 400 QUERY_TOO_COMPLEX' },
  { name: 'ASKGRAPH_SPARQL_ALLOW_SERVICE', path: ['sparql', 'allowService'], kind: 'boolean', help: 'SERVICE clauses allowed, else 403 FEDERATION_FORBIDDEN' },
  { name: 'ASKGRAPH_SPARQL_ALLOW_DATASET', path: ['sparql', 'allowDataset'], kind: 'boolean', help: 'remote store: FROM / FROM NAMED forwarded, else 400 DATASET_UNSUPPORTED' },
  { name: 'ASKGRAPH_SPARQL_ISOLATE', path: ['sparql', 'isolate'], kind: 'boolean', help: 'embedded store: user queries in store processes of their own' },
  { name: 'ASKGRAPH_SPARQL_PROCESSES', path: ['sparql', 'processes'], kind: 'number', help: 'how many such processes' },
  { name: 'ASKGRAPH_STORE_MAX_BYTES', kind: 'string', help: "embedded store: memory its processes may use (bytes, or 512M / 4G; 0 = no check); a larger graph is refused with STORE_TOO_LARGE; default 80 % of the machine's memory, and at most 4 GiB per store process (wasm32)" },
  { name: 'ASKGRAPH_CACHE_DIR', kind: 'string', help: 'entity index cache of a remote store; default ~/.cache/askgraph' },
  { name: 'ASKGRAPH_ORT_THREADS', kind: 'string', help: 'ONNX runtime threads of the parser model; default 1' },
];

function envValue(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v === '' ? undefined : v;
}

/** The ASKGRAPH_* variables of ENV_VARS as a partial config object. */
export function configFromEnv(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const v of ENV_VARS) {
    const raw = v.path ? envValue(env, v.name) : undefined;
    if (!v.path || raw === undefined) continue;
    const kind = ENV_KINDS[v.kind];
    const r = kind.schema.safeParse(raw);
    if (!r.success) throw new AskgraphError('BAD_REQUEST', `config: ${v.name} must be ${kind.expect}, got "${raw}"`);
    let o = out;
    for (const k of v.path.slice(0, -1)) {
      const inner = o[k];
      if (isPlainObject(inner)) o = inner;
      else o = o[k] = {};
    }
    o[itemAt(v.path, -1, `config path of ${v.name}`)] = r.data;
  }
  return out;
}

/** One line per variable of ENV_VARS, with the default taken from the schema. */
export function envHelp(): string {
  const defaults: unknown = parseServeConfig({});
  const at = (p: readonly string[]) => p.reduce<unknown>((o, k) => (isPlainObject(o) ? o[k] : undefined), defaults);
  return ENV_VARS.map((v) => {
    const d = v.path && v.showDefault !== false ? at(v.path) : undefined;
    const shown = d === undefined || (Array.isArray(d) && d.length === 0) ? undefined : typeof d === 'string' || typeof d === 'number' || typeof d === 'boolean' ? String(d) : JSON.stringify(d);
    const help = v.help.includes('%d') ? v.help.replace('%d', shown ?? 'none') : shown !== undefined ? `${v.help}; default ${shown}` : v.help;
    return `  ${v.name} (${help})`;
  }).join('\n');
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
      const before = out[k];
      out[k] = isPlainObject(v) && isPlainObject(before) ? mergeLayers(before, v) : v;
    }
  }
  return out;
}

/** Validates a config object; errors name the offending key. */
export function parseServeConfig(input: unknown): ServeConfig {
  const r = ServeConfigSchema.safeParse(input ?? {});
  if (!r.success) {
    const first = itemAt(r.error.issues, 0, 'issues of a failed config parse');
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
  const file = flags.config ?? envValue(env, 'ASKGRAPH_CONFIG');
  const fromFile = file ? readConfigFile(file) : {};
  return parseServeConfig(mergeLayers(fromFile, configFromEnv(env), configFromFlags(flags)));
}
