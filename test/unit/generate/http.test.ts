import { strict as assert } from 'node:assert';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AskgraphError } from '../../../src/core';
import { HttpGenerator, splitCandidates } from '../../../src/generate';

type Handler = (body: Record<string, unknown>, req: http.IncomingMessage, res: http.ServerResponse) => void;

/** A local stand-in for an OpenAI-compatible server on 127.0.0.1, answering with whatever the test says. */
async function standIn(handler: Handler): Promise<{ url: string; requests: Record<string, unknown>[]; close: () => Promise<void> }> {
  const requests: Record<string, unknown>[] = [];
  const server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c: Buffer) => (data += c.toString()));
    req.on('end', () => {
      const body = data ? JSON.parse(data) : {};
      requests.push({ ...body, _path: req.url, _auth: req.headers.authorization });
      handler(body, req, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const reply = (res: http.ServerResponse, choices: unknown[]): void => {
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ id: 'x', object: 'chat.completion', choices }));
};
const msg = (content: string, logprobs?: number[]) => ({
  index: 0,
  message: { role: 'assistant', content },
  finish_reason: 'stop',
  ...(logprobs ? { logprobs: { content: logprobs.map((lp) => ({ token: 't', logprob: lp })) } } : {}),
});

describe('generate/http: HttpGenerator against a local stand-in OpenAI-compatible server', () => {
  it('(local stand-in server) asks for k forms as lines, parses them, drops and counts unparseable ones', async () => {
    const srv = await standIn((_b, _q, res) =>
      reply(res, [msg('1. (JOIN (R directed_by) [ Forrest Gump ])\n- (JOIN directed_by [ Forrest Gump ]\n`(JOIN written_by [ Forrest Gump ])`\nSure! here you go')]),
    );
    try {
      const g = new HttpGenerator({ url: srv.url, model: 'llama', apiKey: 'k1', env: {} });
      const r = await g.generate('who directed Forrest Gump', { beam: 4 });
      assert.deepEqual(
        r.candidates.map((c) => c.text),
        ['(JOIN (R directed_by) [ Forrest Gump ])', '(JOIN written_by [ Forrest Gump ])'],
      );
      assert.equal(r.dropped, 2);
      assert.deepEqual(r.candidates.map((c) => c.rank), [0, 1]);
      assert.ok(r.candidates[0]!.logProb > r.candidates[1]!.logProb);
      const req = srv.requests[0]!;
      assert.equal(req._path, '/v1/chat/completions');
      assert.equal(req._auth, 'Bearer k1');
      assert.equal(req.model, 'llama');
      assert.equal(req.n, undefined);
      assert.match(JSON.stringify(req.messages), /4 most likely/);
      assert.equal(g.droppedTotal, 2);
    } finally {
      await srv.close();
    }
  });

  it('(local stand-in server) n mode: n=k choices, ranked by returned log-probs, duplicates merged', async () => {
    const srv = await standIn((b, _q, res) => {
      assert.equal(b.n, 3);
      reply(res, [
        msg('(JOIN starred_actors [ Tom Hanks ])', [-0.5, -0.7]),
        msg('(JOIN (R directed_by) [ Forrest Gump ])', [-0.1]),
        msg('(JOIN (R  directed_by)   [ Forrest Gump ])', [-0.2]),
      ]);
    });
    try {
      const g = new HttpGenerator({ url: srv.url + '/v1', mode: 'n', env: {} });
      const r = await g.generate('Tom Hanks or Forrest Gump', { beam: 3 });
      assert.deepEqual(r.candidates.map((c) => c.text), ['(JOIN (R directed_by) [ Forrest Gump ])', '(JOIN starred_actors [ Tom Hanks ])']);
      assert.ok(Math.abs(r.candidates[0]!.logProb - -0.1) < 1e-9);
      assert.ok(Math.abs(r.candidates[1]!.logProb - -1.2) < 1e-9);
      assert.equal(r.dropped, 0);
      assert.equal(srv.requests[0]?._path, '/v1/chat/completions');
    } finally {
      await srv.close();
    }
  });

  it('(local stand-in server) holds forms to the decoder\'s rules: graph relations only, entities spelled in the question; says why it dropped one', async () => {
    const srv = await standIn((_b, _q, res) =>
      reply(res, [msg('(JOIN (R director) [ Forrest Gump ])\n(JOIN (R directed_by) [ Forest Gump ])\n(JOIN (R directed_by) [ forrest gump ])\n(JOIN (R directed_by')]),
    );
    try {
      const g = new HttpGenerator({ url: srv.url, env: {}, relations: ['directed_by', 'starred_actors'] });
      const r = await g.generate('who directed Forrest Gump', { beam: 4 });
      assert.deepEqual(r.candidates.map((c) => c.text), ['(JOIN (R directed_by) [ forrest gump ])']);
      assert.equal(r.dropped, 3);
      assert.deepEqual(
        r.rejected!.map((x) => x.reason.replace(/:.*$/, '')),
        ['relation "director" is not a relation of the graph', 'entity "Forest Gump" is not spelled in the question', 'does not parse'],
      );
      assert.match(JSON.stringify(srv.requests[0]?.messages), /Relations: directed_by, starred_actors/);
      // copyEntities: false lets a reworded entity through (grounding then decides)
      const free = await new HttpGenerator({ url: srv.url, env: {}, relations: ['directed_by'], copyEntities: false }).generate('who directed Forrest Gump', { beam: 4 });
      assert.equal(free.candidates.length, 2);
    } finally {
      await srv.close();
    }
  });

  it('reads the endpoint from ASKGRAPH_LLM_URL / _MODEL / _KEY (local stand-in server)', async () => {
    const srv = await standIn((_b, _q, res) => reply(res, [msg('[ Forrest Gump ]')]));
    try {
      const g = new HttpGenerator({ env: { ASKGRAPH_LLM_URL: srv.url, ASKGRAPH_LLM_MODEL: 'm2', ASKGRAPH_LLM_KEY: 'sekret' } });
      assert.match(g.id, /^http:http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions#m2$/);
      const r = await g.generate('tell me about forrest  gump', { beam: 1 });
      assert.equal(r.candidates[0]?.text, '[ Forrest Gump ]');
      assert.equal(srv.requests[0]?._auth, 'Bearer sekret');
      assert.throws(() => new HttpGenerator({ env: {} }), (e: unknown) => e instanceof AskgraphError && e.code === 'BAD_REQUEST');
    } finally {
      await srv.close();
    }
  });

  it('HTTP errors and non-JSON replies are ENDPOINT_ERROR (local stand-in server)', async () => {
    const srv = await standIn((b, _q, res) => {
      if (b.model === 'broken') {
        res.statusCode = 500;
        res.end('model exploded');
      } else res.end('<html>not json</html>');
    });
    try {
      await assert.rejects(new HttpGenerator({ url: srv.url, model: 'broken', env: {} }).generate('q'), (e: unknown) => {
        return e instanceof AskgraphError && e.code === 'ENDPOINT_ERROR' && e.message.includes('HTTP 500: model exploded');
      });
      await assert.rejects(new HttpGenerator({ url: srv.url, env: {} }).generate('q'), (e: unknown) => {
        return e instanceof AskgraphError && e.code === 'ENDPOINT_ERROR' && e.message.includes('not JSON');
      });
    } finally {
      await srv.close();
    }
  });

  it('a server that does not answer in time, or is not there, is ENDPOINT_DOWN (local stand-in server)', async () => {
    const srv = await standIn(() => {
      /* never answers */
    });
    const url = srv.url;
    try {
      const t0 = Date.now();
      await assert.rejects(new HttpGenerator({ url, timeoutMs: 200, env: {} }).generate('q'), (e: unknown) => {
        return e instanceof AskgraphError && e.code === 'ENDPOINT_DOWN' && e.message.includes('within 200 ms');
      });
      assert.ok(Date.now() - t0 < 5000);
    } finally {
      await srv.close();
    }
    // the port is closed now: connection refused
    await assert.rejects(new HttpGenerator({ url, timeoutMs: 2000, env: {} }).generate('q'), (e: unknown) => {
      return e instanceof AskgraphError && e.code === 'ENDPOINT_DOWN';
    });
  });

  it('splitCandidates strips list markers, fences and backticks', () => {
    assert.deepEqual(splitCandidates('```\n1) (COUNT [ a ])\n* `[ b ]`\n\n```'), ['(COUNT [ a ])', '[ b ]']);
  });
});
