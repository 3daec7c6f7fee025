import * as fs from 'node:fs';
import * as path from 'node:path';
import { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { AskgraphError } from '../../core';
import { packCompileOptions } from '../../compile';
import { openExecutor, packOfStore } from '../../execute';
import {
  loadDataset,
  markdownReport,
  oracleRunner,
  pipelineRunner,
  runExamples,
  sampleExamples,
  summarize,
  toJsonl,
  type Asker,
  type AskOptionsLike,
  type DatasetFormat,
  type EvalSummary,
  type ExampleRunner,
} from '../../eval';
import { printJson, writeLine, type CliIO } from '../io';
import { intArg } from '../options';
import type { RegisterCommand } from './index';

interface EvalFlags {
  dataset: string;
  format?: DatasetFormat;
  limit?: number;
  sample?: number;
  seed: number;
  store?: string;
  model?: string;
  beam?: number;
  oracle?: boolean;
  keepTopic?: boolean;
  parser?: boolean; // --no-parser sets false
  parserNames?: string;
  fallback?: string;
  timeout?: number;
  json?: boolean;
  out?: string;
  markdown?: string;
  predictions?: string;
}

/**
 * The pipeline's gateway, the same one `askgraph ask` uses. Loaded on first use so that `askgraph diff` and
 * `eval --oracle` do not pay for the model runtime.
 */
async function openGateway(flags: EvalFlags, io: CliIO): Promise<Asker & { close(): Promise<void> }> {
  const { createGateway } = require('../../pipeline') as typeof import('../../pipeline');
  return createGateway({
    ...(flags.store ? { store: flags.store } : {}),
    ...(flags.model ? { model: flags.model } : {}),
    ...(flags.parserNames ? { parserNames: flags.parserNames as 'free' | 'graph' } : {}),
    progress: io.stderr,
  });
}

function textSummary(io: CliIO, s: EvalSummary): void {
  const pct = (x: number | null) => (x === null ? '—' : (100 * x).toFixed(2) + '%');
  const ms = (x: number | null) => (x === null ? '—' : x.toFixed(1) + ' ms');
  writeLine(io.stdout, `${s.dataset}: ${s.count} questions (${s.mode})`);
  writeLine(io.stdout, `  F1 ${pct(s.f1)}   Hits@1 ${pct(s.hits1)}   Hit ${pct(s.hit)}   Acc ${pct(s.acc)}`);
  if (s.mode === 'pipeline') writeLine(io.stdout, `  EM ${pct(s.em)}   BM ${pct(s.bm)}   SM ${pct(s.sm)}`);
  writeLine(io.stdout, `  executable ${pct(s.executable)}   fallback ${pct(s.fallback)}   no answer ${pct(s.noAnswer)}`);
  writeLine(io.stdout, `  latency p50 ${ms(s.latency.p50)}   p95 ${ms(s.latency.p95)}   max ${ms(s.latency.max)}   ${s.qps === null ? '—' : s.qps.toFixed(2)} q/s`);
  const st = s.stages;
  writeLine(io.stdout, `  mean by stage: generate ${ms(st.generate.mean)}, ground ${ms(st.ground.mean)}, execute ${ms(st.execute.mean)}, fallback ${ms(st.fallback.mean)}`);
  for (const [hop, g] of Object.entries(s.byHop)) {
    writeLine(io.stdout, `  ${hop}-hop: ${g.count} questions, F1 ${pct(g.f1)}, Hits@1 ${pct(g.hits1)}, Acc ${pct(g.acc)}${g.em === null ? '' : `, EM ${pct(g.em)}`}`);
  }
}

export const register: RegisterCommand = (program, io) => {
  program
    .command('eval')
    .description('score the pipeline (or, with --oracle, the gold forms on the store) on a data set')
    .requiredOption('--dataset <file>', 'data set: JSON Lines (askgraph format), MetaQA native lines, or QALD JSON')
    .option('--format <format>', 'jsonl | metaqa | qald (default: from the extension)')
    .option('--limit <n>', 'only the first n examples (after --sample)', intArg('--limit', 0))
    .option('--sample <n>', 'a seeded random sample of n examples', intArg('--sample', 0))
    .option('--seed <s>', 'seed for --sample', intArg('--seed', 0), 1)
    .option('--store <dir|url>', 'knowledge pack / store directory, or a SPARQL endpoint URL (default: the movies pack)')
    .option('--model <dir>', 'parser model folder')
    .option('--beam <k>', 'beam size', intArg('--beam', 0))
    .option('--parser-names <free|graph>', 'open-name parser models: only the store\'s relations and classes (graph, the default) or any name (free)')
    .option('--oracle', 'execute the gold forms instead of generating (upper bound of store + compiler)')
    .option('--keep-topic', 'oracle: keep the topic entities among the answers (PathQuestion answers may be the topic itself)')
    .option('--no-parser', 'fallback readers only')
    .option('--fallback <off|r1,r2>', "fallback readers: 'off' or a comma-separated list")
    .option('--timeout <ms>', 'time budget per question', intArg('--timeout', 0))
    .option('--json', 'print the summary as one JSON object')
    .option('--out <file>', 'write the full report (summary + every example) as JSON')
    .option('--markdown <file>', 'write a report for people (breakdowns, failures) as markdown')
    .option('--predictions <file>', 'write JSON Lines {id, form, answers} (input for `askgraph diff`)')
    .action(async (flags: EvalFlags, command: Command) => {
      const format = flags.format;
      if (format !== undefined && !['jsonl', 'metaqa', 'qald'].includes(format)) {
        throw new AskgraphError('BAD_REQUEST', `--format must be jsonl, metaqa or qald, got ${format}`);
      }
      const { limit, sample, seed, beam, timeout: timeoutMs } = flags;
      const pack = (await packOfStore(flags.store))?.config;
      let examples = loadDataset(flags.dataset, format, pack ? packCompileOptions(pack) : {});
      if (sample !== undefined) examples = sampleExamples(examples, sample, seed);
      if (limit !== undefined) examples = examples.slice(0, limit);
      const dataset = path.basename(flags.dataset);
      const mode = flags.oracle ? 'oracle' : 'pipeline';
      if (flags.keepTopic && !flags.oracle) throw new AskgraphError('BAD_REQUEST', '--keep-topic applies to --oracle only');
      if (flags.parserNames !== undefined && !['free', 'graph'].includes(flags.parserNames)) {
        throw new AskgraphError('BAD_REQUEST', `--parser-names must be free or graph, got ${flags.parserNames}`);
      }

      let runner: ExampleRunner;
      let close: () => Promise<void>;
      if (flags.oracle) {
        const executor = await openExecutor(flags.store);
        runner = oracleRunner({ executor, ...(pack ? { pack } : {}), ...(timeoutMs ? { timeoutMs } : {}), keepTopic: flags.keepTopic === true });
        close = () => executor.close();
      } else {
        const gateway = await openGateway(flags, io);
        const askOpts: AskOptionsLike = {
          ...(beam !== undefined ? { beam } : {}),
          ...(timeoutMs !== undefined ? { timeoutMs } : {}),
          ...(flags.parser === false ? { noParser: true } : {}),
          ...(flags.fallback !== undefined
            ? { fallback: flags.fallback === 'off' ? ('off' as const) : flags.fallback.split(',').map((s) => s.trim()).filter(Boolean) }
            : {}),
        };
        runner = pipelineRunner(gateway, askOpts);
        close = () => gateway.close();
      }

      const bar =
        examples.length > 20
          ? new SingleBar({ stream: io.stderr, format: 'eval [{bar}] {value}/{total} {eta_formatted}', hideCursor: false, clearOnComplete: true })
          : undefined;
      bar?.start(examples.length, 0);
      let run;
      try {
        run = await runExamples(examples, runner, { mode, noParser: flags.parser === false, onProgress: (done) => bar?.update(done) });
      } finally {
        bar?.stop();
        await close();
      }
      const summary = summarize(run.results, run.wallMs, mode, dataset);
      if (flags.out) fs.writeFileSync(flags.out, JSON.stringify({ summary, examples: run.results }, null, 2) + '\n');
      if (flags.markdown) {
        const given = Object.entries(flags).filter(([k]) => command.getOptionValueSource(k) === 'cli');
        const line = ['askgraph eval', ...given.map(([k, v]) => {
          const flag = '--' + k.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());
          return v === true ? flag : v === false ? flag.replace(/^--/, '--no-') : `${flag} ${v}`;
        })].join(' ');
        fs.writeFileSync(flags.markdown, markdownReport(summary, run.results, { command: line }) + '\n');
      }
      if (flags.predictions) {
        fs.writeFileSync(flags.predictions, toJsonl(run.results.map((r) => ({ id: r.id, form: r.form, answers: r.predicted }))));
      }
      if (flags.json) printJson(io, summary);
      else textSummary(io, summary);
    });
};
