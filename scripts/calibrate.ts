/**
 * Fits the parser's calibrated confidence (src/pipeline/calibration.ts) on held-out labelled questions of the
 * model's own kind — held-out synthetic pairs and the validation split, NEVER the dev sets — writes
 * <model>/calibration.json and prints the reliability diagram (ECE) and the accuracy-vs-coverage curve.
 *
 *   npx tsx scripts/calibrate.ts --data held-out.jsonl [--data more.jsonl] [--store PACK] [--model DIR]
 *        [--n N] [--keep 0.97] [--out FILE] [--markdown FILE]
 *
 * An example is correct when its first answer is a gold answer (lines with `answers`), else when the
 * parser's form equals the gold form (synthetic lines: their mentions are copied question spans).
 * The threshold is P(correct) = 0.5 (answer when more likely right than wrong), lowered where needed so that
 * at least --keep of the held-out questions stay answered (default 0.97: abstain on ≤ 3% of answerable
 * questions of this kind, leaving room for the shift to real questions).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Command } from 'commander';
import { normalizeForm, parseForm, printForm } from '../src/form';
import { createGateway } from '../src/pipeline';
import { PACK_FILE, refreshPackManifest } from '../src/execute';
import { coverageCurve, fitCalibration, reliability, calibratedProbability, type LabelledSignals } from '../src/pipeline/calibration';

interface Example {
  question: string;
  form: string;
  answers?: string[];
}

function canonical(form: string): string {
  try {
    return printForm(normalizeForm(parseForm(form))).toLowerCase();
  } catch {
    return form.toLowerCase();
  }
}

async function main(): Promise<void> {
  const program = new Command()
    .requiredOption('--data <file>', 'held-out JSON Lines {question, form, answers?}; repeatable', (v: string, acc: string[]) => [...acc, v], [] as string[])
    .option('--store <dir>', 'pack or store (default: the movies pack)')
    .option('--model <dir>', 'model folder (default: the pack model)')
    .option('--n <n>', 'examples per file at most (evenly spread)', '600')
    .option('--keep <share>', 'share of held-out questions kept answered', '0.97')
    .option('--out <file>', 'calibration.json to write (default <model>/calibration.json)')
    .option('--markdown <file>', 'also write the diagram and curve as Markdown');
  program.parse();
  const o = program.opts<{ data: string[]; store?: string; model?: string; n: string; keep: string; out?: string; markdown?: string }>();
  const gateway = await createGateway({ ...(o.store ? { store: o.store } : {}), ...(o.model ? { model: o.model } : {}) });
  const modelDir = o.model ?? path.resolve(gateway.pack.dir, gateway.pack.config.model ?? 'model');
  const rows: LabelledSignals[] = [];
  let answered = 0;
  let total = 0;
  for (const file of o.data) {
    const all = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Example);
    const step = Math.max(1, Math.floor(all.length / Number(o.n)));
    const sample = all.filter((_, i) => i % step === 0).slice(0, Number(o.n));
    for (const ex of sample) {
      total++;
      const a = await gateway.ask(ex.question, { noAbstain: true, fallback: 'off' });
      if (!a.signals || !a.form) continue;
      answered++;
      const first = a.answers[0];
      const correct = ex.answers ? !!first && ex.answers.some((g) => g === first.label || g === first.value) : canonical(a.form) === canonical(ex.form);
      rows.push({ signals: a.signals, correct });
    }
  }
  await gateway.close();
  const fit = fitCalibration(rows);
  const probs = rows.map((r) => calibratedProbability({ ...fit, threshold: 0 }, r.signals));
  const correct = rows.map((r) => r.correct);
  const sorted = [...probs].sort((a, b) => a - b);
  const threshold = Math.min(0.5, sorted[Math.floor((1 - Number(o.keep)) * sorted.length)] ?? 0);
  const rel = reliability(probs, correct);
  const curve = coverageCurve(probs, correct, [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]);
  const cal = { ...fit, threshold, fittedOn: o.data.map((f) => path.basename(f)).join(', '), ece: rel.ece };
  const out = o.out ?? path.join(modelDir, 'calibration.json');
  fs.writeFileSync(out, JSON.stringify(cal, null, 1) + '\n');
  // the pack's manifest records the model's files: record the new calibration.json there too
  if (fs.existsSync(path.join(path.dirname(modelDir), PACK_FILE))) refreshPackManifest(path.dirname(modelDir), { onlyIfPresent: true });
  const acc = correct.filter(Boolean).length / Math.max(1, correct.length);
  const md = [
    `Calibration (${new Date().toISOString().slice(0, 10)}, \`npx tsx scripts/calibrate.ts ${process.argv.slice(2).join(' ')}\`):`,
    `${rows.length} parser answers of ${total} held-out questions (${answered} answered with noAbstain), accuracy ${(100 * acc).toFixed(1)}%,`,
    `ECE ${rel.ece.toFixed(3)}, threshold ${threshold.toFixed(3)} (P(correct) 0.5, lowered to keep at least ${(100 * Number(o.keep)).toFixed(0)}% answered).`,
    '',
    '| confidence bin | questions | mean confidence | accuracy |',
    '|---|---|---|---|',
    ...rel.bins.map((b) => `| ${b.from.toFixed(1)}–${b.to.toFixed(1)} | ${b.count} | ${b.meanConfidence.toFixed(3)} | ${b.accuracy.toFixed(3)} |`),
    '',
    '| answer when confidence ≥ | coverage | accuracy of answered |',
    '|---|---|---|',
    ...curve.map((c) => `| ${c.threshold.toFixed(1)} | ${(100 * c.coverage).toFixed(1)}% | ${(100 * c.accuracy).toFixed(1)}% |`),
  ].join('\n');
  console.log(md);
  console.log(`\nwrote ${out}`);
  if (o.markdown) fs.writeFileSync(o.markdown, md + '\n');
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
