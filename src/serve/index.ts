import type { AddressInfo } from 'node:net';
import * as http from 'node:http';
import { AskgraphError } from '../core';
import pino, { type Logger } from 'pino';
import { createApp, type AskgraphApp } from './app';
import { parseServeConfig, type ServeConfig, type ServeConfigInput } from './config';
import type { ServeGateway } from './gateway';
import { openGateway, OxigraphExecutor } from './stages';
import { answerClientErrors } from './client-errors';

export { createApp, publicDir, type AskgraphApp, type AppOptions } from './app';
export { loadServeConfig, parseServeConfig, configFromEnv, envHelp, ENV_VARS, ServeConfigSchema, type ServeConfig, type ServeConfigInput, type ServeFlags } from './config';
export type { ServeGateway } from './gateway';
export { ServeMetrics } from './metrics';

export interface RunningServer {
  app: AskgraphApp;
  server: http.Server;
  gateway: ServeGateway;
  url: string;
  port: number;
  /** Stops accepting connections, ends idle keep-alive sockets, closes the gateway if we opened it. */
  close(): Promise<void>;
}

/** Listens, or fails with PORT_IN_USE / LISTEN_FAILED (never the raw EADDRINUSE, never a hang). */
async function listen(server: http.Server, port: number, host: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const onError = (e: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
      if (e.code === 'EADDRINUSE') {
        reject(new AskgraphError('PORT_IN_USE', `${where} is already in use by another process; choose another --port (0 = any free port)`, { cause: e }));
      } else if (e.code === 'EACCES') {
        reject(new AskgraphError('LISTEN_FAILED', `no permission to listen on ${where} (ports below 1024 need privileges)`, { cause: e }));
      } else {
        reject(new AskgraphError('LISTEN_FAILED', `cannot listen on ${where}: ${e.code ?? e.message}`, { cause: e }));
      }
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

/**
 * Starts the gateway server: takes the address first (a busy port fails at once, before the store and
 * the model are loaded — requests meanwhile get 503 STORE_UNAVAILABLE with Retry-After), then opens the
 * pipeline's gateway for config.store/model/pack unless one is given (tests pass their own). Port 0 = a
 * free port. Any start-up failure closes what was opened and rejects with a coded error.
 */
export async function startServer(
  config: ServeConfigInput | ServeConfig = {},
  opts: { gateway?: ServeGateway; logger?: Logger; onListening?: (url: string) => void } = {},
): Promise<RunningServer> {
  const cfg = parseServeConfig(config);
  const logger = opts.logger ?? pino({ level: cfg.logLevel, base: { service: 'askgraph' } });
  const ownGateway = !opts.gateway;
  let handler: http.RequestListener = (_req, res) => {
    res.writeHead(503, { 'Content-Type': 'application/json', 'Retry-After': '2' });
    res.end(JSON.stringify({ error: { code: 'STORE_UNAVAILABLE', message: 'askgraph is starting (loading the store and the model)' } }));
  };
  const server = http.createServer((req, res) => handler(req, res));
  answerClientErrors(server);
  await listen(server, cfg.port, cfg.host);
  const port = (server.address() as AddressInfo).port;
  const host = cfg.host.includes(':') ? `[${cfg.host}]` : cfg.host;
  const url = `http://${host}:${port}`;
  opts.onListening?.(url);
  let gateway: ServeGateway | undefined;
  let app: AskgraphApp;
  try {
    gateway = opts.gateway ?? (await openGateway(cfg));
    // user queries (/sparql) get a store process of their own: question answering keeps its capacity
    if (cfg.sparql.isolate && gateway.executor instanceof OxigraphExecutor) await gateway.executor.openUserLane(cfg.sparql.processes);
    app = createApp(gateway, cfg, { logger });
  } catch (e) {
    // a gateway opened here is closed again (its store processes too: e.g. STORE_TOO_LARGE for the user lane)
    if (ownGateway && gateway) await gateway.close().catch(() => undefined);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    throw e;
  }
  handler = app;
  // Slow clients cannot hold a socket forever; the per-request deadline is enforced in the app.
  server.headersTimeout = 20_000;
  server.requestTimeout = cfg.timeouts.requestMs + 5_000;
  server.keepAliveTimeout = 5_000;
  logger.info({ url, store: gateway.executor.id, version: gateway.version }, 'askgraph gateway listening');
  let closed: Promise<void> | undefined;
  return {
    app,
    server,
    gateway,
    url,
    port,
    close: () =>
      (closed ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
        });
        await app.locals.ctx.checker.close();
        if (ownGateway) await gateway.close();
      })()),
  };
}
