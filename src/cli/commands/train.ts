import { SingleBar } from 'cli-progress';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AskgraphError } from '../../core';
import { lexicalDir } from '../../ground';
import { PACK_FILE, packOfStore, refreshPackManifest } from '../../execute';
import { MODEL_SIZES, train, type ModelSize, type TrainEvent } from '../../train';
import { printJson, writeLine, type CliIO } from '../io';
import { intArg } from '../options';
import type { RegisterCommand } from './index';

interface TrainFlags {
  data: string;
  valid?: string;
  out: string;
  epochs?: string;
  minutes?: string;
  seed?: number;
  size?: string;
  labels?: string[];
  kb?: string[];
  checkpoint?: string;
  initFrom?: string;
  interpolate?: string;
  wordVectors?: string | boolean;
  maxTrain?: number;
  vocabSize?: number;
  probe?: number;
  beam?: number;
  finalEval?: number;
  threads?: number;
  python?: string;
  progress?: boolean; // --no-progress sets false
  json?: boolean;
}

/** The two options that take fractions (integers: intArg). */
function num(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new AskgraphError('BAD_REQUEST', `--${name} must be a non-negative number, got "${v}"`);
  return n;
}

const collect = (v: string, prev: string[] = []) => [...prev, v];

export function fmtSec(s: unknown): string {
  if (typeof s !== 'number' || !Number.isFinite(s)) return '?';
  const m = Math.floor(s / 60);
  return m > 0 ? `${m}m${String(Math.round(s % 60)).padStart(2, '0')}s` : `${Math.round(s)}s`;
}

export function pct(x: unknown): string {
  return typeof x === 'number' ? (100 * x).toFixed(2) + '%' : '–';
}

/**
 * The training progress bar (steps, epoch, loss, validation EM, time left) on stderr, fed by the
 * trainer's events; shared by `askgraph train` and `askgraph init`.
 */
export function trainProgressBar(io: CliIO, show: boolean, label = 'train'): { onEvent: (e: TrainEvent) => void; stop: () => void } {
  let bar: SingleBar | undefined;
  const payload = { epoch: 0, loss: '–', em: '–', left: '?' };
  let budgetSec: number | undefined;
  const position = (e: TrainEvent) => {
    if (budgetSec === undefined) return Number(e.step);
    const el = Number(e.elapsedSec);
    const left = Number(e.etaSec);
    // elapsed when the trainer reports it (step events), else budget minus time left
    return Math.min(budgetSec, Number.isFinite(el) ? el : Number.isFinite(left) ? budgetSec - left : 0);
  };
  const onEvent = (e: TrainEvent) => {
    if (!show) return;
    if (e.event === 'start') {
      bar = new SingleBar({
        stream: io.stderr,
        format: `${label} [{bar}] {percentage}% | epoch {epoch} | loss {loss} | valid EM {em} | left {left}`,
        hideCursor: false,
        clearOnComplete: false,
        noTTYOutput: true,
        notTTYSchedule: 5000,
      });
      // With a time budget (--minutes) the bar counts seconds of the budget, else training steps.
      budgetSec = typeof e.minutes === 'number' && e.minutes > 0 ? Math.round(e.minutes * 60) : undefined;
      bar.start(budgetSec ?? (Number(e.totalSteps) || 1), 0, payload);
    } else if (e.event === 'step' && bar) {
      payload.epoch = Number(e.epoch);
      payload.loss = String(e.loss);
      payload.left = fmtSec(e.etaSec);
      bar.update(position(e), payload);
    } else if (e.event === 'epoch' && bar) {
      payload.epoch = Number(e.epoch);
      payload.loss = String(e.loss);
      payload.em = pct(e.validEm);
      payload.left = fmtSec(e.etaSec);
      bar.update(position(e), payload);
    } else if (e.event === 'phase') {
      if (bar) {
        bar.stop();
        bar = undefined;
      }
      writeLine(io.stderr, `${label}: ${String(e.name)}…`);
    }
  };
  return {
    onEvent,
    stop: () => {
      bar?.stop();
      bar = undefined;
    },
  };
}

/** `askgraph train`: trains a parser with the Python trainer and writes a model folder. */
export const register: RegisterCommand = (program, io) => {
  program
    .command('train')
    .description('train a question → logical-form parser (Python + torch on CPU) and write a model folder')
    .requiredOption('--data <file>', 'training JSON Lines ({question, form} per line)')
    .option('--valid <file>', 'validation JSON Lines (never trained on; evaluated for the report)')
    .requiredOption('--out <dir>', 'model folder to write')
    .option('--epochs <n>', 'epochs (default 6)')
    .option('--minutes <m>', 'wall-time budget of the whole run: tokenizer, training, evaluation and export (the LR schedule then follows the clock)')
    .option('--seed <s>', 'random seed (same seed + same data + --epochs = same model)', intArg('--seed', 0))
    .option('--size <size>', `model size: ${MODEL_SIZES.join(' | ')} (default base)`)
    .option('--labels <file>', 'graph labels, one a line (tokenizer + entity substitution); repeatable', collect)
    .option('--kb <file>', 'head|relation|tail triples (labels + same-role entity substitution); repeatable', collect)
    .option('--max-train <n>', 'train on a seeded sample of N examples', intArg('--max-train', 0))
    .option('--vocab-size <n>', 'sentencepiece pieces', intArg('--vocab-size', 0))
    .option('--probe <n>', 'validation questions evaluated after each epoch', intArg('--probe', 0))
    .option('--beam <k>', 'beam for the final validation numbers (0 = greedy only)', intArg('--beam', 0))
    .option('--final-eval <n>', 'validation questions in the final evaluation (default all)', intArg('--final-eval', 0))
    .option('--threads <n>', 'torch threads (default 2)', intArg('--threads', 0))
    .option('--checkpoint <file>', 'checkpoint file to keep (default: beside --out, removed after a successful run)')
    .option('--init-from <path>', 'start from a checkpoint file or an exported model folder (weights, tokenizer, symbols): continued training on new data')
    .option('--interpolate <share>', 'with --init-from: export the weights SHARE of the way from the initial ones to the trained ones (WiSE-FT), in (0, 1]; default 1, the trained weights')
    .option('--word-vectors [dir]', 'frozen GloVe 100d vectors for the question\'s whole words in the encoder (default dir: the package\'s assets/lexical)')
    .option('--python <path>', 'python interpreter (default $ASKGRAPH_PYTHON or /usr/bin/python3)')
    .option('--no-progress', 'no progress bar')
    .option('--json', 'print the final report as JSON')
    .action(async (flags: TrainFlags) => {
      if (flags.size !== undefined && !MODEL_SIZES.includes(flags.size as ModelSize)) {
        throw new AskgraphError('BAD_REQUEST', `--size must be one of ${MODEL_SIZES.join(', ')}, got "${flags.size}"`);
      }
      const progress = trainProgressBar(io, flags.progress !== false && !flags.json);
      const onEvent = progress.onEvent;
      let result;
      try {
        result = await train({
          data: flags.data,
          valid: flags.valid,
          out: flags.out,
          epochs: num('epochs', flags.epochs),
          minutes: num('minutes', flags.minutes),
          seed: flags.seed,
          size: flags.size as ModelSize | undefined,
          labels: flags.labels,
          kb: flags.kb,
          maxTrain: flags.maxTrain,
          vocabSize: flags.vocabSize,
          probe: flags.probe,
          beam: flags.beam,
          finalEval: flags.finalEval,
          threads: flags.threads,
          python: flags.python,
          ...(flags.checkpoint ? { checkpoint: flags.checkpoint } : {}),
          ...(flags.initFrom ? { initFrom: flags.initFrom } : {}),
          ...(flags.interpolate !== undefined ? { interpolate: num('interpolate', flags.interpolate) } : {}),
          ...(flags.wordVectors ? { wordVectors: flags.wordVectors === true ? lexicalDir() : flags.wordVectors } : {}),
          env: io.env,
          onEvent,
        });
      } finally {
        progress.stop();
      }
      await refreshManifestOfModelPack(result.out);
      const r = result.report;
      if (flags.json) {
        printJson(io, { out: result.out, seconds: result.seconds, report: r });
        return;
      }
      const v = (r.validation ?? {}) as {
        decoder?: string;
        em?: number;
        inBeam?: number;
        beam?: number;
        probe?: { constrained?: { em?: number; unseen?: { em?: number } } };
      };
      writeLine(io.stdout, `model ${String(r.version)} written to ${result.out}`);
      writeLine(
        io.stdout,
        `  ${String(r.epochs)} epochs, training ${fmtSec(r.trainSeconds)}, ${String(r.examplesPerSec)} examples/s, whole run ${fmtSec(result.seconds)}`,
      );
      if (v.decoder === 'node') {
        writeLine(io.stdout, `  validation (Node decoder, beam ${String(v.beam)}): EM ${pct(v.em)}, gold in beam ${pct(v.inBeam)}`);
      }
      if (v.probe?.constrained) {
        writeLine(io.stdout, `  training-time probe (PyTorch constrained greedy): EM ${pct(v.probe.constrained.em)}, unseen-entity EM ${pct(v.probe.constrained.unseen?.em)}`);
      }
    });
};

/** A model trained into a pack's own model folder: the pack's manifest records the new files (see verifyPack). */
async function refreshManifestOfModelPack(out: string): Promise<void> {
  const packDir = path.dirname(path.resolve(out));
  if (!fs.existsSync(path.join(packDir, PACK_FILE))) return;
  const pack = await packOfStore(packDir).catch(() => undefined);
  if (pack?.config.model && path.resolve(packDir, pack.config.model) === path.resolve(out)) refreshPackManifest(packDir, { onlyIfPresent: true });
}
