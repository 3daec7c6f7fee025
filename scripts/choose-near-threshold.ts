/**
 * Chooses NEAR_THRESHOLD (src/pipeline/abstain.ts): how near a question word must come to the graph's vocabulary
 * (NearGraph) to count as something the graph may answer. Never on a dev set:
 *   in scope     — words of the pack parser's training questions (words.json, seen ≥ 3 times, GloVe has them), held out
 *                  5-fold: each fold's words scored against the other folds' words and the graph's relations;
 *   out of scope — content words of other graphs' questions and relation names (PathQuestion, WC2014 and the
 *                  restaurants relations) that the pack's vocabulary does not have.
 * Both only words WordNet has (common words: a name is judged by the name checks, not by nearness).
 * Prints the balanced accuracy per threshold and the best.
 *
 *   npx tsx scripts/choose-near-threshold.ts [--pack store/movies] [--kb store/movies/kb.txt] [--n 600]
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isStopword, letterWords } from '../src/core';
import { wordVectors, type RelationInfo } from '../src/ground';
import { NearGraph } from '../src/pipeline/abstain';
import { Rng } from '../src/core/random';
import { wordNet } from '../src/core/wordnet';

const args = process.argv.slice(2);
const opt = (k: string, d: string) => {
  const i = args.indexOf(k);
  return i >= 0 ? args[i + 1] ?? d : d;
};
const pack = opt('--pack', 'store/movies');
const kb = opt('--kb', path.join(pack, 'kb.txt'));
const N = Number(opt('--n', '600'));
const DATA = path.join(__dirname, '..', '..', '..', 'shared', 'data');
const dataDir = fs.existsSync(DATA) ? DATA : path.join(__dirname, '..', '..', 'shared', 'data');

const words = (JSON.parse(fs.readFileSync(path.join(pack, 'model', 'words.json'), 'utf8')) as { words: Record<string, number> }).words;
const relNames = new Set<string>();
for (const line of fs.readFileSync(kb, 'utf8').split('\n')) {
  const r = line.split('|')[1];
  if (r) relNames.add(r);
}
const relations: RelationInfo[] = [...relNames].map((name) => ({ iri: `urn:rel:${name}`, name }));
const vectors = wordVectors();
const all = new Set(Object.keys(words));

// in scope: held-out training words
// common words only (WordNet has them): names are judged by the name checks, not by nearness
const wn = wordNet();
const common = (w: string) => (['n', 'v', 'a', 'r'] as const).some((p) => wn.baseForms(w, p).length > 0);
const content = Object.entries(words).filter(([w, c]) => c >= 3 && /^\p{L}{3,}$/u.test(w) && !isStopword(w) && vectors.has(w) && common(w)).map(([w]) => w);
const rng = new Rng(7);
const shuffled = [...content].sort(() => rng.next() - 0.5);
const inScope: number[] = [];
for (let k = 0; k < 5; k++) {
  const held = new Set(shuffled.filter((_, i) => i % 5 === k));
  const g = new NearGraph({ words: [...all].filter((w) => !held.has(w)), relations }, 0);
  for (const w of held) inScope.push(g.nearest(w).score);
}

// out of scope: other graphs' question and relation words the pack lacks
const other = new Set<string>();
const take = (file: string, col: number) => {
  if (!fs.existsSync(file)) return;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) for (const w of letterWords((line.split('\t')[col] ?? '').replace(/_/g, ' '))) other.add(w);
};
take(path.join(dataDir, 'pathquestion', 'PQ-2H.txt'), 0);
take(path.join(dataDir, 'wc2014', 'WC-P2.txt'), 0);
take(path.join(dataDir, 'pathquestion', 'PQ-2H.txt'), 2);
const restNt = path.join(dataDir, 'restaurants', 'restaurants.nt');
if (fs.existsSync(restNt)) for (const m of fs.readFileSync(restNt, 'utf8').matchAll(/<http:\/\/example\.org\/rest\/(\w+)>/g)) for (const w of letterWords((m[1] ?? '').replace(/([a-z])([A-Z])/g, '$1 $2'))) other.add(w);
const g = new NearGraph({ words: all, relations }, 0);
const outCandidates = [...other].filter((w) => w.length >= 3 && !isStopword(w) && vectors.has(w) && common(w) && g.nearest(w).score < 1).sort();
const outPick = [...outCandidates].sort(() => rng.next() - 0.5).slice(0, N);
const outScope = outPick.map((w) => g.nearest(w).score);

console.log(`in scope: ${inScope.length} held-out training words of ${pack}; out of scope: ${outScope.length} words of other graphs (of ${outCandidates.length})`);
let best = { t: 0, bal: 0 };
for (let t = 0.3; t <= 0.8001; t += 0.025) {
  const tpr = inScope.filter((s) => s >= t).length / inScope.length;
  const tnr = outScope.filter((s) => s < t).length / outScope.length;
  const bal = (tpr + tnr) / 2;
  if (bal > best.bal) best = { t, bal };
  console.log(`threshold ${t.toFixed(3)}: in scope kept ${(100 * tpr).toFixed(1)}%, out of scope refused ${(100 * tnr).toFixed(1)}%, balanced ${(100 * bal).toFixed(1)}%`);
}
console.log(`best: ${best.t.toFixed(3)} (balanced accuracy ${(100 * best.bal).toFixed(1)}%)`);
const near = outPick.map((w) => ({ w, ...g.nearest(w) })).filter((x) => x.score >= best.t).slice(0, 25);
console.log(`out-of-scope words kept at the best threshold (sample): ${near.map((x) => `${x.w}~${x.word ?? ''} ${x.score.toFixed(2)}`).join(', ')}`);
