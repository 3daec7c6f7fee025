/** Node-side check of a model folder on a validation file: top-1 / gold-in-beam / beams parse / latency.
 *  npx tsx train/eval-node.ts <modelDir> [beam=8] [labels|nolabels] [valid.jsonl] */
import * as path from 'node:path';
import * as fs from 'node:fs';
import { loadParser } from '../src/generate';
import { parseForm, formsEqual } from '../src/form';
(async () => {
  const dir = process.argv[2]; const beam = Number(process.argv[3] ?? 8);
  const parser = await loadParser(dir, { threads: 1, ...(process.argv[4] === 'nolabels' ? { labels: 'none' } : {}) } as never);
  const rows = fs.readFileSync(process.argv[5] ?? path.join(__dirname, '..', 'fixtures', 'metaqa', 'valid.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  let top1 = 0, inBeam = 0, parsed = 0, total = 0; const times: number[] = [];
  for (const r of rows) {
    const gold = parseForm(r.form);
    const res = await parser.generate(r.question, { beam });
    times.push(res.timeMs);
    const forms = res.candidates.map((c) => c.form);
    total += res.candidates.length;
    parsed += res.candidates.filter((c) => { try { parseForm(c.text); return true; } catch { return false; } }).length;
    if (forms.length && formsEqual(forms[0], gold)) top1++;
    if (forms.some((f) => formsEqual(f, gold))) inBeam++;
  }
  times.sort((a, b) => a - b);
  console.log(JSON.stringify({ n: rows.length, beam, top1: top1 / rows.length, inBeam: inBeam / rows.length, beamsParse: parsed / total, p50ms: times[Math.floor(times.length / 2)], p95ms: times[Math.floor(times.length * 0.95)] }));
})();
