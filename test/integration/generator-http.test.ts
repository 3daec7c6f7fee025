/**
 * `--generator <url>`: an OpenAI-compatible chat/completions server writes the forms. The server here is
 * a LOCAL STAND-IN for such a server (a user's fine-tuned LLM behind vLLM / llama.cpp): it answers with
 * fixed lines per question, including forms the decoder could never produce. Everything after it is real:
 * the movies pack in embedded Oxigraph, grounding, compilation, execution, the CLI and the HTTP server.
 */
import { strict as assert } from 'node:assert';
import { loadServeConfig, startServer, type RunningServer } from '../../src/serve';
import { cli } from '../helpers/cli';
import { standInLlm, type StandIn } from '../helpers/stand-in-llm';
import { closeAll } from '../helpers/close-all';

const REPLIES = {
  // a relation the graph does not have (dropped), a misspelt entity (dropped), then a good form
  'who directed Forrest Gump': '1. (JOIN (R director) [ Forrest Gump ])\n2. (JOIN (R directed_by) [ Forest Gump ])\n3. (JOIN (R directed_by) [ Forrest Gump ])',
  'which films did Tom Hanks star in': '(JOIN starred_actors [ Tom Hanks ])',
};

describe('--generator: an OpenAI-compatible server writes the forms (local stand-in LLM server; real store, grounding, CLI and HTTP server)', function () {
  this.timeout(120_000);
  let llm: StandIn;
  before(async () => {
    llm = await standInLlm(REPLIES);
  });
  after(async () => {
    await closeAll(llm);
  });

  it('askgraph ask --generator: forms from the stand-in, held to the graph relations and the question spans, grounded and executed; the trace says what was dropped', async () => {
    const r = await cli(['ask', 'who directed Forrest Gump', '--generator', llm.url, '--generator-model', 'my-llm', '--json']);
    assert.equal(r.code, 0, r.err);
    const a = JSON.parse(r.out);
    assert.deepEqual(a.answers.map((x: { label: string }) => x.label), ['Robert Zemeckis']);
    assert.equal(a.source, 'parser');
    assert.equal(a.form, '(JOIN (R directed_by) [ Forrest Gump ])');
    assert.match(a.groundedForm, /relation\/directed_by>\) <http:\/\/askgraph\.dev\/movies\/entity\/Forrest%20Gump>/);
    assert.match(a.sparql, /^SELECT DISTINCT \?x WHERE/);
    const dropped = a.trace.filter((t: { note?: string }) => (t.note ?? '').startsWith('dropped: '));
    assert.deepEqual(
      dropped.map((t: { beamForm: string; note: string }) => [t.beamForm, t.note]),
      [
        ['(JOIN (R director) [ Forrest Gump ])', 'dropped: relation "director" is not a relation of the graph'],
        ['(JOIN (R directed_by) [ Forest Gump ])', 'dropped: entity "Forest Gump" is not spelled in the question'],
      ],
    );
    assert.ok(a.trace.some((t: { stage: string; outcome: string }) => t.stage === 'execute' && t.outcome === 'answers'));
    // what the stand-in was sent: the model name, the graph's relations, the question
    const req = llm.requests[llm.requests.length - 1]!;
    assert.equal(req.model, 'my-llm');
    assert.match(req.messages[0]!.content, /Relations: .*directed_by.*starred_actors/);
    assert.equal(req.messages[req.messages.length - 1]!.content, 'who directed Forrest Gump');
  });

  it('a question the stand-in cannot answer ends in the fallback readers or an honest no-answer, never a made-up answer', async () => {
    const r = await cli(['ask', 'what is the population of Paris', '--generator', llm.url, '--json', '--fallback', 'off']);
    assert.equal(r.code, 1, r.err); // no answer: exit 1
    const a = JSON.parse(r.out);
    assert.equal(a.source, 'none');
    assert.deepEqual(a.answers, []);
    assert.ok(a.trace.some((t: { stage: string; note?: string }) => t.stage === 'generate' && (t.note ?? '').includes('dropped: does not parse')), JSON.stringify(a.trace));
  });

  it('--generator and --model together are a clear error; an unreachable generator is an ENDPOINT_DOWN error (exit 2), not a crash or "no answer"', async () => {
    const both = await cli(['ask', 'who directed Heat', '--generator', llm.url, '--model', 'store/movies/model']);
    assert.equal(both.code, 2);
    assert.match(both.err, /^askgraph: BAD_REQUEST: give either --model or --generator/);
    const down = await cli(['ask', 'who directed Heat', '--generator', 'http://127.0.0.1:9/v1', '--json', '--fallback', 'off']);
    // the generator being down is an error (exit 2, its code, the failed step), not "no answer" (exit 1)
    assert.equal(down.code, 2, down.err);
    assert.match(down.err, /^askgraph: ENDPOINT_DOWN: /);
    const e = JSON.parse(down.out).error;
    assert.equal(e.code, 'ENDPOINT_DOWN');
    assert.ok(e.details.trace.some((t: { code?: string }) => t.code === 'ENDPOINT_DOWN'), JSON.stringify(e.details));
  });

  it('server config: --generator / --generator-model flags, ASKGRAPH_GENERATOR(_MODEL) environment, validated', () => {
    assert.deepEqual(loadServeConfig({ generator: 'http://127.0.0.1:8000/v1', generatorModel: 'm' }, {}).generator, { url: 'http://127.0.0.1:8000/v1', model: 'm' });
    assert.deepEqual(loadServeConfig({}, { ASKGRAPH_GENERATOR: 'https://llm.example.org', ASKGRAPH_GENERATOR_MODEL: 'x' }).generator, { url: 'https://llm.example.org', model: 'x' });
    assert.equal(loadServeConfig({}, {}).generator, undefined);
    assert.throws(() => loadServeConfig({ generator: 'ftp://x' }, {}), /generator\.url: must be an http\(s\) URL/);
    assert.throws(() => loadServeConfig({ generatorModel: 'm' }, {}), /generator\.url/);
  });

  it('askgraph serve with config generator.url: /v1/ask answers through the stand-in, /healthz names it', async () => {
    let srv: RunningServer | undefined;
    try {
      srv = await startServer({ port: 0, logLevel: 'silent', generator: { url: llm.url, model: 'served-llm' } });
      const res = await fetch(srv.url + '/v1/ask', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ question: 'which films did Tom Hanks star in' }) });
      assert.equal(res.status, 200);
      const a = await res.json();
      assert.ok(a.answers.some((x: { label: string }) => x.label === 'Forrest Gump'), JSON.stringify(a.answers));
      assert.equal(a.form, '(JOIN starred_actors [ Tom Hanks ])');
      const h = await (await fetch(srv.url + '/healthz')).json();
      assert.match(h.model, /^http:http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions#served-llm$/);
      assert.equal(llm.requests[llm.requests.length - 1]!.model, 'served-llm');
    } finally {
      await closeAll(srv);
    }
  });
});
