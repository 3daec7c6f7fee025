import { strict as assert } from 'node:assert';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { openExecutor } from '../../src/execute';
import type { Executor } from '../../src/core';
import type { RunningServer } from '../../src/serve';
import { getJson, standInGateway, startTestServer } from './serve-helpers';

const Q = 'SELECT * WHERE { ?s ?p ?o } LIMIT 1';

async function freePort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('serve: remote SPARQL endpoint down or hanging (stand-in pipeline, REAL endpoint executor)', function () {
  this.timeout(60_000);

  it('endpoint refusing connections → 502 ENDPOINT_DOWN; the server keeps serving', async () => {
    const ex: Executor = await openExecutor(`http://127.0.0.1:${await freePort()}/sparql`);
    const srv: RunningServer = await startTestServer(standInGateway(ex));
    try {
      // generous timeout: the first endpoint call loads Comunica (seconds)
      const r = await getJson(srv.url + '/sparql?timeout=30000&query=' + encodeURIComponent(Q));
      assert.equal(r.status, 502, JSON.stringify(r.body));
      assert.equal(r.body.error.code, 'ENDPOINT_DOWN');
      assert.ok(r.body.error.message.length > 0);
      assert.ok(!/\n\s+at /.test(r.body.error.message), 'no stack');
      assert.equal((await getJson(srv.url + '/healthz')).status, 200);
      const again = await getJson(srv.url + '/sparql?timeout=5000&query=' + encodeURIComponent(Q));
      assert.equal(again.status, 502);
    } finally {
      await srv.close();
      await ex.close();
    }
  });

  it('endpoint that never answers → 504 QUERY_TIMEOUT after ?timeout; /healthz answers meanwhile', async () => {
    const sockets = new Set<import('node:net').Socket>();
    const hang = http.createServer(() => undefined); // accepts, never responds
    hang.on('connection', (s) => sockets.add(s));
    await new Promise<void>((r) => hang.listen(0, '127.0.0.1', r));
    const ex: Executor = await openExecutor(`http://127.0.0.1:${(hang.address() as AddressInfo).port}/sparql`);
    const srv = await startTestServer(standInGateway(ex));
    try {
      const t0 = Date.now();
      const pending = getJson(srv.url + '/sparql?timeout=700&query=' + encodeURIComponent(Q));
      const h = await getJson(srv.url + '/healthz');
      assert.equal(h.status, 200);
      const r = await pending;
      assert.equal(r.status, 504, JSON.stringify(r.body));
      assert.equal(r.body.error.code, 'QUERY_TIMEOUT');
      assert.ok(Date.now() - t0 < 5000);
    } finally {
      await srv.close();
      await ex.close();
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => hang.close(() => r()));
    }
  });
});
