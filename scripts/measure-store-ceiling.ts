/**
 * The embedded store's memory per triple (issue 25 item 4), each measurement in a fresh process, peak RSS
 * from the kernel (getrusage maxrss):
 *   load     `askgraph load FILE --store DIR` (the CLI as users run it: parse, dump DIR/data.nq, discover labels);
 *   open-nq  what the store process does when a pack made by `load` opens: buildStore of DIR/data.nq;
 *   open-snapshot  a pack whose source is .nt with a cache folder, second open: buildStore from .cache/snapshot.nq.
 * Input: N-Triples files (scripts/gen-ceiling-nt.ts). Prints a table of triples, peak RSS, RSS above the
 * idle process, bytes per triple and seconds; the last line is JSON.
 * Run: npx tsx scripts/measure-store-ceiling.ts [--with-load] /tmp/ceil/g500k.nt /tmp/ceil/g1000k.nt …
 *   (without --with-load, open-nq reads the N-Triples file itself as the pack's data.nq)
 *   (env ASKGRAPH_STORE_MAX_BYTES=0 is set for the runs so the ceiling check does not refuse what is measured)
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { itemAt } from '../src/core';

const root = path.resolve(__dirname, '..');

function child(mode: string, arg: string): void {
  // the wasm instance's linear memory (Oxigraph's heap: what wasm32's 4 GiB bounds), caught as Oxigraph creates it
  let memory: WebAssembly.Memory | undefined;
  const Instance = WebAssembly.Instance;
  (WebAssembly as { Instance: unknown }).Instance = function (module: WebAssembly.Module, imports?: WebAssembly.Imports) {
    const instance = new Instance(module, imports);
    memory ??= instance.exports.memory as WebAssembly.Memory | undefined;
    return instance;
  };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { buildStore } = require('../src/execute/loaders') as typeof import('../src/execute/loaders');
  const t0 = Date.now();
  const source = mode === 'open-snapshot' ? { files: [arg], baseIri: 'http://example.org/x/', cacheDir: path.join(path.dirname(arg), '.cache-' + path.basename(arg)) } : { files: [arg], baseIri: 'http://example.org/x/' };
  const { store, info } = buildStore(source);
  const out = { size: store.size, from: info.from, ms: Date.now() - t0, maxRssKb: process.resourceUsage().maxRSS, wasmBytes: memory?.buffer.byteLength ?? 0 };
  process.stdout.write(JSON.stringify(out) + '\n');
}

/** Peak RSS (KiB) of a command, by GNU time. */
function timed(cmd: string[], env: NodeJS.ProcessEnv): { maxRssKb: number; out: string; ms: number } {
  const t0 = Date.now();
  const r = spawnSync('/usr/bin/time', ['-f', 'MAXRSS %M', ...cmd], { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const m = /MAXRSS (\d+)/.exec(r.stderr);
  if (r.status !== 0 || !m) throw new Error(`${cmd.join(' ')} failed (${r.status}): ${r.stderr.slice(-2000)}`);
  return { maxRssKb: Number(m[1]), out: r.stdout, ms: Date.now() - t0 };
}

function main(files: string[], withLoad: boolean): void {
  const env = { ...process.env, ASKGRAPH_STORE_MAX_BYTES: '0' };
  const tsx = [process.execPath, '--require', require.resolve('tsx/cjs')];
  const base = timed([...tsx, '-e', 'require("oxigraph"); new (require("oxigraph").Store)()'], env).maxRssKb;
  const rows: Record<string, unknown>[] = [];
  const row = (mode: string, triples: number, kb: number, ms: number, fileBytes: number) => {
    const r = { mode, triples, peakRssMb: Math.round(kb / 1024), aboveIdleMb: Math.round((kb - base) / 1024), bytesPerTriple: Math.round(((kb - base) * 1024) / triples), fileBytesPerTriple: Math.round(fileBytes / triples), s: Math.round(ms / 100) / 10 };
    rows.push(r);
    console.log(Object.values(r).join('\t'));
  };
  console.log(`machine: ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB; idle node+oxigraph peak RSS ${Math.round(base / 1024)} MiB`);
  console.log(['mode', 'triples', 'peakRssMiB', 'aboveIdleMiB', 'B/triple', 'fileB/triple', 's'].join('\t'));
  for (const file of files) {
    const dir = fs.mkdtempSync(path.join(path.dirname(file), 'store-'));
    try {
      const nq = path.join(dir, 'data.nq');
      let triples: number;
      if (withLoad) {
        const load = timed([process.execPath, path.join(root, 'bin/askgraph.js'), 'load', file, '--store', dir, '--json'], env);
        triples = (JSON.parse(load.out) as { triples: number }).triples;
        row('load', triples, load.maxRssKb, load.ms, fs.statSync(file).size);
      } else {
        fs.symlinkSync(file, nq); // N-Triples is N-Quads: the same parse as a data.nq written by load
      }
      const open = timed([...tsx, __filename, '--child', 'open-nq', nq], env);
      const o = JSON.parse(open.out) as { ms: number; size: number };
      triples = o.size;
      row('open-nq', triples, open.maxRssKb, o.ms, fs.statSync(nq).size);
      timed([...tsx, __filename, '--child', 'open-snapshot', file], env); // first open writes the snapshot
      const snap = timed([...tsx, __filename, '--child', 'open-snapshot', file], env);
      const s = JSON.parse(snap.out) as { ms: number; from: string };
      if (s.from !== 'snapshot') throw new Error('second open did not use the snapshot');
      row('open-snapshot', triples, snap.maxRssKb, s.ms, fs.statSync(nq).size);
    } catch (e) {
      console.log(`${path.basename(file)}: ${(e as Error).message.split('\n').slice(-3).join(' | ')}`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(path.join(path.dirname(file), '.cache-' + path.basename(file)), { recursive: true, force: true });
    }
  }
  console.log(JSON.stringify({ idleRssMb: Math.round(base / 1024), rows }));
}

const args = process.argv.slice(2);
if (args[0] === '--child') child(itemAt(args, 1, 'the mode argument of --child'), itemAt(args, 2, 'the file argument of --child'));
else main(args.filter((a) => a !== '--with-load'), args.includes('--with-load'));
