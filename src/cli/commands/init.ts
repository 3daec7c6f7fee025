import * as fs from 'node:fs';
import * as path from 'node:path';
import { SingleBar } from 'cli-progress';
import { AskgraphError } from '../../core';
import { BASE_MODEL_DIR, initPack, POOR_SELF_EVAL, type InitPhase, type InitReporter } from '../../pack';
import { MODEL_SIZES, type ModelSize } from '../../train';
import { printJson, writeLine, type CliIO } from '../io';
import type { RegisterCommand } from './index';
import { trainProgressBar } from './train';

interface InitFlags {
  out: string;
  minutes?: string;
  lexicon?: string;
  count?: string;
  seed?: string;
  size?: string;
  epochs?: string;
  interpolate?: string;
  train?: boolean; // --no-train sets false
  name?: string;
  base?: string;
  baseModel?: string | false; // --no-base-model sets false
  threads?: string;
  python?: string;
  progress?: boolean;
  json?: boolean;
}

function num(name: string, v: string | undefined, integer: boolean, min = 0): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < min || (integer && !Number.isInteger(n))) {
    throw new AskgraphError('BAD_REQUEST', `--${name} must be ${integer ? 'an integer' : 'a number'} ≥ ${min}, got "${v}"`);
  }
  return n;
}

/** Progress of init on stderr: a bar (with ETA) for phases that count steps, a line for the others. */
function reporter(io: CliIO, show: boolean): InitReporter & { stop(): void } {
  let bar: SingleBar | undefined;
  const trainBar = trainProgressBar(io, show, 'init: train');
  const stopBar = () => {
    bar?.stop();
    bar = undefined;
  };
  const start = (phase: InitPhase, total?: number): void => {
    if (!show) return;
    stopBar();
    if (phase === 'train') {
      writeLine(io.stderr, 'init: train…');
      return;
    }
    if (total === undefined || phase === 'store') {
      writeLine(io.stderr, `init: ${phase}…`);
      return;
    }
    bar = new SingleBar({
      stream: io.stderr,
      format: `init: ${phase.padEnd(9)} [{bar}] {percentage}% | {value}/{total} | ETA {eta_formatted}`,
      hideCursor: false,
      clearOnComplete: false,
      noTTYOutput: true,
      notTTYSchedule: 5000,
      etaBuffer: 50,
    });
    bar.start(total, 0);
  };
  return {
    start,
    progress(phase: InitPhase, done: number, total?: number) {
      if (!show) return;
      if (!bar) {
        if (total === undefined) return;
        start(phase, total);
      }
      // (a phase without a bar has a line instead: nothing to update)
      if (total !== undefined) bar?.setTotal(total);
      bar?.update(done);
    },
    end(phase: InitPhase, ms: number, note?: string) {
      if (phase === 'train') trainBar.stop();
      stopBar();
      // peak RSS of this process so far: a phase that pulled the whole graph into memory shows here
      if (show) writeLine(io.stderr, `init: ${phase} done in ${(ms / 1000).toFixed(1)} s${note ? ` (${note})` : ''}, peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MiB`);
    },
    train: (e) => trainBar.onEvent(e),
    info(line: string) {
      if (!show) return;
      stopBar();
      writeLine(io.stderr, `init: ${line}`);
    },
    stop() {
      trainBar.stop();
      stopBar();
    },
  };
}

/**
 * `askgraph init <rdf files… | endpoint URL> --out <pack>`: a knowledge pack from the graph alone — store,
 * schema, lexicon, synthetic data, trained parser, relation vocabulary, REPORT.md.
 */
export const register: RegisterCommand = (program, io) => {
  program
    .command('init')
    .description('build a knowledge pack (store, schema, lexicon, synthetic data, trained parser, REPORT.md) from a graph alone')
    .argument('<sources...>', 'RDF / triple files (.nt .nq .ttl .trig .rdf .owl .xml .txt .tsv), or one http(s) SPARQL endpoint URL')
    .requiredOption('--out <dir>', 'pack folder to write')
    .option('--minutes <m>', 'time budget of the whole init, training included (default 10: the base model fine-tuned; from scratch 30 or more); 0 = zero-shot: the base model as it is, no training (a pack in about a minute)')
    .option('--lexicon <file>', 'an edited lexicon.json merged over the generated one (re-running keeps store and schema)')
    .option('--count <n>', 'synthetic examples (default 16000; for --minutes under 30 proportionally fewer, at least 1000)')
    .option('--seed <s>', 'random seed of sampling and training (default 1)')
    .option('--size <size>', `parser size when training from scratch: ${MODEL_SIZES.join(' | ')} (default base); a base model keeps its own size`)
    .option('--base-model <dir>', `pre-trained open-name parser to fine-tune (default: the package's ${BASE_MODEL_DIR} when it has one, else training from scratch)`)
    .option('--no-base-model', 'train the parser from scratch on the synthetic questions, even when a base model is there')
    .option('--interpolate <share>', 'the parser\'s weights SHARE of the way from the base model to the fine-tuned one (WiSE-FT), in (0, 1] (default 1: the fine-tuned weights); below 1 the parser keeps more of how the base reads people\'s questions and learns less of this graph\'s synthetic ones')
    .option('--epochs <n>', 'train for a fixed number of epochs instead of filling the time budget')
    .option('--no-train', 'no parser: the fallback readers answer')
    .option('--name <name>', 'pack name (default: the folder name)')
    .option('--base <iri>', 'base IRI for minting entities of triple files (default http://askgraph.dev/<name>/)')
    .option('--threads <n>', 'torch threads (default 2)')
    .option('--python <path>', 'python interpreter for the trainer')
    .option('--no-progress', 'no progress bars')
    .option('--json', 'print the result as JSON')
    .action(async (sources: string[], flags: InitFlags) => {
      if (flags.size !== undefined && !MODEL_SIZES.includes(flags.size as ModelSize)) {
        throw new AskgraphError('BAD_REQUEST', `--size must be one of ${MODEL_SIZES.join(', ')}, got "${flags.size}"`);
      }
      if (flags.base !== undefined && !/^https?:\/\/\S+[/#]$/.test(flags.base)) {
        const hint = fs.existsSync(flags.base) ? ' (--base is the base IRI of minted entities; a base model folder is --base-model)' : '';
        throw new AskgraphError('BAD_REQUEST', `--base must be an http(s) IRI ending in / or #, got "${flags.base}"${hint}`);
      }
      const rep = reporter(io, flags.progress !== false && !flags.json);
      let result;
      try {
        result = await initPack({
          sources,
          out: flags.out,
          minutes: num('minutes', flags.minutes, false, 0),
          lexicon: flags.lexicon,
          count: num('count', flags.count, true, 1),
          seed: num('seed', flags.seed, true),
          size: flags.size as ModelSize | undefined,
          ...(flags.baseModel !== undefined ? { baseModel: flags.baseModel } : {}),
          epochs: num('epochs', flags.epochs, false, 0.01),
          interpolate: num('interpolate', flags.interpolate, false, 0),
          train: flags.train !== false,
          name: flags.name,
          baseIri: flags.base,
          threads: num('threads', flags.threads, true, 1),
          python: flags.python,
          env: io.env,
          reporter: rep,
        });
      } finally {
        rep.stop();
      }
      // warnings (a poor parser, a run over its budget) on stderr, loudly, whatever the output format
      for (const w of result.warnings) writeLine(io.stderr, `askgraph: WARNING: ${w}`);
      if (flags.json) {
        const { schema, ...rest } = result;
        printJson(io, { ...rest, schema: { classes: schema.classes.length, properties: schema.properties.length, labelSources: schema.labelSources } });
        return;
      }
      const out = (s: string) => writeLine(io.stdout, s);
      const poor = result.selfEval !== undefined && result.selfEval.overall.hits1 < POOR_SELF_EVAL;
      out(`pack written to ${result.out} (${(result.packBytes / 1048576).toFixed(1)} MiB, ${(result.totalMs / 1000).toFixed(0)} s${result.budget.minutes > 0 ? ` of a ${result.budget.minutes}-minute budget` : ', zero-shot: no training'})${poor ? ' — but its parser is POOR (see the warning)' : ''}`);
      if (result.base) out(`  parser: ${result.base.zeroShot ? 'zero-shot base model' : 'fine-tuned from the base model'} ${result.base.dir}${result.base.version ? ` (${result.base.version})` : ''}`);
      out(`  ${result.schema.classes.length} classes, ${result.schema.properties.length} properties; ${result.data.train} training / ${result.data.valid} held-out synthetic questions`);
      if (result.selfEval) {
        const e = result.selfEval.overall;
        out(`  self-evaluation on held-out synthetic questions: Hits@1 ${(100 * e.hits1).toFixed(1)}%, form EM ${e.em === null ? '—' : (100 * e.em).toFixed(1) + '%'} (n=${e.n})`);
      }
      out(`  report: ${path.join(result.out, 'REPORT.md')}`);
      out(`  ask:    askgraph ask --store ${flags.out} "…"`);
    });
};
