/**
 * STAND-IN LOAD BALANCER (named so): a loopback HTTP proxy that sends request i to target i mod n (round
 * robin, as nginx's default upstream does), appends the client's address to X-Forwarded-For and sets
 * X-Forwarded-Proto as nginx's `proxy_set_header` lines of docs/deployment.md do, and streams bodies both
 * ways unchanged. It records which target answered each request. Loopback only.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RoundRobin {
  url: string;
  /** Index of the target of each request so far, in order. */
  routed: number[];
  close(): Promise<void>;
}

export async function startRoundRobin(targets: string[]): Promise<RoundRobin> {
  const routed: number[] = [];
  let next = 0;
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((req, res) => {
    const i = next++ % targets.length;
    routed.push(i);
    const target = new URL(targets[i] ?? '');
    const headers = { ...req.headers };
    const prior = req.headers['x-forwarded-for'];
    headers['x-forwarded-for'] = (prior ? `${String(prior)}, ` : '') + (req.socket.remoteAddress ?? '');
    headers['x-forwarded-proto'] = 'http';
    const up = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers, agent }, (ur) => {
      res.writeHead(ur.statusCode ?? 502, ur.headers);
      ur.pipe(res);
    });
    up.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(up);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    routed,
    close: () =>
      new Promise<void>((r) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
