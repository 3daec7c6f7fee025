import pino from 'pino';
import { loadServeConfig, parseServeConfig, startServer, type RunningServer, type ServeFlags } from '../../serve';
import { writeLine } from '../io';
import type { RegisterCommand } from './index';

const SPARQL_DEFAULTS = parseServeConfig({}).sparql;

const ENV_HELP = `
Configuration (lowest precedence first): defaults < JSON file (--config FILE or ASKGRAPH_CONFIG)
< environment < flags. The file holds the same keys as the schema, e.g.
  {"port": 8080, "apiKeys": ["…"], "rateLimit": {"perMinute": 600, "burst": 60},
   "cors": {"origins": ["https://qa.example.org"]}, "cache": {"max": 1000, "ttlMs": 300000},
   "generator": {"url": "http://127.0.0.1:8000/v1", "model": "my-finetuned-llm"},
   "limits": {"bodyBytes": 65536, "questionChars": 1000},
   "timeouts": {"requestMs": 30000, "queryMs": 10000, "maxQueryMs": 60000},
   "concurrency": {"asks": <cores, at least 2>, "queue": 1024}, "logLevel": "info"}
Environment: ASKGRAPH_PORT, ASKGRAPH_HOST, ASKGRAPH_STORE, ASKGRAPH_MODEL, ASKGRAPH_PACK,
  ASKGRAPH_GENERATOR (URL of an OpenAI-compatible server), ASKGRAPH_GENERATOR_MODEL, ASKGRAPH_LLM_KEY (its bearer token),
  ASKGRAPH_API_KEYS (comma-separated), ASKGRAPH_CORS_ORIGINS (comma-separated, * = any),
  ASKGRAPH_RATE_LIMIT_PER_MINUTE (0 = off), ASKGRAPH_RATE_LIMIT_BURST, ASKGRAPH_CACHE_MAX (0 = off),
  ASKGRAPH_CACHE_TTL_MS, ASKGRAPH_CACHE_MAX_BYTES, ASKGRAPH_BODY_LIMIT_BYTES, ASKGRAPH_QUESTION_MAX_CHARS,
  ASKGRAPH_REQUEST_TIMEOUT_MS, ASKGRAPH_QUERY_TIMEOUT_MS, ASKGRAPH_MAX_QUERY_TIMEOUT_MS,
  ASKGRAPH_CONCURRENCY (questions in the pipeline at once), ASKGRAPH_QUEUE (waiting; beyond: 503), ASKGRAPH_LOG_LEVEL.
SPARQL endpoint (/sparql, config key "sparql"): ASKGRAPH_SPARQL_PER_CLIENT (queries of one client — API
  key, or address without keys — in the store at once; default ${SPARQL_DEFAULTS.perClient}), ASKGRAPH_SPARQL_PER_CLIENT_QUEUE (more
  that wait their turn; default ${SPARQL_DEFAULTS.perClientQueue}; beyond: 429 with Retry-After), ASKGRAPH_SPARQL_MAX_ROWS (rows or
  triples sent back; default ${SPARQL_DEFAULTS.maxRows}; more are cut there, with header X-SPARQL-MaxRows),
  ASKGRAPH_SPARQL_MAX_RESULT_BYTES, ASKGRAPH_SPARQL_ALLOW_SERVICE, ASKGRAPH_SPARQL_ALLOW_DATASET,
  ASKGRAPH_SPARQL_ISOLATE, ASKGRAPH_SPARQL_PROCESSES.
Logs: JSON lines (pino) on stdout, one per request at info with request id, route, status, duration
and question length; question text only at debug.`;

/**
 * `askgraph serve`: the HTTP gateway (API, SPARQL endpoint, web inspector) until SIGINT/SIGTERM.
 * The action resolves when the server has shut down, so `main` returns normally.
 */
export const register: RegisterCommand = (program, io) => {
  program
    .command('serve')
    .description('serve the HTTP API, the read-only SPARQL endpoint and the web inspector')
    .option('--port <n>', 'port (default 8080; 0 = any free port)')
    .option('--host <addr>', 'address to listen on (default 127.0.0.1)')
    .option('--store <dir|url>', 'pack dir, store dir / snapshot, or SPARQL endpoint URL (default: the embedded movies store)')
    .option('--model <dir>', 'parser model folder (default: the pack\'s model)')
    .option('--pack <dir>', 'knowledge pack folder (pack.json)')
    .option('--generator <url>', 'an OpenAI-compatible chat/completions server that writes the forms instead of the parser model')
    .option('--generator-model <name>', 'model name sent to --generator (default "default")')
    .option('--config <file>', 'JSON config file')
    .option('--log-level <level>', 'fatal|error|warn|info|debug|trace|silent')
    .addHelpText('after', ENV_HELP)
    .action(async (opts: ServeFlags) => {
      const config = loadServeConfig(opts, io.env);
      // request logs go to the command's stdout (JSON lines), messages for people to stderr; library boundary:
      // pino wants its DestinationStream type, which a Node Writable satisfies at run time (write(string))
      const logger = pino({ level: config.logLevel, base: { service: 'askgraph' } }, io.stdout as unknown as pino.DestinationStream);
      const server: RunningServer = await startServer(config, {
        logger,
        onListening: (url) => writeLine(io.stderr, `askgraph: listening on ${url}; loading the store and the model…`),
      });
      writeLine(io.stderr, `askgraph: serving ${server.url} (store ${server.gateway.executor.id}); inspector at ${server.url}/`);
      await new Promise<void>((resolve) => {
        const stop = () => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          void server.close().then(resolve, resolve);
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
    });
};
