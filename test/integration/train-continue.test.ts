/**
 * Continued training from an exported model folder (`askgraph train --init-from <model dir>`): the weights are
 * recovered from the ONNX files (train/askgraph_recover.py) and must reproduce every exported initializer, and a
 * continued run must start from them (its first-epoch loss is far below a fresh model's).
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { packageRoot } from '../../src/core';
import { main } from '../../src/cli/main';
import { captureIO } from '../helpers/cli';

const root = packageRoot();
const trainFile = path.join(root, 'fixtures', 'train', 'small-train.jsonl');
const validFile = path.join(root, 'fixtures', 'train', 'small-valid.jsonl');

async function train(args: string[]): Promise<void> {
  const c = captureIO({ ...process.env });
  const code = await main(['train', '--data', trainFile, '--valid', validFile, '--size', 'tiny', '--seed', '3', '--probe', '0', '--beam', '0', '--threads', '2', ...args], c.io);
  assert.equal(code, 0, c.err());
}

/** The mean training loss of the first epoch (report.json history). */
function firstLoss(model: string): number {
  const rep = JSON.parse(fs.readFileSync(path.join(model, 'report.json'), 'utf8')) as { history: { loss: number }[] };
  return rep.history[0]!.loss;
}

describe('continued training from an exported model folder (integration, real python + torch)', function () {
  this.timeout(240000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-continue-it-'));
  const first = path.join(dir, 'first');
  const fresh = path.join(dir, 'fresh');
  const more = path.join(dir, 'more');

  before(async () => {
    await train(['--out', first, '--epochs', '20']);
  });

  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('recovers the weights of an export exactly (every ONNX initializer reproduced)', () => {
    const ckpt = path.join(dir, 'recovered.pt');
    const r = spawnSync('/usr/bin/python3', [path.join(root, 'train', 'askgraph_recover.py'), first, '--out', ckpt], {
      encoding: 'utf8',
      env: { ...process.env, OMP_WAIT_POLICY: 'PASSIVE' },
    });
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout.trim().split('\n').pop()!);
    assert.equal(out.verified, true);
    const config = JSON.parse(fs.readFileSync(path.join(first, 'config.json'), 'utf8'));
    assert.equal(out.symbols, config.symbols.length);
  });

  it('a run with --init-from <model dir> starts where the exported model ended', async () => {
    await train(['--out', fresh, '--epochs', '1']);
    await train(['--out', more, '--epochs', '1', '--init-from', first]);
    assert.ok(firstLoss(more) < firstLoss(fresh) * 0.8, `continued ${firstLoss(more)} vs fresh ${firstLoss(fresh)}`);
    const a = JSON.parse(fs.readFileSync(path.join(first, 'config.json'), 'utf8'));
    const b = JSON.parse(fs.readFileSync(path.join(more, 'config.json'), 'utf8'));
    assert.deepEqual(b.symbols, a.symbols, 'same target symbols');
    assert.equal(fs.readFileSync(path.join(more, 'tokenizer.model')).equals(fs.readFileSync(path.join(first, 'tokenizer.model'))), true, 'same tokenizer');
  });

  it('--word-vectors: a model trained with them says so, decodes in Node, and a run continued from it keeps them', async () => {
    const withVectors = path.join(dir, 'vectors');
    const continued = path.join(dir, 'vectors-more');
    await train(['--out', withVectors, '--epochs', '1', '--word-vectors']);
    const a = JSON.parse(fs.readFileSync(path.join(withVectors, 'config.json'), 'utf8'));
    assert.equal(a.wordVectors?.dims, 100);
    const rep = JSON.parse(fs.readFileSync(path.join(withVectors, 'report.json'), 'utf8')) as { validation: { decoder: string } };
    assert.equal(rep.validation.decoder, 'node', 'the Node decoder read the exported model');
    await train(['--out', continued, '--epochs', '1', '--init-from', withVectors]);
    const b = JSON.parse(fs.readFileSync(path.join(continued, 'config.json'), 'utf8'));
    assert.equal(b.wordVectors?.dims, 100, 'continued without the flag, the table comes with the weights');
  });
});
