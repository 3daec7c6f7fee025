/**
 * Corrupt files are never served as "ok" (issue 22): a copy of the REAL movies pack in a temp folder,
 * each kind of file corrupted in turn, opened by the real store worker (openExecutor) and the real CLI
 * (bin/askgraph.js as a child process). The pack's manifest (pack.json `files`: size + sha256) names a
 * changed data or model file at start-up; the snapshot and the entity index carry their own checksums
 * and are rebuilt when they do not match.
 */
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { defaultPackDir, isAskgraphError, packageRoot } from '../../src/core';
import { loadPack, openExecutor, packManifest, type OxigraphExecutor } from '../../src/execute';
import { loadOrBuildStoreIndex } from '../../src/ground';
import { loadCalibration } from '../../src/pipeline/calibration';
import { loadKnownWords } from '../../src/pipeline/abstain';
import { miniNTriples } from './serve-helpers';

function copyPack(to: string): void {
  const from = defaultPackDir();
  fs.mkdirSync(path.join(to, 'model'), { recursive: true });
  for (const f of fs.readdirSync(from)) if (fs.statSync(path.join(from, f)).isFile()) fs.copyFileSync(path.join(from, f), path.join(to, f));
  for (const f of fs.readdirSync(path.join(from, 'model'))) fs.copyFileSync(path.join(from, 'model', f), path.join(to, 'model', f));
}

/** Flips the bytes of a file in the middle (same size). */
function flipBytes(file: string, n = 16): void {
  const b = fs.readFileSync(file);
  const at = Math.floor(b.length / 2);
  for (let i = at; i < at + n && i < b.length; i++) b[i] = b[i]! ^ 0xff;
  fs.writeFileSync(file, b);
}

function askCli(store: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(packageRoot(), 'bin', 'askgraph.js'), 'ask', '--store', store, 'who directed Forrest Gump'], { timeout: 120_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

const rejectsNaming = (code: string, file: string) => (e: unknown) => {
  assert.ok(isAskgraphError(e), String(e));
  assert.equal(e.code, code, e.message);
  assert.ok(e.message.includes(file), e.message);
  return true;
};

describe('pack integrity: corrupt files are a coded start-up error naming the file, corrupt caches are rebuilt (REAL store worker, REAL CLI)', function () {
  this.timeout(300_000);
  let tmp: string;
  let pack: string;
  let fullSize: number;
  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-integrity-'));
    pack = path.join(tmp, 'movies');
    copyPack(pack);
    const ex = (await openExecutor(pack)) as OxigraphExecutor; // builds .cache/snapshot.nq from the sources
    fullSize = ex.info!.size;
    await ex.close();
    assert.ok(fullSize > 100_000);
    assert.ok(fs.statSync(path.join(pack, '.cache', 'snapshot.nq')).size > 1_000_000);
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('the shipped pack has a manifest of its data and model files, and it matches them', async () => {
    const { config, dir } = await loadPack(defaultPackDir());
    assert.ok(config.files, 'store/movies/pack.json has files');
    assert.deepEqual(Object.keys(config.files).sort(), Object.keys(packManifest(dir, config)).sort());
    assert.ok(config.files['kb.txt'] && config.files['model/encoder.onnx'] && config.files['model/calibration.json'] && config.files['model/words.json']);
    assert.deepEqual(config.files, packManifest(dir, config));
  });

  it('a 0-byte snapshot, or one with flipped bytes, is rebuilt from the sources: the store is whole', async () => {
    const snap = path.join(pack, '.cache', 'snapshot.nq');
    for (const corrupt of [() => fs.truncateSync(snap, 0), () => flipBytes(snap, 200)]) {
      corrupt();
      const ex = (await openExecutor(pack)) as OxigraphExecutor;
      try {
        assert.equal(ex.info!.size, fullSize);
        assert.equal(ex.info!.from, 'sources');
        assert.equal(await ex.count('SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }'), fullSize);
      } finally {
        await ex.close();
      }
      const again = (await openExecutor(pack)) as OxigraphExecutor; // the rebuilt snapshot is used again
      assert.equal(again.info!.from, 'snapshot');
      assert.equal(again.info!.size, fullSize);
      await again.close();
    }
  });

  it('a data file cut mid-line is a DATA_FORMAT start-up error naming kb.txt (store worker and CLI, exit 2)', async () => {
    const kb = path.join(pack, 'kb.txt');
    const good = fs.readFileSync(kb);
    try {
      // cut inside the last field of a line: what is left still reads as a (wrong) triple
      const mid = good.indexOf(0x0a, Math.floor(good.length / 2)) + 1;
      const eol = good.indexOf(0x0a, mid);
      const lastBar = good.lastIndexOf(0x7c, eol);
      assert.ok(lastBar > mid && eol - lastBar > 3);
      fs.writeFileSync(kb, good.subarray(0, lastBar + 3));
      await assert.rejects(openExecutor(pack), rejectsNaming('DATA_FORMAT', 'kb.txt'));
      const r = await askCli(pack);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /DATA_FORMAT/);
      assert.match(r.stderr, /kb\.txt/);
      assert.doesNotMatch(r.stdout, /Zemeckis/);
    } finally {
      fs.writeFileSync(kb, good);
    }
  });

  it('a model file with flipped bytes, a bad calibration.json or words.json: DATA_FORMAT naming the file, exit 2 (not 70)', async () => {
    for (const f of ['model/encoder.onnx', 'model/decoder.onnx', 'model/calibration.json', 'model/words.json', 'model/tokenizer.model']) {
      const file = path.join(pack, f);
      const good = fs.readFileSync(file);
      try {
        if (f.endsWith('.json')) fs.writeFileSync(file, good.toString('utf8').replace(/\{/, '{ oops'));
        else flipBytes(file);
        await assert.rejects(openExecutor(pack), rejectsNaming('DATA_FORMAT', f));
        if (f === 'model/encoder.onnx' || f === 'model/calibration.json') {
          const r = await askCli(pack);
          assert.equal(r.code, 2, r.stderr);
          assert.ok(r.stderr.includes(f), r.stderr);
        }
      } finally {
        fs.writeFileSync(file, good);
      }
    }
    // the pack answers again once the files are restored
    const r = await askCli(pack);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Robert Zemeckis/);
  });

  it('without a manifest (a model folder given alone), a bad calibration.json or words.json still names the file', () => {
    const dir = path.join(tmp, 'loose-model');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'calibration.json'), '{"signals": ["logProb"], "weights": [');
    assert.throws(() => loadCalibration(dir), rejectsNaming('DATA_FORMAT', 'calibration.json'));
    fs.writeFileSync(path.join(dir, 'calibration.json'), JSON.stringify({ signals: ['logProb', 'margin'], weights: [1], bias: 0, threshold: 0.5 }));
    assert.throws(() => loadCalibration(dir), rejectsNaming('DATA_FORMAT', 'calibration.json'));
    fs.writeFileSync(path.join(dir, 'words.json'), '{"words": {"a": 1,');
    assert.throws(() => loadKnownWords(dir), rejectsNaming('DATA_FORMAT', 'words.json'));
    fs.writeFileSync(path.join(dir, 'words.json'), '["a", "b"]');
    assert.throws(() => loadKnownWords(dir), rejectsNaming('DATA_FORMAT', 'words.json'));
  });

  it('an entity index cache with half its entries is rebuilt; an index of an empty store is not cached', async () => {
    const dir = path.join(tmp, 'mini');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'mini.nt'), miniNTriples());
    const ex = await openExecutor(path.join(dir, 'mini.nt'));
    const cache = path.join(dir, 'cache', 'entity-index.json');
    try {
      const full = await loadOrBuildStoreIndex(ex, cache);
      assert.ok(full.size >= 9 && fs.existsSync(cache));
      const saved = JSON.parse(fs.readFileSync(cache, 'utf8'));
      const half = Math.floor(saved.docs.length / 2);
      fs.writeFileSync(cache, JSON.stringify({ ...saved, docs: saved.docs.slice(0, half), norms: Array.isArray(saved.norms) ? saved.norms.slice(0, half) : saved.norms }));
      const again = await loadOrBuildStoreIndex(ex, cache);
      assert.equal(again.size, full.size, 'the cut cache was rebuilt, not trusted');
      assert.deepEqual([...again.allLabels()].sort(), [...full.allLabels()].sort());
      assert.equal(JSON.parse(fs.readFileSync(cache, 'utf8')).docs.length, saved.docs.length, 'and saved whole again');
    } finally {
      await ex.close();
    }
    fs.writeFileSync(path.join(dir, 'empty.nt'), '');
    const empty = await openExecutor(path.join(dir, 'empty.nt'));
    const emptyCache = path.join(dir, 'cache', 'empty-index.json');
    try {
      const idx = await loadOrBuildStoreIndex(empty, emptyCache);
      assert.equal(idx.size, 0);
      assert.equal(fs.existsSync(emptyCache), false, 'an empty index is not cached');
    } finally {
      await empty.close();
    }
  });
});
