/**
 * The real path: `askgraph train` (Python + torch on CPU) on a 200-question fixture → model folder →
 * Node inference (sentencepiece in WASM + onnxruntime-node + constrained beam search) → forms that parse.
 * Also: Python and Node tokenizer ids agree with the ids the trainer recorded, and the trainer is
 * deterministic given the seed.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { packageRoot } from '../../src/core';
import { main } from '../../src/cli/main';
import { parseForm } from '../../src/form';
import { clearParserCache, loadParser, SentencePieceTokenizer } from '../../src/generate';
import { train } from '../../src/train';
import { validateModel } from '../../src/train/validate';
import { captureIO } from '../helpers/cli';

const root = packageRoot();
const trainFile = path.join(root, 'fixtures', 'train', 'small-train.jsonl');
const validFile = path.join(root, 'fixtures', 'train', 'small-valid.jsonl');

const cliIO = () => captureIO({ ...process.env });

function sha(file: string): string {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

interface Golden {
  items: { question: string; src: number[]; greedy: number[]; top5: [number, number][][] }[];
}

describe('train → export → Node inference (integration, real python + torch)', function () {
  this.timeout(180000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-train-it-'));
  const model = path.join(dir, 'model');

  before(async () => {
    const c = cliIO();
    const code = await main(
      ['train', '--data', trainFile, '--valid', validFile, '--out', model, '--size', 'tiny', '--epochs', '25', '--seed', '3', '--beam', '2', '--probe', '10', '--threads', '2'],
      c.io,
    );
    assert.equal(code, 0, c.err());
    assert.match(c.out(), /written to/);
  });

  after(async () => {
    await clearParserCache();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('writes the model folder per contract', () => {
    for (const f of ['config.json', 'tokenizer.model', 'encoder.onnx', 'decoder.onnx', 'golden.json', 'report.json', 'REPORT.md']) {
      assert.ok(fs.existsSync(path.join(model, f)), f);
    }
    const config = JSON.parse(fs.readFileSync(path.join(model, 'config.json'), 'utf8'));
    assert.equal(config.format, 'askgraph-seq2seq/1');
    for (const s of ['(', ')', '[', ']', 'JOIN', 'R', 'AND', 'COUNT', 'ARGMAX', 'ARGMIN', 'GT', 'GE', 'LT', 'LE', 'TC']) assert.ok(config.symbols.includes(s), s);
    for (const r of config.relations) assert.ok(config.symbols.includes(r), r);
    assert.equal(config.headDim * config.heads, config.dModel);
    const report = JSON.parse(fs.readFileSync(path.join(model, 'report.json'), 'utf8'));
    assert.equal(report.epochs, 25);
    assert.equal(report.data.train, 200);
    assert.equal(report.cacheParity.argmaxEqual, report.cacheParity.n, 'cached decoding = full recomputation');
    assert.ok(report.cacheParity.maxAbsDiff < 1e-3);
    assert.equal(report.validation.n, 30);
    assert.equal(report.validation.probe.constrained.n, 30, 'the PyTorch numbers stay, labelled as a probe');
  });

  it('tokenizer ids: Python sentencepiece and Node agree with the ids the trainer recorded', async () => {
    const golden = JSON.parse(fs.readFileSync(path.join(model, 'golden.json'), 'utf8')) as Golden;
    assert.ok(golden.items.length >= 20);
    const py = spawnSync(
      '/usr/bin/python3',
      ['-c', 'import sys,json,sentencepiece as s; p=s.SentencePieceProcessor(model_file=sys.argv[1]); print(json.dumps([p.encode(q) for q in json.load(sys.stdin)]))', path.join(model, 'tokenizer.model')],
      { input: JSON.stringify(golden.items.map((i) => i.question)), encoding: 'utf8' },
    );
    assert.equal(py.status, 0, py.stderr);
    assert.deepEqual(JSON.parse(py.stdout), golden.items.map((i) => i.src));
    const tok = await SentencePieceTokenizer.load(path.join(model, 'tokenizer.model'));
    for (const it of golden.items) assert.deepEqual(tok.encode(it.question), it.src, it.question);
  });

  it('Node parses questions with the trained model: every beam entry is a valid form', async () => {
    const parser = await loadParser(model);
    const questions = fs
      .readFileSync(validFile, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).question as string);
    let total = 0;
    for (const q of questions.slice(0, 15)) {
      const r = await parser.generate(q, { beam: 4 });
      assert.ok(r.candidates.length > 0, q);
      for (const c of r.candidates) {
        assert.doesNotThrow(() => parseForm(c.text), c.text);
        assert.ok(Number.isFinite(c.logProb) && c.logProb <= 0);
        // entity mentions are copied from the question
        for (const m of c.text.matchAll(/\[ (.*?) \]/g)) assert.ok(q.includes(m[1]!), `${m[1]} not in "${q}"`);
        total++;
      }
    }
    assert.ok(total >= 15);
  });

  it('the reported validation EM is the Node decoder\'s (src/generate), not the PyTorch probe', async function () {
    // 60 epochs of real training: well inside the suite's limit on an idle machine, over it on a loaded one
    this.timeout(600_000);
    // a run that learns something (short warm-up), so that the numbers are not all zero
    const out = path.join(dir, 'node-eval');
    const r = await train({ data: trainFile, valid: validFile, out, size: 'tiny', epochs: 60, seed: 3, beam: 2, probe: 0, threads: 2, extraArgs: ['--warmup', '20'] });
    const v = r.report.validation as { decoder: string; n: number; beam: number; em: number; inBeam: number; node: Record<string, unknown>; probe: { constrained: { em: number } } };
    assert.equal(v.decoder, 'node', JSON.stringify(v));
    assert.equal(v.beam, 2);
    // decode the same 30 validation questions here with the product's decoder: the same numbers
    const node = await validateModel(out, validFile, { beam: 2, limit: 30 });
    assert.equal(node.n, 30);
    assert.ok(node.em !== null && node.em > 0, `the model should answer some questions (Node EM ${node.em})`);
    assert.equal(v.em, node.em, `reported ${v.em}, Node decoder ${node.em}, PyTorch probe ${v.probe.constrained.em}`);
    assert.equal(v.inBeam, node.inBeam);
    assert.deepEqual({ ...v.node, seconds: 0 }, { ...node, seconds: 0 });
    const md = fs.readFileSync(path.join(out, 'REPORT.md'), 'utf8');
    assert.ok(md.includes(`| 30 | 2 | ${(100 * node.em).toFixed(2)}% |`), md.slice(0, 2000));
    assert.match(md, /## Training-time probe \(PyTorch/);
  });

  it('is deterministic given the seed (two short runs, same bytes)', async () => {
    const runs = ['a', 'b'].map((n) => path.join(dir, 'det-' + n));
    for (const out of runs) {
      const c = cliIO();
      const code = await main(['train', '--data', trainFile, '--out', out, '--size', 'tiny', '--epochs', '2', '--max-train', '60', '--seed', '11', '--no-progress'], c.io);
      assert.equal(code, 0, c.err());
    }
    for (const f of ['tokenizer.model', 'encoder.onnx', 'decoder.onnx', 'golden.json']) {
      assert.equal(sha(path.join(runs[0]!, f)), sha(path.join(runs[1]!, f)), f);
    }
  });
});
