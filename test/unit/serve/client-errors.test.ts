import { strict as assert } from 'node:assert';
import * as http from 'node:http';
import * as net from 'node:net';
import { ERROR_STATUS, type ErrorCode } from '../../../src/core';
import { answerClientErrors } from '../../../src/serve/client-errors';

/** Sends `raw` on a socket and returns everything the server writes until it closes. */
function exchange(port: number, raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1', () => s.write(raw));
    let out = '';
    s.on('data', (d) => (out += d.toString('utf8')));
    s.on('close', () => resolve(out));
    s.on('error', reject);
  });
}

/** Requests refused by Node's HTTP parser: each code answers with its status in core/errors.ts (one table). */
describe('client errors before express (real http.Server, loopback)', function () {
  this.timeout(60_000);
  let server: http.Server;
  let port: number;
  before(async () => {
    server = http.createServer({ requestTimeout: 300, headersTimeout: 300, connectionsCheckingInterval: 50 }, (_req, res) => res.end('ok'));
    answerClientErrors(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as net.AddressInfo).port;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  function parse(resp: string): { status: number; code: ErrorCode } {
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(resp)?.[1]);
    const body = JSON.parse(resp.slice(resp.indexOf('\r\n\r\n') + 4));
    return { status, code: body.error.code };
  }

  it('a request not sent in time is 408 with a code whose status is 408 (REQUEST_TIMEOUT is the server running out of time: 504)', async () => {
    const { status, code } = parse(await exchange(port, 'GET / HTTP/1.1\r\nHost: x\r\n'));
    assert.equal(status, 408);
    assert.equal(code, 'REQUEST_NOT_RECEIVED');
    assert.equal(ERROR_STATUS[code], status);
    assert.equal(ERROR_STATUS.REQUEST_TIMEOUT, 504);
  });

  it('a malformed request is 400 BAD_REQUEST, by the same table', async () => {
    const { status, code } = parse(await exchange(port, 'NOT HTTP AT ALL\r\n\r\n'));
    assert.equal(status, 400);
    assert.equal(ERROR_STATUS[code], status);
  });
});
