import pino from 'pino';
import { envHelp, loadServeConfig, startServer, type RunningServer, type ServeFlags } from '../../serve';
import { writeLine } from '../io';
import type { RegisterCommand } from './index';

const ENV_HELP = `
Configuration (lowest precedence first): defaults < JSON file (--config FILE or ASKGRAPH_CONFIG)
< environment < flags. The file holds the same keys as the schema, e.g.
  {"port": 8080, "apiKeys": ["…"], "rateLimit": {"perMinute": 600, "burst": 60},
   "cors": {"origins": ["https://qa.example.org"]}, "cache": {"max": 1000, "ttlMs": 300000},
   "generator": {"url": "http://127.0.0.1:8000/v1", "model": "my-finetuned-llm"},
   "limits": {"bodyBytes": 65536, "questionChars": 1000},
   "timeouts": {"requestMs": 30000, "queryMs": 10000, "maxQueryMs": 60000},
   "concurrency": {"asks": <cores, at least 2>, "queue": 1024}, "logLevel": "info",
   "sparql": {"perClient": 4, "maxRows": 10000, …}}
Environment (an empty value counts as unset):
${envHelp()}
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
