/**
 * A LOCAL STAND-IN for an OpenAI-compatible chat/completions server (a user's fine-tuned LLM behind vLLM /
 * llama.cpp) for `--generator <url>`: it answers with fixed lines per question. Everything after it is real.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandIn {
  url: string;
  requests: { model: string; messages: { role: string; content: string }[] }[];
  close(): Promise<void>;
}

/** STAND-IN OpenAI-compatible server: replies[question] = the assistant's text (one form a line). */
export async function standInLlm(replies: Record<string, string>): Promise<StandIn> {
  const requests: StandIn['requests'] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404).end();
        return;
      }
      const b = JSON.parse(body);
      requests.push(b);
      const question = b.messages[b.messages.length - 1].content as string;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: replies[question] ?? 'I do not know.' }, finish_reason: 'stop' }] }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

