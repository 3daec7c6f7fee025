import type { AddressInfo } from 'node:net';
import type * as http from 'node:http';
import pino, { type Logger } from 'pino';
import { createApp, type AskgraphApp } from './app';
import { parseServeConfig, type ServeConfig, type ServeConfigInput } from './config';
import type { ServeGateway } from './gateway';
import { openGateway, OxigraphExecutor } from './stages';
import { answerClientErrors } from './client-errors';

export { createApp, publicDir, type AskgraphApp, type AppOptions } from './app';
export { loadServeConfig, parseServeConfig, configFromEnv, ServeConfigSchema, type ServeConfig, type ServeConfigInput, type ServeFlags } from './config';
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

/**
 * Starts the gateway server: opens the pipeline's gateway for config.store/model/pack unless one is
 * given (tests pass their own), and listens on config.host:config.port (port 0 = a free port).
 */
export async function startServer(
  config: ServeConfigInput | ServeConfig = {},
  opts: { gateway?: ServeGateway; logger?: Logger } = {},
): Promise<RunningServer> {
  const cfg = parseServeConfig(config);
  const logger = opts.logger ?? pino({ level: cfg.logLevel, base: { service: 'askgraph' } });
  const ownGateway = !opts.gateway;
  const gateway = opts.gateway ?? (await openGateway(cfg));
  // user queries (/sparql) get a store process of their own: question answering keeps its capacity
  if (cfg.sparql.isolate && gateway.executor instanceof OxigraphExecutor) await gateway.executor.openUserLane(cfg.sparql.processes);
  const app = createApp(gateway, cfg, { logger });
  const server = app.listen(cfg.port, cfg.host);
  answerClientErrors(server);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  // Slow clients cannot hold a socket forever; the per-request deadline is enforced in the app.
  server.headersTimeout = 20_000;
  server.requestTimeout = cfg.timeouts.requestMs + 5_000;
  server.keepAliveTimeout = 5_000;
  const port = (server.address() as AddressInfo).port;
  const host = cfg.host.includes(':') ? `[${cfg.host}]` : cfg.host;
  const url = `http://${host}:${port}`;
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
