import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Answer, AnswerItem } from '../../../src/core';
import { noAnswer, packageRoot } from '../../../src/core';
import { markdownReport, pipelineRunner, readExamples, runExamples, sampleExamples, summarize, type Example } from '../../../src/eval';
import { cli } from '../../helpers/cli';

const item = (label: string): AnswerItem => ({ value: 'http://x/e/' + encodeURIComponent(label), label, type: 'uri' });

function answer(question: string, p: Partial<Answer>): Answer {
  return { ...noAnswer(question), ...p };
}

const GOLD = '(JOIN (R directed_by) [ Forrest Gump ])';
const examples: Example[] = [
  { id: 'a', question: 'who directed Forrest Gump', form: GOLD, answers: ['Robert Zemeckis'], meta: { dataset: 't', hop: 1, qtype: 'movie_to_director' } },
  { id: 'b', question: 'who wrote Forrest Gump', form: '(JOIN (R written_by) [ Forrest Gump ])', answers: ['Eric Roth', 'Winston Groom'], meta: { dataset: 't', hop: 1, qtype: 'movie_to_writer' } },
  { id: 'c', question: 'who acted in films directed by X', form: '(JOIN (R starred_actors) (JOIN directed_by (JOIN (R directed_by) [ X ])))', answers: ['A'], meta: { dataset: 't', hop: 3, qtype: 'm_d_m_a' } },
  { id: 'd', question: 'boom', form: GOLD, answers: ['Robert Zemeckis'], meta: { dataset: 't', hop: 1, qtype: 'movie_to_director' } },
];

/** A stand-in for the pipeline's gateway with canned answers (mock gateway). */
const mockGateway = {
  seen: [] as unknown[],
  ask(question: string, opts?: unknown): Promise<Answer> {
    this.seen.push(opts);
    if (question === 'boom') return Promise.reject(Object.assign(new Error('store down'), { code: 'STORE_UNAVAILABLE' }));
    if (question.startsWith('who directed'))
      return Promise.resolve(answer(question, {
        answers: [item('Robert Zemeckis')],
        form: GOLD,
        source: 'parser',
        confidence: 0.92,
        beam: [{ form: GOLD, logProb: -0.1 }],
        trace: [{ stage: 'execute', outcome: 'answers', timeMs: 3 }],
        timings: { generate: 10, ground: 5, execute: 3, fallback: 0, total: 18 },
      }));
    if (question.startsWith('who wrote'))
      // top form has the wrong relation; the gold form is second in the beam; answers: one right, one wrong, wrong one first
      return Promise.resolve(answer(question, {
        answers: [item('Tom Hanks'), item('eric  ROTH')],
        form: '(JOIN (R starred_actors) [ Forrest Gump ])',
        source: 'parser',
        beam: [{ form: '(JOIN (R starred_actors) [ Forrest Gump ])', logProb: -0.5 }, { form: '(JOIN (R written_by) [ Forrest Gump ])', logProb: -0.9 }],
        trace: [{ stage: 'execute', outcome: 'answers', timeMs: 2 }],
        timings: { generate: 10, ground: 5, execute: 2, fallback: 0, total: 17 },
      }));
    // wrong skeleton, nothing executes, a fallback reader answers correctly
    return Promise.resolve(answer(question, {
      answers: [item('A')],
      source: 'fallback:paths',
      beam: [{ form: '(JOIN (R starred_actors) [ X ])', logProb: -1 }],
      trace: [{ stage: 'execute', outcome: 'empty', timeMs: 1 }, { stage: 'fallback', reader: 'paths', outcome: 'answers', timeMs: 40 }],
      timings: { generate: 10, ground: 5, execute: 1, fallback: 40, total: 56 },
    }));
  },
};

describe('eval runner (mock gateway)', () => {
  it('scores answers and forms per example, and explains failures', async () => {
    const { results } = await runExamples(examples, pipelineRunner(mockGateway, { beam: 3, noParser: false }), { mode: 'pipeline' });
    assert.deepEqual(mockGateway.seen[0], { beam: 3, noParser: false }, 'ask options pass through unchanged');
    const [a, b, c, d] = results;
    assert.ok(a && b && c && d, 'four results');
    assert.deepEqual([a.scores.f1, a.scores.hits1, a.em, a.bm, a.sm, a.executable, a.fallback, a.failure], [1, 1, true, true, true, true, false, undefined]);
    // b: P = 1/2, R = 1/2, F1 = 1/2; first answer wrong → Hits@1 0, Hit 1
    assert.deepEqual([b.scores.f1, b.scores.hits1, b.scores.hit, b.scores.acc], [0.5, 0, 1, 0]);
    assert.deepEqual([b.em, b.bm, b.sm], [false, true, true]);
    assert.match(b.failure!, /^relation error \(gold form is in the beam\); wrong answers \(partial: F1 0\.50/);
    assert.deepEqual([c.scores.acc, c.em, c.sm, c.fallback, c.executable], [1, false, false, true, true]);
    assert.equal(c.failure, undefined, 'a right answer is not a failure, whoever gave it');
    assert.deepEqual([d.noAnswer, d.scores.f1, d.executable], [true, 0, false]);
    assert.deepEqual([a.confidence, d.confidence], [0.92, 0], "each example carries its answer's confidence");
    assert.match(d.failure!, /no answer — execute: STORE_UNAVAILABLE/);
  });

  it('summarises: macro averages, rates, latency, breakdowns, markdown with failures', async () => {
    const { results } = await runExamples(examples, pipelineRunner(mockGateway), { mode: 'pipeline' });
    const s = summarize(results, 2000, 'pipeline', 't.jsonl');
    assert.equal(s.count, 4);
    assert.equal(s.f1, (1 + 0.5 + 1 + 0) / 4);
    assert.equal(s.hits1, (1 + 0 + 1 + 0) / 4);
    assert.equal(s.hit, (1 + 1 + 1 + 0) / 4);
    assert.equal(s.acc, 2 / 4);
    assert.equal(s.em, 1 / 4);
    assert.equal(s.bm, 2 / 4);
    assert.equal(s.sm, 2 / 4);
    assert.equal(s.fallback, 1 / 4);
    assert.equal(s.noAnswer, 1 / 4);
    assert.equal(s.qps, 2);
    assert.deepEqual(Object.keys(s.byHop), ['1', '3']);
    assert.equal(s.byHop['1']!.count, 3);
    assert.equal(s.byType.movie_to_director!.acc, 0.5);
    assert.equal(s.stages.fallback.mean, 10);
    const md = markdownReport(s, results);
    assert.match(md, /## Failures \(2\)/);
    assert.match(md, /\| b \| who wrote Forrest Gump \|/);
    assert.match(md, /Hits@1\*\*: the first-ranked predicted answer is in the gold set/);
  });

  it('--no-parser: form metrics and the executable rate do not apply', async () => {
    const { results } = await runExamples(examples.slice(2, 3), pipelineRunner(mockGateway, { noParser: true }), { mode: 'pipeline', noParser: true });
    assert.deepEqual([results[0]!.em, results[0]!.bm, results[0]!.sm, results[0]!.executable, results[0]!.fallback], [null, null, null, null, true]);
    const s = summarize(results, 100, 'pipeline', 't');
    assert.deepEqual([s.em, s.bm, s.sm, s.executable, s.fallback], [null, null, null, null, 1]);
  });

  it('seeded samples are deterministic and keep the original order', () => {
    const xs = Array.from({ length: 100 }, (_, i) => i);
    const s1 = sampleExamples(xs, 10, 7);
    assert.deepEqual(s1, sampleExamples(xs, 10, 7));
    assert.notDeepEqual(s1, sampleExamples(xs, 10, 8));
    assert.deepEqual([...s1].sort((p, q) => p - q), s1);
    assert.equal(new Set(s1).size, 10);
  });
});


describe('askgraph eval --oracle on the committed PathQuestion pack (real store)', function () {
  this.timeout(120000);
  const root = packageRoot();
  const data = path.join(root, 'fixtures', 'pathquestion', 'pq-2h.jsonl');
  const store = path.join(root, 'fixtures', 'pathquestion', 'pq-2h');

  it('prints one JSON object with every field; gold forms reproduce the gold answers', async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-eval-'));
    const r = await cli(['eval', '--dataset', data, '--store', store, '--oracle', '--keep-topic', '--sample', '40', '--seed', '3', '--json',
      '--markdown', path.join(tmp, 'r.md'), '--predictions', path.join(tmp, 'p.jsonl')]);
    assert.equal(r.code, 0, r.err);
    const s = JSON.parse(r.out);
    for (const k of ['count', 'f1', 'hits1', 'hit', 'acc', 'em', 'bm', 'sm', 'executable', 'fallback', 'noAnswer', 'latency', 'qps', 'byType']) assert.ok(k in s, k);
    assert.equal(s.count, 40);
    assert.equal(s.f1, 1);
    assert.equal(s.acc, 1);
    assert.equal(s.em, null, 'form metrics do not apply to the oracle');
    assert.equal(s.executable, 1);
    assert.ok(s.latency.p50 <= s.latency.p95 && s.latency.p95 <= s.latency.max);
    const md = fs.readFileSync(path.join(tmp, 'r.md'), 'utf8');
    assert.match(md, /## By hop/);
    assert.match(md, /askgraph eval .*--keep-topic/, 'the report names the command');
    assert.ok(!/--parser|--no-parser/.test(md), 'defaults the user did not give are not in the command line');
    const preds = readExamplesLike(path.join(tmp, 'p.jsonl'));
    assert.equal(preds.length, 40);
    // the predictions file diffs cleanly against the gold forms it came from
    const d = await cli(['diff', path.join(tmp, 'p.jsonl'), path.join(tmp, 'p.jsonl')]);
    assert.equal(d.code, 0);
  });

  it('without --keep-topic, answers equal to the topic are excluded (the MetaQA convention)', async () => {
    const all = readExamples(data);
    const cyclic = all.filter((e) => e.topic && e.answers.length === 1 && e.answers[0] === e.topic[0]).slice(0, 3);
    assert.ok(cyclic.length > 0, 'PQ-2H has questions whose answer is the topic');
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-eval-'));
    const file = path.join(tmp, 'cyclic.jsonl');
    fs.writeFileSync(file, cyclic.map((e) => JSON.stringify(e)).join('\n') + '\n');
    const r = await cli(['eval', '--dataset', file, '--store', store, '--oracle', '--json']);
    assert.equal(r.code, 0, r.err);
    assert.equal(JSON.parse(r.out).noAnswer, 1);
  });

  it('bad flags exit 2 with one error line', async () => {
    const r = await cli(['eval', '--dataset', data, '--limit', 'x']);
    assert.equal(r.code, 2);
    assert.match(r.err, /^askgraph: BAD_REQUEST: --limit must be a non-negative integer/);
  });
});

function readExamplesLike(file: string): unknown[] {
  return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
}
