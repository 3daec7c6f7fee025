/**
 * Load invariance (issue 22 item 5): the same questions asked at load 0 and with every core saturated by
 * busy-loop child processes must get the same answers — the reading that won, its answers and labels —
 * or an explicit timeout (`partial`/`timedOut`), never a different answer. Prints the differing answers
 * (target 0) and how many were cut short by the time budget in each run.
 *
 *   npx tsx scripts/bench-load-invariance.ts [--n 100] [--procs CORES] [--timeout MS] [--out FILE.json]
 *
 * Questions: MetaQA dev questions of ../shared/data/metaqa (1-, 2- and 3-hop in equal parts, every k-th
 * line, brackets removed: the topic entity is not given) and multi-hop / aggregate questions written for
 * this benchmark. "Load 0" is the machine as it is (other jobs included); the loaded run adds `--procs`
 * busy loops (default: one per core).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Command } from 'commander';
import { itemAt, packageRoot, percentile, type Answer } from '../src/core';
import { createGateway, type AskOptions } from '../src/pipeline';

const OWN = [
  'how many films did Tom Hanks star in',
  'how many films did Steven Spielberg direct',
  'which films directed by Robert Zemeckis starred Tom Hanks',
  'what genres are the films directed by Michael Mann',
  'who directed the films that Al Pacino acted in',
  'when were the films directed by Christopher Nolan released',
  'did Robert Zemeckis direct Forrest Gump',
  'how many actors starred in Heat',
  'who wrote the films that Tom Hanks starred in',
  'which films share a director with Cast Away',
  'fellini films',
  'Kurosawa movies',
];

const cli = new Command('bench-load-invariance')
  .option('--n <n>', 'questions in all (default 100)', '100')
  .option('--procs <k>', 'busy-loop processes of the loaded run (default: one per core)')
  .option('--timeout <ms>', 'timeoutMs of every question (default: the pipeline default)')
  .option('--data <dir>', 'MetaQA folder with 1-hop/2-hop/3-hop qa_dev.txt', path.resolve(packageRoot(), '..', '..', 'shared', 'data', 'metaqa'))
  .option('--out <file>', 'write both runs as JSON')
  .parse();
const flags = cli.opts<{ n: string; procs?: string; timeout?: string; data: string; out?: string }>();

function metaqa(dir: string, perHop: number): string[] {
  const out: string[] = [];
  for (const hop of ['1-hop', '2-hop', '3-hop']) {
    const file = path.join(dir, hop, 'qa_dev.txt');
    const lines = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
    const step = Math.max(1, Math.floor(lines.length / perHop));
    for (let i = 0; i < lines.length && out.length < perHop * (['1-hop', '2-hop', '3-hop'].indexOf(hop) + 1); i += step) {
      out.push(itemAt(itemAt(lines, i, `${hop} questions`).split('\t'), 0, 'question field').replace(/[[\]]/g, '').replace(/\s+/g, ' ').trim());
    }
  }
  return out;
}

/** What must not change with the load: the reading that won and its answers (labels included). */
function signature(a: Answer): string {
  if (a.partial) return 'TIMED OUT';
  return JSON.stringify({ source: a.source, form: a.form, answers: a.answers.map((x) => [x.value, x.label]), reason: a.answers.length ? undefined : a.reason });
}

function busyLoops(k: number): ChildProcess[] {
  return Array.from({ length: k }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
}

async function main(): Promise<void> {
  const n = Number(flags.n);
  const own = OWN.slice(0, Math.min(OWN.length, Math.max(0, n - 3)));
  const questions = [...metaqa(flags.data, Math.ceil((n - own.length) / 3)).slice(0, n - own.length), ...own];
  const opts: AskOptions = flags.timeout ? { timeoutMs: Number(flags.timeout) } : {};
  const g = await createGateway();
  try {
    await g.ask('who directed Forrest Gump'); // warm the parser and the store
    const run = async (label: string) => {
      const out: { sig: string; ms: number }[] = [];
      const t0 = Date.now();
      for (const q of questions) {
        const t = Date.now();
        let sig: string;
        try {
          sig = signature(await g.ask(q, opts));
        } catch (e) {
          sig = `ERROR ${(e as { code?: string }).code ?? ''} ${(e as Error).message}`;
        }
        out.push({ sig, ms: Date.now() - t });
      }
      const ms = out.map((x) => x.ms).sort((a, b) => a - b);
      console.log(`${label}: ${questions.length} questions in ${((Date.now() - t0) / 1000).toFixed(1)} s, p50 ${percentile(ms, 50)} ms, max ${ms[ms.length - 1]} ms, timed out ${out.filter((x) => x.sig === 'TIMED OUT').length}, load average ${os.loadavg()[0]?.toFixed(1)}`);
      return out;
    };
    const quiet = await run('load 0');
    const procs = flags.procs ? Number(flags.procs) : os.cpus().length;
    const children = busyLoops(procs);
    let loaded: { sig: string; ms: number }[];
    try {
      await new Promise((r) => setTimeout(r, 1000));
      loaded = await run(`${procs} busy-loop processes`);
    } finally {
      for (const c of children) c.kill('SIGKILL');
    }
    const runs = questions.map((q, i) => ({ question: q, quiet: itemAt(quiet, i, 'quiet run').sig, loaded: itemAt(loaded, i, 'loaded run').sig }));
    const differing = runs.filter((r) => r.quiet !== r.loaded && r.quiet !== 'TIMED OUT' && r.loaded !== 'TIMED OUT');
    for (const d of differing) console.log(`DIFFERENT: ${d.question}\n  load 0: ${d.quiet.slice(0, 300)}\n  loaded: ${d.loaded.slice(0, 300)}`);
    const timedOut = runs.filter((r) => r.quiet === 'TIMED OUT' || r.loaded === 'TIMED OUT').length;
    console.log(`differing answers: ${differing.length} of ${questions.length} (timed out in either run, explicitly: ${timedOut})`);
    if (flags.out) fs.writeFileSync(flags.out, JSON.stringify({ questions, quiet, loaded, differing }, null, 1));
  } finally {
    await g.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
