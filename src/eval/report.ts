/**
 * The scoreboard: one summary object (the `--json` output), breakdowns by question type and hop, and a markdown
 * report for people with the definitions of the metrics and the list of failures.
 */
import { pushTo } from '../core';
import { latencySummary, mean, percentile, rate, roundMs, type LatencySummary } from './metrics';
import type { EvalMode, ExampleResult } from './run';

export interface GroupSummary {
  count: number;
  f1: number | null;
  hits1: number | null;
  hit: number | null;
  acc: number | null;
  em: number | null;
  noAnswer: number | null;
}

export interface StageSplit {
  mean: number | null;
  p50: number | null;
  p95: number | null;
}

/** The `--json` object: the GroupSummary of all examples plus form, rate, speed and breakdown fields. */
export interface EvalSummary extends GroupSummary {
  /** Exact row match over the table questions (gold rows of several variables); null when there are none. */
  rowMatch: number | null;
  bm: number | null;
  sm: number | null;
  executable: number | null;
  fallback: number | null;
  latency: LatencySummary;
  qps: number | null;
  byType: Record<string, GroupSummary>;
  byHop: Record<string, GroupSummary>;
  stages: Record<'generate' | 'ground' | 'execute' | 'fallback', StageSplit>;
  mode: EvalMode;
  dataset: string;
}

function group(results: readonly ExampleResult[]): GroupSummary {
  return {
    count: results.length,
    f1: mean(results.map((r) => r.scores.f1)),
    hits1: mean(results.map((r) => r.scores.hits1)),
    hit: mean(results.map((r) => r.scores.hit)),
    acc: mean(results.map((r) => r.scores.acc)),
    em: rate(results.map((r) => r.em)),
    noAnswer: rate(results.map((r) => r.noAnswer)),
  };
}

function groupBy(results: readonly ExampleResult[], key: (r: ExampleResult) => string | undefined): Record<string, GroupSummary> {
  const groups = new Map<string, ExampleResult[]>();
  for (const r of results) {
    const k = key(r);
    if (k === undefined) continue;
    pushTo(groups, k, r);
  }
  return Object.fromEntries([...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, rs]) => [k, group(rs)]));
}

export function summarize(results: readonly ExampleResult[], wallMs: number, mode: EvalMode, dataset: string): EvalSummary {
  const all = group(results);
  const stage = (k: 'generate' | 'ground' | 'execute' | 'fallback'): StageSplit => {
    const xs = results.map((r) => r.timings[k]);
    return { mean: roundMs(mean(xs)), p50: roundMs(percentile(xs, 50)), p95: roundMs(percentile(xs, 95)) };
  };
  return {
    count: all.count,
    f1: all.f1,
    hits1: all.hits1,
    hit: all.hit,
    acc: all.acc,
    em: all.em,
    rowMatch: rate(results.map((r) => r.rowMatch)),
    bm: rate(results.map((r) => r.bm)),
    sm: rate(results.map((r) => r.sm)),
    executable: rate(results.map((r) => r.executable)),
    fallback: rate(results.map((r) => r.fallback)),
    noAnswer: all.noAnswer,
    latency: latencySummary(results.map((r) => r.latencyMs)),
    qps: results.length && wallMs > 0 ? results.length / (wallMs / 1000) : null,
    byType: groupBy(results, (r) => (typeof r.meta.qtype === 'string' ? r.meta.qtype : undefined)),
    byHop: groupBy(results, (r) => (typeof r.meta.hop === 'number' ? String(r.meta.hop) : undefined)),
    stages: { generate: stage('generate'), ground: stage('ground'), execute: stage('execute'), fallback: stage('fallback') },
    mode,
    dataset,
  };
}

const pct = (x: number | null) => (x === null ? '—' : (100 * x).toFixed(2));
const ms = (x: number | null) => (x === null ? '—' : x.toFixed(1));
const cell = (s: string | null | undefined) => (s ?? '—').replace(/\|/g, '\\|').replace(/\n/g, ' ');

export const METRIC_DEFINITIONS = [
  '- **F1**: per question, harmonic mean of precision and recall of the predicted answer set against the gold set; macro-averaged over questions (ChatKBQA §5.1).',
  '- **Hits@1**: the first-ranked predicted answer is in the gold set (READS, Appendix C, eq. 11).',
  '- **Hit**: any predicted answer is in the gold set (READS eq. 12 — what several papers call "Hits@1"; reported separately).',
  '- **Acc**: the predicted set equals the gold set exactly.',
  '- **row match**: on table questions (gold answers with several variables), the predicted rows equal the gold rows exactly (each row as the multiset of its cells, column order free); F1 on those questions is over all cells.',
  '- Answers compare by label (or IRI when the gold answers are IRIs), NFKC-, case- and whitespace-normalised; duplicates count once.',
  '- Empty sets: gold and prediction both empty count as correct (all 1); exactly one empty counts 0.',
  '- **EM**: the top form of the beam equals the gold form in canonical normal form; **BM**: the gold form is anywhere in the beam; **SM**: the top form has the gold skeleton (entities, relations, classes, literals masked). Only for examples with a gold form; not applicable in oracle mode.',
  '- **Executable**: a parser form ran on the store (answers or empty, no error); **Fallback**: the answer came from a fallback reader; **No answer**: no answers returned.',
  '- Latency: wall time per question (nearest-rank p50/p95, max); qps = questions / wall time of the run (sequential).',
];

function groupTable(title: string, groups: Record<string, GroupSummary>): string[] {
  const keys = Object.keys(groups);
  if (keys.length === 0) return [];
  const lines = [`## By ${title}`, '', `| ${title} | n | F1 | Hits@1 | Hit | Acc | EM | no answer |`, '|---|---:|---:|---:|---:|---:|---:|---:|'];
  for (const [k, g] of Object.entries(groups)) {
    lines.push(`| ${cell(k)} | ${g.count} | ${pct(g.f1)} | ${pct(g.hits1)} | ${pct(g.hit)} | ${pct(g.acc)} | ${pct(g.em)} | ${pct(g.noAnswer)} |`);
  }
  lines.push('');
  return lines;
}

export interface MarkdownOptions {
  command?: string;
  /** How many failures to list (default 200; the JSON report has all). */
  maxFailures?: number;
}

export function markdownReport(summary: EvalSummary, results: readonly ExampleResult[], opts: MarkdownOptions = {}): string {
  const s = summary;
  const lines: string[] = [
    `# askgraph eval — ${s.dataset} (${s.mode === 'oracle' ? 'oracle: gold forms executed' : 'pipeline'})`,
    '',
    ...(opts.command ? ['```', opts.command, '```', ''] : []),
    '| metric | value |',
    '|---|---:|',
    `| questions | ${s.count} |`,
    `| F1 (macro) | ${pct(s.f1)} |`,
    `| Hits@1 (first answer in gold) | ${pct(s.hits1)} |`,
    `| Hit (any answer in gold) | ${pct(s.hit)} |`,
    `| Acc (exact set) | ${pct(s.acc)} |`,
    `| row match (table questions) | ${pct(s.rowMatch)} |`,
    `| EM | ${pct(s.em)} |`,
    `| BM | ${pct(s.bm)} |`,
    `| SM | ${pct(s.sm)} |`,
    `| executable | ${pct(s.executable)} |`,
    `| fallback | ${pct(s.fallback)} |`,
    `| no answer | ${pct(s.noAnswer)} |`,
    `| latency p50 / p95 / max (ms) | ${ms(s.latency.p50)} / ${ms(s.latency.p95)} / ${ms(s.latency.max)} |`,
    `| questions per second | ${s.qps === null ? '—' : s.qps.toFixed(2)} |`,
    '',
    'Percentages; — means not applicable.',
    '',
    '## Time by stage (ms per question)',
    '',
    '| stage | mean | p50 | p95 |',
    '|---|---:|---:|---:|',
    ...(['generate', 'ground', 'execute', 'fallback'] as const).map((k) => `| ${k} | ${ms(s.stages[k].mean)} | ${ms(s.stages[k].p50)} | ${ms(s.stages[k].p95)} |`),
    '',
    ...groupTable('hop', s.byHop),
    ...groupTable('qtype', s.byType),
    '## Metric definitions',
    '',
    ...METRIC_DEFINITIONS,
    '',
  ];
  const failures = results.filter((r) => r.failure);
  const max = opts.maxFailures ?? 200;
  lines.push(`## Failures (${failures.length}${failures.length > max ? `, first ${max} listed` : ''})`, '');
  if (failures.length) {
    lines.push('| id | question | gold form | predicted form | gold answers | predicted | why |', '|---|---|---|---|---|---|---|');
    for (const r of failures.slice(0, max)) {
      const show = (xs: string[]) => (xs.length > 5 ? xs.slice(0, 5).join('; ') + ` … (+${xs.length - 5})` : xs.join('; ')) || '∅';
      lines.push(`| ${cell(r.id)} | ${cell(r.question)} | ${cell(r.goldForm)} | ${cell(r.form)} | ${cell(show(r.gold))} | ${cell(show(r.predicted))} | ${cell(r.failure)} |`);
    }
    lines.push('');
  }
  return lines.join('\n');
}
