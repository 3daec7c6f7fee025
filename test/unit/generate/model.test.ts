import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { AskgraphError, packageRoot } from '../../../src/core';
import { main } from '../../../src/cli/main';
import { parseForm } from '../../../src/form';
import { int64Tensor, loadParser, OnnxParser, OnnxSession, SentencePieceTokenizer } from '../../../src/generate';

// The tiny model the trainer exports for tests (real training → export → Node inference path).
// ASKGRAPH_TINY_MODEL may point elsewhere during development; the default is the committed fixture.
const TINY = process.env.ASKGRAPH_TINY_MODEL ?? path.join(packageRoot(), 'fixtures', 'tiny-model');

interface GoldenItem {
  question: string;
  src: number[];
  greedy: number[];
  top5: [number, number][][];
}
const golden = (): GoldenItem[] => JSON.parse(fs.readFileSync(path.join(TINY, 'golden.json'), 'utf8')).items;

const isCode = (code: string) => (e: unknown) => e instanceof AskgraphError && e.code === code;

describe('generate/model: Node inference on the tiny exported model (fixtures/tiny-model)', function () {
  this.timeout(60000);
  let parser: OnnxParser;
  before(async () => {
    parser = await loadParser(TINY);
  });

  it('tokenizer ids equal Python sentencepiece ids (golden.json)', async () => {
    const tok = await SentencePieceTokenizer.load(path.join(TINY, 'tokenizer.model'));
    const items = golden();
    assert.ok(items.length >= 10);
    for (const it of items) assert.deepEqual(tok.encode(it.question), it.src, it.question);
    // and decode of a whole question gives the question back (identity normalisation)
    for (const it of items) assert.equal(tok.decode(it.src), it.question.trim().replace(/\s+/g, ' '));
  });

  it('first decoder steps: Node log-probs equal PyTorch within 1e-3, and unconstrained greedy ids are equal', async () => {
    const V = parser.config.pieces + parser.config.symbols.length;
    for (const it of golden()) {
      const src = parser.sourceIds(it.question);
      const dec = parser.stepDecoder(await parser.encode(src));
      const seq = [parser.config.bos, ...it.greedy];
      const out: number[] = [];
      for (let t = 0; t < it.greedy.length; t++) {
        const lp = await dec.step([seq[t]!], t);
        assert.equal(lp.length, V);
        if (t < it.top5.length) {
          for (const [id, want] of it.top5[t]!) assert.ok(Math.abs(lp[id]! - want) < 1e-3, `${it.question} step ${t} id ${id}: ${lp[id]!} vs ${want}`);
        }
        let best = 0;
        for (let i = 1; i < V; i++) if (lp[i]! > lp[best]!) best = i;
        out.push(best);
        if (best === parser.config.eos) break;
      }
      assert.deepEqual(out, it.greedy.slice(0, out.length), it.question);
    }
  });

  it('beam: k distinct forms, sorted by log-prob, all parse, entity labels copied from the question', async () => {
    for (const it of golden().slice(0, 8)) {
      const r = await parser.generate(it.question, { beam: 4 });
      assert.ok(r.candidates.length >= 1 && r.candidates.length <= 4);
      assert.equal(r.dropped, 0);
      const texts = r.candidates.map((c) => c.text);
      assert.equal(new Set(texts).size, texts.length);
      r.candidates.forEach((c, i) => {
        assert.equal(c.rank, i);
        if (i > 0) assert.ok(r.candidates[i - 1]!.logProb >= c.logProb);
        parseForm(c.text);
        for (const m of c.text.matchAll(/\[ (.*?) \]/g)) assert.ok(it.question.includes(m[1]!), `${m[1]!} not in "${it.question}"`);
      });
    }
  });

  it('greedy is beam 1, and score() of a beam form equals its beam log-prob (teacher forcing)', async () => {
    const q = golden()[0]!.question;
    const g = await parser.generate(q, { beam: 1 });
    assert.equal(g.candidates.length, 1);
    const b = await parser.generate(q, { beam: 4 });
    const forms = [...b.candidates.map((c) => c.text), '(JOIN no_such_relation [ x ])', 'not a form ('];
    const scores = await parser.score(q, forms);
    b.candidates.forEach((c, i) => assert.ok(Math.abs(scores[i]! - c.logProb) < 1e-3, `${c.text}: ${scores[i]!} vs ${c.logProb}`));
    assert.equal(scores[forms.length - 2], -Infinity);
    assert.equal(scores[forms.length - 1], -Infinity);
  });

  it('relation slots admit only a caller-given relation set', async () => {
    const q = golden()[0]!.question;
    const only = parser.config.relations[0]!;
    const r = await parser.generate(q, { beam: 4, relations: [only] });
    for (const c of r.candidates) {
      for (const rel of parser.config.relations) if (rel !== only) assert.ok(!c.text.includes(rel), c.text);
    }
  });

  it('soft graph labels (default): a non-label entity span costs labelPenalty nats, a label span nothing', async () => {
    const it0 = golden()[0]!;
    const words = it0.question.split(' ');
    const label = words.slice(-2).join(' ');
    const other = words.slice(-1).join(' ');
    const soft = await loadParser(TINY, { labels: [label], labelPenalty: 8 });
    const forms = [`(JOIN (R directed_by) [ ${label} ])`, `(JOIN (R directed_by) [ ${other} ])`];
    const [withLabels, without] = [await soft.score(it0.question, forms), await parser.score(it0.question, forms)];
    assert.ok(Math.abs(withLabels[0]! - without[0]!) < 1e-4, `${withLabels[0]!} vs ${without[0]!}`);
    assert.ok(Math.abs(withLabels[1]! - (without[1]! - 8)) < 1e-4, `${withLabels[1]!} vs ${without[1]!} - 8`);
    const r = await soft.generate(it0.question, { beam: 4 });
    for (const c of r.candidates) {
      const sc = await soft.score(it0.question, [c.text]);
      assert.ok(Math.abs(sc[0]! - c.logProb) < 1e-3, `${c.text}: ${sc[0]!} vs ${c.logProb}`);
    }
    await soft.close();
  });

  it('hard graph labels restrict copied spans (given, or read from the pack the model folder sits in)', async () => {
    const it0 = golden()[0]!;
    const words = it0.question.split(' ');
    const label = words.slice(-2).join(' ');
    const p = await loadParser(TINY, { labels: [label.toUpperCase(), 'not in the question'], labelMode: 'hard' });
    assert.equal(p.labelCount, 2);
    const r = await p.generate(it0.question, { beam: 4 });
    assert.ok(r.candidates.length >= 1);
    for (const c of r.candidates) {
      for (const m of c.text.matchAll(/\[ (.*?) \]/g)) assert.equal(m[1], label, c.text);
    }
    assert.equal(parser.labelCount, 0); // fixtures/ holds no pack.json
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-pack-'));
    try {
      fs.writeFileSync(path.join(tmp, 'pack.json'), JSON.stringify({ name: 't', data: ['kb.txt'] }));
      fs.writeFileSync(path.join(tmp, 'kb.txt'), `${label}|directed_by|Some One\nOther|has_genre|Drama\n`);
      fs.mkdirSync(path.join(tmp, 'model'));
      for (const f of fs.readdirSync(TINY)) fs.copyFileSync(path.join(TINY, f), path.join(tmp, 'model', f));
      const pp = await loadParser(path.join(tmp, 'model'), { labelMode: 'hard' });
      assert.equal(pp.labelCount, 4);
      const rr = await pp.generate(it0.question, { beam: 2 });
      for (const c of rr.candidates) for (const m of c.text.matchAll(/\[ (.*?) \]/g)) assert.equal(m[1], label, c.text);
      await pp.close();
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
    await p.close();
  });

  it('loadParser caches per folder and gives an id from config.version and a hash', async () => {
    assert.equal(await loadParser(TINY), parser);
    assert.match(parser.id, new RegExp(`^${parser.config.version.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-[0-9a-f]{12}$`));
  });

  it('onnx: inputs are checked against the declared inputs (MODEL_ERROR with a clear message)', async () => {
    const s = await OnnxSession.open(path.join(TINY, 'encoder.onnx'));
    try {
      assert.deepEqual([...s.inputNames], ['src']);
      await assert.rejects(s.run({ source: int64Tensor([5, 6], [1, 2]) }), (e: unknown) => {
        return isCode('MODEL_ERROR')(e) && (e as Error).message.includes('missing src; unexpected source');
      });
      await assert.rejects(s.run({ src: { type: 'float32', data: new Float32Array(2), dims: [1, 2] } }), (e: unknown) => {
        return isCode('MODEL_ERROR')(e) && (e as Error).message.includes('input "src" has type float32, expected int64');
      });
      await assert.rejects(s.run({ src: int64Tensor([5, 6], [2]) }), (e: unknown) => {
        return isCode('MODEL_ERROR')(e) && (e as Error).message.includes('rank 1, expected rank 2');
      });
      await assert.rejects(s.run({ src: int64Tensor([5, 6, 7], [1, 2]) }), (e: unknown) => {
        return isCode('MODEL_ERROR')(e) && (e as Error).message.includes('3 values for dims [1, 2]');
      });
      const ok = await s.run({ src: int64Tensor([5, 6], [1, 2]) });
      assert.deepEqual(ok.cross_k!.dims.slice(0, 2), [parser.config.decoderLayers, 1]);
    } finally {
      await s.close();
    }
  });

  it('missing model folders or files are MODEL_UNAVAILABLE, a bad config is MODEL_ERROR', async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-model-'));
    try {
      await assert.rejects(loadParser(path.join(tmp, 'nope')), isCode('MODEL_UNAVAILABLE'));
      await assert.rejects(loadParser(tmp), isCode('MODEL_UNAVAILABLE'));
      fs.copyFileSync(path.join(TINY, 'config.json'), path.join(tmp, 'config.json'));
      fs.copyFileSync(path.join(TINY, 'tokenizer.model'), path.join(tmp, 'tokenizer.model'));
      fs.copyFileSync(path.join(TINY, 'encoder.onnx'), path.join(tmp, 'encoder.onnx'));
      await assert.rejects(loadParser(tmp), (e: unknown) => isCode('MODEL_UNAVAILABLE')(e) && (e as Error).message.includes('decoder.onnx'));
      fs.writeFileSync(path.join(tmp, 'config.json'), JSON.stringify({ format: 'something-else' }));
      await assert.rejects(loadParser(tmp), isCode('MODEL_ERROR'));
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('askgraph parse prints the beam (text and --json), and rejects a bad --beam', async () => {
    const run = async (argv: string[]) => {
      const stdout = new PassThrough();
      const stderr = new PassThrough();
      let out = '';
      let err = '';
      stdout.on('data', (d: Buffer) => (out += d.toString()));
      stderr.on('data', (d: Buffer) => (err += d.toString()));
      const code = await main(argv, { stdout, stderr, env: {} });
      return { code, out, err };
    };
    const q = golden()[0]!.question;
    const j = await run(['parse', q, '--model', TINY, '--beam', '3', '--json']);
    assert.equal(j.code, 0, j.err);
    const parsed = JSON.parse(j.out);
    assert.equal(parsed.question, q);
    assert.equal(parsed.model, parser.id);
    assert.ok(parsed.candidates.length >= 1 && parsed.candidates.length <= 3);
    for (const c of parsed.candidates) parseForm(c.form);
    const t = await run(['parse', q, '--model', TINY, '--beam', '2']);
    assert.equal(t.code, 0);
    assert.match(t.out, /^\s+-\d+\.\d{4} {2}\S/);
    const bad = await run(['parse', q, '--model', TINY, '--beam', 'zero']);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /askgraph: BAD_REQUEST: --beam must be a positive integer/);
  });

  it('close() releases the parser and drops it from the cache (the next load opens it again)', async () => {
    const p1 = await loadParser(TINY);
    await p1.close();
    const p2 = await loadParser(TINY);
    assert.notEqual(p2, p1);
    const r = await p2.generate(golden()[0]!.question, { beam: 2 });
    assert.ok(r.candidates.length >= 1);
    parser = p2;
  });
});
