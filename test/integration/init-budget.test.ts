/**
 * `askgraph init` as users run it (a real process, the real Python trainer): the time budget is shared out
 * over the whole run — synthesis sized to the budget, the trainer's budget covering its tokenizer,
 * evaluation and export, the self-evaluation stopping at its share — and a pack whose parser evaluates
 * poorly is written with a loud warning that says what to do. No assertion on how long anything took.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { packageRoot } from '../../src/core';

const root = packageRoot();
const CLI = __filename.endsWith('.ts')
  ? ['--require', require.resolve('tsx/cjs'), path.join(root, 'src', 'cli', 'dev.ts')]
  : [path.join(root, 'bin', 'askgraph.js')];
const BOOKS = path.join(root, 'fixtures', 'graphs', 'books.ttl');

function askgraph(args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [...CLI, ...args], { encoding: 'utf8', timeout: 800_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('askgraph init (a process): the time budget covers the whole run; a poor parser is a loud warning', function () {
  this.timeout(900_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-init-budget-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('--minutes 1.5: synthesis sized to the budget, and the trainer plans its tokenizer, training, evaluation and export within its share', () => {
    const pack = path.join(dir, 'short');
    const r = askgraph(['init', BOOKS, '--out', pack, '--minutes', '1.5', '--size', 'tiny', '--json', '--no-progress', '--no-base-model']);
    assert.equal(r.code, 0, r.err);
    const res: { data: { train: number; valid: number }; budget: { minutes: number; trainMinutes: number }; warnings: string[] } = JSON.parse(r.out);
    // no --count: a 1.5-minute budget gets the smallest default, not 16,000 examples
    assert.equal(res.data.train + res.data.valid, 1000);
    assert.equal(res.budget.minutes, 1.5);
    assert.ok(res.budget.trainMinutes > 0 && res.budget.trainMinutes < 1.5, JSON.stringify(res.budget));
    // the trainer's plan: what ran before its loop + the loop + the estimate of what follows = its budget
    const report = JSON.parse(fs.readFileSync(path.join(pack, 'model', 'report.json'), 'utf8'));
    const plan: { minutes: number; beforeLoopSeconds: number; loopSeconds: number; afterLoopEstimateSeconds: number } | undefined = report.budget;
    assert.ok(plan, 'report.json records how the trainer shared out its budget');
    assert.equal(plan.minutes, res.budget.trainMinutes);
    assert.ok(plan.afterLoopEstimateSeconds > 0, JSON.stringify(plan));
    // (a budget already spent when the loop starts still trains its minimum of 1 s: then the plan is over, honestly)
    if (plan.loopSeconds > 1) assert.ok(plan.beforeLoopSeconds + plan.loopSeconds + plan.afterLoopEstimateSeconds <= plan.minutes * 60 + 1.5, JSON.stringify(plan));
    // every phase is in REPORT.md against the budget
    const md = fs.readFileSync(path.join(pack, 'REPORT.md'), 'utf8');
    assert.match(md, /Budget: 1\.5 minutes \(the trainer's share, tokenizer, evaluation and export included: \d+\.\d minutes\)/);
    // a warning, if any, is also in the JSON and on stderr
    for (const w of res.warnings) assert.ok(r.err.includes(`askgraph: WARNING: ${w}`), r.err);
  });

  it('a count the budget cannot make: synthesis ends at its share of --minutes with the pairs it has, and REPORT.md says so', () => {
    const pack = path.join(dir, 'cut');
    // 200,000 pairs of a small graph (tens of thousands of bounded queries) cannot be made within a 12-second budget
    const r = askgraph(['init', BOOKS, '--out', pack, '--minutes', '0.2', '--count', '200000', '--no-train', '--json', '--no-progress']);
    assert.equal(r.code, 0, r.err);
    const res = JSON.parse(r.out) as { data: { train: number; valid: number; stats: { stoppedAtBudget?: boolean; requested?: number } }; warnings: string[] };
    const made = res.data.train + res.data.valid;
    assert.ok(made > 0 && made < 200000, `${made} pairs`);
    assert.equal(res.data.stats.stoppedAtBudget, true);
    assert.equal(res.data.stats.requested, 200000);
    const md = fs.readFileSync(path.join(pack, 'REPORT.md'), 'utf8');
    assert.match(md, new RegExp(`Synthesis was ended by its share of the time budget \\(--minutes 0\\.2\\): it made ${made} of the 200000 pairs asked for`));
    assert.match(md, /the answers of the finished pack never depend on time/);
    const warning = res.warnings.find((w) => w.startsWith('synthesis made'));
    assert.ok(warning, JSON.stringify(res.warnings));
    assert.ok(r.err.includes(`askgraph: WARNING: ${warning}`), r.err);
  });

  it('a parser that evaluates poorly: the pack is written, with a loud warning on stderr saying what to do', () => {
    const pack = path.join(dir, 'poor');
    // a few optimizer steps: a parser that cannot have learned the forms
    const r = askgraph(['init', BOOKS, '--out', pack, '--count', '400', '--size', 'tiny', '--epochs', '0.05', '--no-progress', '--no-base-model']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^pack written to .* — but its parser is POOR \(see the warning\)$/m);
    assert.match(r.out, /self-evaluation on held-out synthetic questions: Hits@1 \d+\.\d%/);
    const warning = r.err.split('\n').find((l) => l.startsWith('askgraph: WARNING: the parser of this pack is poor'));
    assert.ok(warning, r.err);
    assert.match(warning, /Hits@1 \d+\.\d% on \d+ held-out synthetic questions \(below 50%\)/);
    assert.match(warning, /--minutes 30/, 'says what to do');
    assert.match(fs.readFileSync(path.join(pack, 'REPORT.md'), 'utf8'), /## Warnings\n\n- \*\*the parser of this pack is poor/);
  });
});
