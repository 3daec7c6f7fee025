import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { isFailure, LlmReader, parseAnswerList, runChain, type ReaderSuccess } from '../../../src/fallback';
import { ctx, MOVIES, topic } from './helpers';

/** A local node:http stand-in for an OpenAI-compatible endpoint that replies with a fixed content. */
interface ChatRequest {
  messages: { role: string; content: string }[];
}
interface SeenRequest {
  path: string | undefined;
  body: ChatRequest;
  auth: string | undefined;
}

async function standIn(reply: (body: unknown) => string | null): Promise<{ url: string; requests: SeenRequest[]; close: () => Promise<void> }> {
  const requests: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c: Buffer) => (data += c.toString()));
    req.on('end', () => {
      const body: ChatRequest = JSON.parse(data);
      requests.push({ path: req.url, body, auth: req.headers.authorization });
      const content = reply(body);
      if (content === null) return; // hang: never answer
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

describe('LLM reader (local node:http stand-in server for the OpenAI-compatible endpoint)', function () {
  this.timeout(20000);

  it('keeps only answers present in the evidence triples and counts the rest', async () => {
    const s = await standIn(() => '["Robert Zemeckis", "Steven Spielberg", "robert zemeckis"]');
    try {
      const reader = new LlmReader({ url: s.url, model: 'stand-in', apiKey: 'k' });
      const r = (await reader.read(ctx('who directed Cast Away', [topic(MOVIES, 'Cast Away')]))) as ReaderSuccess;
      assert.ok(!isFailure(r));
      assert.deepEqual(r.answers.map((a) => a.label), ['Robert Zemeckis']);
      assert.equal(r.dropped, 1);
      assert.equal(s.requests[0]!.path, '/v1/chat/completions');
      assert.equal(s.requests[0]!.auth, 'Bearer k');
      assert.match(s.requests[0]!.body.messages[1]!.content, /Cast Away \| directed_by \| Robert Zemeckis/);
      // The chain counts the reader's own drops too.
      const chained = await runChain([reader], ctx('who directed Cast Away', [topic(MOVIES, 'Cast Away')]));
      assert.equal(chained.dropped, 1);
      assert.ok((chained.result?.confidence ?? 1) <= 0.3);
    } finally {
      await s.close();
    }
  });

  it('fails as a value when nothing it says is grounded', async () => {
    const s = await standIn(() => 'Steven Spielberg');
    try {
      const r = await new LlmReader({ url: s.url }).read(ctx('who directed Cast Away', [topic(MOVIES, 'Cast Away')]));
      assert.ok(isFailure(r));
      assert.match(r.reason, /no answer present in the evidence \(1 dropped\)/);
    } finally {
      await s.close();
    }
  });

  it('gives up at the time budget when the endpoint hangs', async () => {
    const s = await standIn(() => null);
    try {
      const r = await new LlmReader({ url: s.url }).read(ctx('who directed Cast Away', [topic(MOVIES, 'Cast Away')], { budget: { timeMs: 400, maxQueries: 100, maxTriples: 100000 } }));
      assert.ok(isFailure(r));
      assert.equal(r.exhausted, 'time');
    } finally {
      await s.close();
    }
  });

  it('is not applicable unless configured', async () => {
    assert.deepEqual(await new LlmReader({}).test(ctx('q', [topic(MOVIES, 'Cast Away')])), { reason: 'LLM reader not configured (set ASKGRAPH_LLM_URL)' });
  });

  it('parses JSON arrays and plain lists', () => {
    assert.deepEqual(parseAnswerList('Answer: ["a", "b"]'), ['a', 'b']);
    assert.deepEqual(parseAnswerList('1. a\n- b\nNONE'), ['a', 'b']);
  });
});
