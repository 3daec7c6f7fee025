/**
 * `askgraph init` with a base model (askgraph-base, issue 20): zero-shot (`--minutes 0`: the base model copied
 * into the pack, no training), fine-tuning (`--init-from` the base: its tokenizer, open names and size win over
 * --size), and `--no-base-model` (the from-scratch path). The base here is a tiny open-name model trained by the
 * real Python trainer in `before` (its answers are junk: these tests check what the pack is made of and that it
 * opens and answers without error, not accuracy).
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { packageRoot } from '../../src/core';
import { loadPack, verifyPack } from '../../src/execute';
import { clearParserCache } from '../../src/generate';
import { BASE_MODEL_DIR, defaultBaseModel } from '../../src/pack';
import { createGateway } from '../../src/pipeline';
import { train } from '../../src/train';
import { cli } from '../helpers/cli';

const root = packageRoot();
const BOOKS = path.join(root, 'fixtures', 'graphs', 'books.ttl');
const trainFile = path.join(root, 'fixtures', 'train', 'small-train.jsonl');
const validFile = path.join(root, 'fixtures', 'train', 'small-valid.jsonl');

/** Python (onnx, numpy): BASE FULL MIXED → how many float initializers were compared, how many training moved, and the
 *  largest |mixed − (base + full) / 2|. */
const MIDPOINT = `
import sys, json, onnx, numpy as np
from onnx import numpy_helper
b, f, m = sys.argv[1:4]
compared = moved = 0; worst = 0.0
for name in ("encoder.onnx", "decoder.onnx"):
    inits = [{i.name: numpy_helper.to_array(i) for i in onnx.load(d + "/" + name).graph.initializer} for d in (b, f, m)]
    for k, x in inits[2].items():
        if x.dtype.kind != "f":
            continue
        compared += 1
        moved += int(not np.array_equal(inits[0][k], inits[1][k]))
        worst = max(worst, float(np.max(np.abs(x - (inits[0][k] + inits[1][k]) / 2))) if x.size else 0.0)
print(json.dumps({"compared": compared, "moved": moved, "worst": worst}))
`;

const json = (f: string) => JSON.parse(fs.readFileSync(f, 'utf8')) as Record<string, unknown>;
const digest = (f: string) => crypto.createHash('sha256').update(fs.readFileSync(f)).digest('hex');

describe('askgraph init with a base model: zero-shot, fine-tuned, --no-base-model (real trainer)', function () {
  this.timeout(900_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-init-base-'));
  const base = path.join(dir, 'base');
  const init = (out: string, ...args: string[]) => cli(['init', BOOKS, '--out', path.join(dir, out), '--count', '300', '--seed', '2', '--threads', '1', ...args], { ...process.env });

  before(async () => {
    // a tiny open-name model of another graph's questions (movies): relations written as words + </n>
    await train({ data: trainFile, valid: validFile, out: base, size: 'tiny', epochs: 1, seed: 3, probe: 0, beam: 0, finalEval: 5, threads: 1, extraArgs: ['--open-names', '1'] });
    assert.equal(json(path.join(base, 'config.json')).names, 'open');
  });

  after(async () => {
    await clearParserCache();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('--minutes 0 (zero-shot): the base model is copied as the pack\'s parser, untrained, and the pack opens and answers', async () => {
    // a base ships its replay questions for fine-tuning: they are no part of a zero-shot pack's parser
    const withReplay = path.join(dir, 'base-zero');
    fs.cpSync(base, withReplay, { recursive: true });
    fs.copyFileSync(trainFile, path.join(withReplay, 'replay.jsonl'));
    const r = await init('zero', '--minutes', '0', '--base-model', withReplay, '--size', 'small');
    assert.equal(r.code, 0, r.err);
    const pack = path.join(dir, 'zero');
    for (const f of fs.readdirSync(base)) {
      if (!f.startsWith('.')) assert.equal(digest(path.join(pack, 'model', f)), digest(path.join(base, f)), `model/${f} is the base's`);
    }
    assert.equal(fs.existsSync(path.join(pack, 'model', 'replay.jsonl')), false, 'the replay questions are not copied');
    assert.equal(json(path.join(pack, 'model', 'config.json')).names, 'open');
    assert.ok(!fs.existsSync(path.join(pack, 'data', 'training.json')), 'nothing was trained');
    assert.match(r.err, /init: parser: zero-shot \(--minutes 0\)/);
    assert.match(r.err, /--size small is ignored/);
    assert.match(r.err, /init: train done in .*zero-shot/);
    assert.match(r.out, /zero-shot: no training/);
    const { config } = await loadPack(pack);
    assert.equal(config.model, 'model');
    verifyPack(pack, config); // the manifest covers the copied model files
    assert.ok(config.files?.['model/encoder.onnx'] && config.files['model/words.json'], JSON.stringify(config.files));
    assert.match(fs.readFileSync(path.join(pack, 'REPORT.md'), 'utf8'), /base model as it is \(zero-shot/);
    const gw = await createGateway({ store: pack });
    try {
      const a = await gw.ask('who wrote The Salt Garden');
      assert.equal(typeof a.question, 'string');
      assert.ok(Array.isArray(a.answers));
    } finally {
      await gw.close();
    }
  });

  it('with a budget: the parser is fine-tuned from the base (--init-from): its tokenizer, open names and size, not --size; words.json keeps the base\'s words', async () => {
    const r = await init('tuned', '--epochs', '1', '--base-model', base, '--size', 'small');
    assert.equal(r.code, 0, r.err);
    const model = path.join(dir, 'tuned', 'model');
    const got = json(path.join(model, 'config.json'));
    const want = json(path.join(base, 'config.json'));
    assert.equal(got.names, 'open');
    for (const k of ['dModel', 'encoderLayers', 'decoderLayers', 'ffn', 'pieces']) assert.equal(got[k], want[k], k);
    assert.equal(digest(path.join(model, 'tokenizer.model')), digest(path.join(base, 'tokenizer.model')), 'the base tokenizer');
    assert.notEqual(digest(path.join(model, 'encoder.onnx')), digest(path.join(base, 'encoder.onnx')), 'trained further');
    const command = json(path.join(model, 'report.json')).command as string;
    assert.ok(command.includes(`--init-from ${base}`) && !command.includes('--size'), command);
    assert.match(r.err, /init: parser: fine-tuned from the base model/);
    // a word only the base's training questions had is still a known word of the pack's parser
    const synthetic = fs.readFileSync(path.join(dir, 'tuned', 'data', 'train.jsonl'), 'utf8').toLowerCase();
    const baseWords = Object.keys(json(path.join(base, 'words.json')).words as Record<string, number>);
    const onlyBase = baseWords.filter((w) => w.length > 4 && !synthetic.includes(w));
    assert.ok(onlyBase.length > 0);
    const words = json(path.join(model, 'words.json')).words as Record<string, number>;
    for (const w of onlyBase) assert.ok(words[w], w);
    verifyPack(path.join(dir, 'tuned'), (await loadPack(path.join(dir, 'tuned'))).config);
  });

  it('--interpolate: the fine-tuned weights are moved back toward the base\'s (WiSE-FT), and the report says so; refused without fine-tuning', async () => {
    const r = await init('mixed', '--epochs', '1', '--base-model', base, '--interpolate', '0.5');
    assert.equal(r.code, 0, r.err);
    const model = path.join(dir, 'mixed', 'model');
    const report = json(path.join(model, 'report.json'));
    assert.deepEqual(report.interpolate, { share: 0.5, from: base });
    assert.match(fs.readFileSync(path.join(model, 'REPORT.md'), 'utf8'), /Weights: 0\.5 of the way from `[^`]+` to the trained ones/);
    assert.ok((report.command as string).includes('--interpolate 0.5'), report.command as string);
    assert.match(fs.readFileSync(path.join(dir, 'mixed', 'REPORT.md'), 'utf8'), /The parser's weights lie 0\.5 of the way from the base model's to the fine-tuned ones/);
    // the same fine-tuning without --interpolate (one seed, one thread, fixed epochs: the same trained weights): each
    // floating-point weight of the mixed model is the mean of the base's and the fully fine-tuned one's
    const full = await init('mixed-full', '--epochs', '1', '--base-model', base);
    assert.equal(full.code, 0, full.err);
    const check = spawnSync('/usr/bin/python3', ['-c', MIDPOINT, base, path.join(dir, 'mixed-full', 'model'), model], { encoding: 'utf8' });
    assert.equal(check.status, 0, check.stderr);
    const got = JSON.parse(check.stdout) as { compared: number; moved: number; worst: number };
    assert.ok(got.compared > 20 && got.moved > 20, check.stdout);
    assert.ok(got.worst < 1e-5, check.stdout);
    verifyPack(path.join(dir, 'mixed'), (await loadPack(path.join(dir, 'mixed'))).config);
    const refused: [string[], RegExp][] = [
      [['--minutes', '0', '--base-model', base, '--interpolate', '0.5'], /not --minutes 0/],
      [['--epochs', '1', '--no-base-model', '--interpolate', '0.5'], /needs a base model/],
      [['--epochs', '1', '--base-model', base, '--interpolate', '1.5'], /must be a number in \(0, 1\]/],
    ];
    for (const [args, why] of refused) {
      const bad = await init('bad-mix', ...args);
      assert.notEqual(bad.code, 0, args.join(' '));
      assert.match(bad.err, /BAD_REQUEST: --interpolate/);
      assert.match(bad.err, why);
    }
  });

  it('a base with replay.jsonl (other graphs\' questions) has them mixed into each fine-tuning epoch', async () => {
    const withReplay = path.join(dir, 'base-replay');
    fs.cpSync(base, withReplay, { recursive: true });
    fs.copyFileSync(trainFile, path.join(withReplay, 'replay.jsonl'));
    const r = await init('replayed', '--epochs', '1', '--base-model', withReplay);
    assert.equal(r.code, 0, r.err);
    const report = json(path.join(dir, 'replayed', 'model', 'report.json'));
    assert.ok((report.command as string).includes(`--replay ${path.join(withReplay, 'replay.jsonl')}`), report.command as string);
    const data = report.data as Record<string, number>;
    assert.equal(data.replay, fs.readFileSync(trainFile, 'utf8').split('\n').filter((l) => l.trim()).length);
    assert.ok((data.replayPerEpoch ?? 0) > 0, JSON.stringify(data));
    // the replay file is the base's training material, not part of a zero-shot pack's parser
    assert.equal(fs.existsSync(path.join(dir, 'replayed', 'model', 'replay.jsonl')), false);
  });

  it('--no-base-model trains from scratch (closed names, --size honoured), and such a model is refused as a base', async () => {
    const r = await init('scratch', '--epochs', '1', '--size', 'tiny', '--base-model', base, '--no-base-model');
    assert.equal(r.code, 0, r.err);
    const model = path.join(dir, 'scratch', 'model');
    const config = json(path.join(model, 'config.json'));
    assert.equal(config.names, undefined);
    assert.ok((config.relations as string[]).includes('writtenBy'), JSON.stringify(config.relations));
    assert.ok(!(json(path.join(model, 'report.json')).command as string).includes('--init-from'));
    assert.doesNotMatch(r.err, /init: parser: /);

    const closed = await init('closed', '--minutes', '0', '--base-model', model);
    assert.notEqual(closed.code, 0);
    assert.match(closed.err, /BAD_REQUEST: base model .* is not an open-name model/);
    const none = await init('none', '--minutes', '0', '--no-base-model');
    assert.notEqual(none.code, 0);
    assert.match(none.err, /BAD_REQUEST: --minutes 0 \(zero-shot\) needs a base model/);
    const missing = await init('missing', '--minutes', '0', '--base-model', path.join(dir, 'no-such-model'));
    assert.notEqual(missing.code, 0);
    assert.match(missing.err, /NOT_FOUND: no base model folder/);
  });

  it('the default base model is the package\'s assets/askgraph-base when it holds a model', () => {
    const pkg = path.join(dir, 'pkg');
    assert.equal(defaultBaseModel(pkg), undefined);
    fs.mkdirSync(path.join(pkg, BASE_MODEL_DIR), { recursive: true });
    assert.equal(defaultBaseModel(pkg), undefined, 'an empty folder is no model');
    fs.copyFileSync(path.join(base, 'config.json'), path.join(pkg, BASE_MODEL_DIR, 'config.json'));
    assert.equal(defaultBaseModel(pkg), path.join(pkg, BASE_MODEL_DIR));
  });
});
