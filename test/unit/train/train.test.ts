import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isAskgraphError, packageRoot } from '../../../src/core';
import { main } from '../../../src/cli/main';
import { parseEventLine, train, trainerArgs, trainerEnv, type TrainEvent } from '../../../src/train';
import { captureIO } from '../../helpers/cli';

function tmpDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-train-unit-'));
}

/** A fake "python": a shell script standing in for the interpreter (tests the wrapper, not torch). */
function fakePython(dir: string, body: string): string {
  const f = path.join(dir, 'fake-python');
  fs.writeFileSync(f, '#!/bin/sh\n' + body + '\n', { mode: 0o755 });
  return f;
}

const io = () => captureIO({ ...process.env });

describe('train: trainer arguments and events', () => {
  it('maps options to trainer flags, repeatable files included', () => {
    const a = trainerArgs({ data: 'd.jsonl', valid: 'v.jsonl', out: 'o', epochs: 3, minutes: 2.5, seed: 7, size: 'tiny', labels: ['l1', 'l2'], kb: ['kb.txt'], beam: 0 });
    assert.deepEqual(a, ['--data', 'd.jsonl', '--out', 'o', '--valid', 'v.jsonl', '--epochs', '3', '--minutes', '2.5', '--seed', '7', '--size', 'tiny', '--labels', 'l1', '--labels', 'l2', '--kb', 'kb.txt', '--beam', '0']);
  });

  it('rejects bad sizes and numbers with BAD_REQUEST', () => {
    assert.throws(() => trainerArgs({ data: 'd', out: 'o', size: 'huge' as never }), (e: unknown) => isAskgraphError(e) && e.code === 'BAD_REQUEST');
    assert.throws(() => trainerArgs({ data: 'd', out: 'o', seed: 1.5 }), (e: unknown) => isAskgraphError(e) && e.code === 'BAD_REQUEST');
    assert.throws(() => trainerArgs({ data: 'd', out: 'o', epochs: 0 }), (e: unknown) => isAskgraphError(e) && e.code === 'BAD_REQUEST');
  });

  it('--interpolate: a share in (0, 1], below 1 only with --init-from (the weights it interpolates from)', () => {
    assert.deepEqual(trainerArgs({ data: 'd', out: 'o', initFrom: 'base', interpolate: 0.4 }).slice(-4), ['--init-from', 'base', '--interpolate', '0.4']);
    assert.deepEqual(trainerArgs({ data: 'd', out: 'o', interpolate: 1 }).slice(-2), ['--interpolate', '1']);
    for (const bad of [0, 1.5, -0.2, Number.NaN]) {
      assert.throws(() => trainerArgs({ data: 'd', out: 'o', initFrom: 'base', interpolate: bad }), (e: unknown) => isAskgraphError(e) && e.code === 'BAD_REQUEST' && e.message.includes('(0, 1]'), String(bad));
    }
    assert.throws(() => trainerArgs({ data: 'd', out: 'o', interpolate: 0.5 }), (e: unknown) => isAskgraphError(e) && e.code === 'BAD_REQUEST' && e.message.includes('needs --init-from'));
  });

  it('parses JSON event lines and ignores other output', () => {
    assert.deepEqual(parseEventLine('{"event":"epoch","epoch":2,"loss":0.5}'), { event: 'epoch', epoch: 2, loss: 0.5 });
    assert.equal(parseEventLine('epoch 2 loss 0.5'), undefined);
    assert.equal(parseEventLine('{"no":"event"}'), undefined);
    assert.equal(parseEventLine('{broken'), undefined);
  });

  it('runs python with passive OpenMP waiting and unbuffered output', () => {
    const env = trainerEnv({ PATH: '/bin', OMP_WAIT_POLICY: 'ACTIVE' });
    assert.equal(env.OMP_WAIT_POLICY, 'PASSIVE');
    assert.equal(env.PYTHONUNBUFFERED, '1');
    assert.equal(env.PATH, '/bin');
  });
});

describe('train: failures become TRAINING_FAILED (fake python)', function () {
  this.timeout(20000);
  const data = path.join(packageRoot(), 'fixtures', 'train', 'small-train.jsonl');

  it('python missing', async () => {
    const dir = tmpDir();
    await assert.rejects(train({ data, out: path.join(dir, 'm'), python: path.join(dir, 'no-such-python3') }), (e: unknown) => {
      assert.ok(isAskgraphError(e));
      assert.equal(e.code, 'TRAINING_FAILED');
      assert.match(e.message, /python not found/);
      return true;
    });
  });

  it('torch missing (fake python)', async () => {
    const dir = tmpDir();
    const py = fakePython(dir, `echo "Traceback (most recent call last):" >&2; echo "ModuleNotFoundError: No module named 'torch'" >&2; exit 1`);
    await assert.rejects(train({ data, out: path.join(dir, 'm'), python: py }), (e: unknown) => {
      assert.ok(isAskgraphError(e));
      assert.equal(e.code, 'TRAINING_FAILED');
      assert.match(e.message, /cannot import torch/);
      assert.match(e.message, /No module named 'torch'/);
      return true;
    });
  });

  it('trainer error: the last stderr lines are in the error (fake python)', async () => {
    const dir = tmpDir();
    const py = fakePython(
      dir,
      `if [ "$1" = "-c" ]; then echo 1.13; exit 0; fi
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25; do echo "noise $i" >&2; done
echo '{"event":"start","totalSteps":10}'
echo "RuntimeError: out of memory in layer 3" >&2
exit 3`,
    );
    await assert.rejects(train({ data, out: path.join(dir, 'm'), python: py }), (e: unknown) => {
      assert.ok(isAskgraphError(e));
      assert.equal(e.code, 'TRAINING_FAILED');
      assert.match(e.message, /exit code 3/);
      assert.match(e.message, /RuntimeError: out of memory in layer 3/);
      const stderr = e.details?.stderr as string[];
      assert.ok(stderr.length <= 20, 'only the tail is kept');
      assert.equal(stderr[stderr.length - 1], 'RuntimeError: out of memory in layer 3');
      assert.ok(!stderr.includes('noise 1'));
      return true;
    });
  });

  it('missing data file is NOT_FOUND before python runs', async () => {
    await assert.rejects(train({ data: '/nonexistent/train.jsonl', out: '/tmp/x' }), (e: unknown) => isAskgraphError(e) && e.code === 'NOT_FOUND');
  });

  it('--word-vectors: passed to the trainer; a folder without the vector files is NOT_FOUND before python runs', async () => {
    const lexical = path.join(packageRoot(), 'assets', 'lexical');
    const a = trainerArgs({ data: 'd', out: 'o', wordVectors: lexical });
    assert.deepEqual(a.slice(a.indexOf('--word-vectors'), a.indexOf('--word-vectors') + 2), ['--word-vectors', lexical]);
    const data = path.join(packageRoot(), 'fixtures', 'train', 'small-train.jsonl');
    await assert.rejects(train({ data, out: path.join(tmpDir(), 'model'), wordVectors: tmpDir(), python: '/nonexistent/python3' }), (e: unknown) => isAskgraphError(e) && e.code === 'NOT_FOUND' && e.message.includes('glove-100d-int8.bin'));
  });

  it('a report whose validation is not the Node decoder\'s is TRAINING_FAILED (decoding rules live in src/generate)', async () => {
    const dir = tmpDir();
    const out = path.join(dir, 'model');
    const py = fakePython(
      dir,
      `if [ "$1" = "-c" ]; then echo 1.13; exit 0; fi
mkdir -p "${out}"
echo '{"version":"fake-2","validation":{"decoder":null,"n":4,"em":null,"nodeUnavailable":"node not found","probe":{"constrained":{"em":0.75}}}}' > "${out}/report.json"
echo '{"event":"done","out":"${out}"}'`,
    );
    await assert.rejects(train({ data, out, python: py }), (e: unknown) => isAskgraphError(e) && e.code === 'TRAINING_FAILED' && e.message.includes('Node decoder: node not found'));
  });

  it('CLI: progress events, summary, exit codes (fake python)', async () => {
    const dir = tmpDir();
    const out = path.join(dir, 'model');
    const py = fakePython(
      dir,
      `if [ "$1" = "-c" ]; then echo 1.13; exit 0; fi
echo "human text" >&2
echo '{"event":"start","totalSteps":4}'
echo '{"event":"step","epoch":1,"step":2,"totalSteps":4,"loss":1.5,"etaSec":3}'
echo '{"event":"epoch","epoch":1,"step":4,"loss":1.2,"validEm":0.75,"elapsedSec":2,"etaSec":0}'
echo '{"event":"phase","name":"export"}'
mkdir -p "${out}"
echo '{"version":"fake-1","epochs":1,"trainSeconds":2,"examplesPerSec":50,"validation":{"decoder":"node","n":4,"beam":2,"em":0.5,"inBeam":0.75,"probe":{"constrained":{"em":0.75,"unseen":{"em":0.5}}}}}' > "${out}/report.json"
echo '{"event":"done","out":"${out}"}'`,
    );
    const events: TrainEvent[] = [];
    const r = await train({ data, out, python: py, onEvent: (e) => events.push(e) });
    assert.deepEqual(events.map((e) => e.event), ['start', 'step', 'epoch', 'phase', 'done']);
    assert.equal(r.report.version, 'fake-1');
    assert.ok(!r.events.some((e) => e.event === 'step'), 'step events are streamed, not kept');

    const c = io();
    const code = await main(['train', '--data', data, '--out', out, '--python', py, '--epochs', '1'], c.io);
    assert.equal(code, 0, c.err());
    assert.match(c.out(), /model fake-1 written to/);
    assert.match(c.out(), /validation \(Node decoder, beam 2\): EM 50\.00%, gold in beam 75\.00%/);
    assert.match(c.out(), /training-time probe \(PyTorch constrained greedy\): EM 75\.00%, unseen-entity EM 50\.00%/);
    assert.match(c.err(), /train: export/);

    const bad = io();
    const code2 = await main(['train', '--data', data, '--out', out, '--python', path.join(dir, 'nope')], bad.io);
    assert.equal(code2, 2);
    assert.match(bad.err(), /^askgraph: TRAINING_FAILED: python not found/m);

    const usage = io();
    assert.equal(await main(['train', '--out', out], usage.io), 2, 'missing --data');
  });
});

describe('train: Python data-side unit tests', function () {
  this.timeout(60000);
  it('train/test_*.py pass under /usr/bin/python3', () => {
    const r = spawnSync('/usr/bin/python3', ['-m', 'unittest', 'discover', '-s', 'train', '-p', 'test_*.py'], { cwd: packageRoot(), encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /OK/);
  });
});
