/**
 * FAULT INJECTOR (a stand-in, named so): a loopback HTTP proxy in front of a real SPARQL endpoint that
 * forwards requests unchanged until told to misbehave:
 *  - hang(n): the next n requests get no response at all (the socket stays open until the client gives up);
 *  - truncate({ afterBytes, framing, count }): the upstream's response is cut after `afterBytes` bytes of
 *    body, either by closing the socket short of its Content-Length / chunked framing ('length', a transport
 *    error for the client) or by sending the body close-delimited and ending it cleanly ('close': only the
 *    body's own format shows the cut);
 *  - reset(): back to plain forwarding.
 * It counts requests and the body bytes it forwarded to the client (so a test can see whether a client
 * stopped reading a large body). Loopback only.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TruncateSpec {
  afterBytes: number;
  framing: 'length' | 'close';
  /** How many responses to cut (default: every one until reset()). */
  count?: number;
}

export interface FaultProxy {
  /** The proxy's URL with the target's path and query (e.g. http://127.0.0.1:PORT/sparql?default-graph-uri=…). */
  url: string;
  requests: number;
  /** Body bytes written to clients so far. */
  bytesDown: number;
  hang(n: number): void;
  truncate(spec: TruncateSpec): void;
  reset(): void;
  close(): Promise<void>;
}

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const t = new URL(target);
  let hangs = 0;
  let cut: (TruncateSpec & { left: number }) | undefined;
  const hung = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    proxy.requests++;
    if (hangs > 0) {
      hangs--;
      hung.add(res);
      req.resume();
      res.on('close', () => hung.delete(res));
      return;
    }
    const spec = cut && cut.left > 0 ? cut : undefined;
    if (spec) spec.left--;
    const up = http.request(
      { host: t.hostname, port: t.port, method: req.method, path: req.url, headers: { ...req.headers, host: t.host } },
      (ur) => {
        const headers = { ...ur.headers };
        if (spec?.framing === 'close') {
          delete headers['content-length'];
          delete headers['transfer-encoding'];
          headers.connection = 'close';
          res.useChunkedEncodingByDefault = false;
          res.shouldKeepAlive = false;
        }
        res.writeHead(ur.statusCode ?? 502, headers);
        let sent = 0;
        let cutDone = false;
        ur.on('data', (chunk: Buffer) => {
          if (cutDone) return; // data already buffered when the upstream was destroyed
          if (spec && sent + chunk.length > spec.afterBytes) {
            cutDone = true;
            const part = chunk.subarray(0, Math.max(0, spec.afterBytes - sent));
            sent += part.length;
            proxy.bytesDown += part.length;
            ur.destroy();
            if (spec.framing === 'close') res.end(part);
            else res.write(part, () => res.socket?.destroy());
            return;
          }
          sent += chunk.length;
          proxy.bytesDown += chunk.length;
          // backpressure: read no faster than the client does
          if (!res.write(chunk)) {
            ur.pause();
            res.once('drain', () => ur.resume());
          }
        });
        ur.on('end', () => {
          if (!cutDone && !res.writableEnded) res.end();
        });
        res.on('close', () => ur.destroy());
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const proxy: FaultProxy = {
    url: `http://127.0.0.1:${port}${t.pathname}${t.search}`,
    requests: 0,
    bytesDown: 0,
    hang: (n) => (hangs = n),
    truncate: (spec) => (cut = { ...spec, left: spec.count ?? Number.POSITIVE_INFINITY }),
    reset: () => {
      hangs = 0;
      cut = undefined;
      for (const r of hung) r.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const r of hung) r.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return proxy;
}
