/**
 * Training from TypeScript: spawns the Python trainer (train/askgraph_train.py on Debian's python3-torch)
 * with the CPU fixes, turns its JSON-lines progress on stdout into events, keeps the tail of its stderr,
 * and fails with TRAINING_FAILED (python or torch missing, trainer error) carrying that tail.
 * The model folder it writes follows the model-folder contract (see src/generate).
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AskgraphError, packageRoot } from '../core';
import { parseForm } from '../form';
import { WORD_VECTOR_FILES } from '../ground';

export type ModelSize = 'tiny' | 'small' | 'base';
export const MODEL_SIZES: readonly ModelSize[] = ['tiny', 'small', 'base'];
export const DEFAULT_PYTHON = '/usr/bin/python3';

export interface TrainOptions {
  /** Training JSON Lines ({question, form} per line). */
  data: string;
  /** Validation JSON Lines (reporting only; never trained on). */
  valid?: string;
  /** Model folder to write. */
  out: string;
  epochs?: number;
  /**
   * Wall-time budget of the whole trainer run — data, tokenizer, training, probes, final evaluation, export,
   * the Node validation: the loop stops early enough for the rest (the LR schedule then follows elapsed
   * time; not bit-reproducible). report.json's `budget` shows how it was shared out.
   */
  minutes?: number;
  seed?: number;
  size?: ModelSize;
  /** Files of graph labels, one a line (tokenizer + entity-substitution pool). */
  labels?: string[];
  /** head|relation|tail triple files (labels + role pools for entity substitution). */
  kb?: string[];
  /** Use a seeded sample of N training examples. */
  maxTrain?: number;
  vocabSize?: number;
  /** Validation questions evaluated after each epoch (0 = none). */
  probe?: number;
  /** Beam for the final evaluation (0 = greedy only). */
  beam?: number;
  /** Validation questions for the final evaluation (default all). */
  finalEval?: number;
  threads?: number;
  /** Checkpoint file (default: next to the output folder, removed after a successful run). */
  checkpoint?: string;
  /** Start from this checkpoint's weights, tokenizer and symbols (continued training on new data). */
  initFrom?: string;
  /**
   * Frozen pre-trained word vectors in the encoder (issue 20, item 4): a folder with glove-100d-int8.bin and
   * glove-100d-vocab.txt (the package's assets/lexical). A run continued from a model that has them keeps them.
   */
  wordVectors?: string;
  /**
   * With `initFrom`: the exported weights lie this share of the way from the initial weights to the trained ones
   * (weight-space ensembling, WiSE-FT); in (0, 1], 1 (the default) = the trained weights.
   */
  interpolate?: number;
  /** More raw trainer flags, appended as given. */
  extraArgs?: string[];
  /** Python interpreter (default $ASKGRAPH_PYTHON or /usr/bin/python3). */
  python?: string;
  /** The trainer script (default <package>/train/askgraph_train.py). */
  script?: string;
  env?: NodeJS.ProcessEnv;
  onEvent?: (event: TrainEvent) => void;
  onStderr?: (line: string) => void;
  signal?: AbortSignal;
}

/** One progress object from the trainer's stdout: start, step, epoch, phase, done. */
export interface TrainEvent {
  event: string;
  [key: string]: unknown;
}

export interface TrainResult {
  out: string;
  /** The trainer's final "done" event. */
  done: TrainEvent;
  events: TrainEvent[];
  /** report.json of the model folder. */
  report: Record<string, unknown>;
  seconds: number;
}

const STDERR_TAIL = 20;

export function trainerScript(): string {
  return path.join(packageRoot(), 'train', 'askgraph_train.py');
}

export function pythonPath(opts: { python?: string; env?: NodeJS.ProcessEnv } = {}): string {
  return opts.python ?? opts.env?.ASKGRAPH_PYTHON ?? process.env.ASKGRAPH_PYTHON ?? DEFAULT_PYTHON;
}

/** A share of the fine-tuned weights (--interpolate) is in (0, 1]: BAD_REQUEST otherwise. */
export function checkInterpolate(share: number): void {
  if (!(share > 0 && share <= 1)) throw new AskgraphError('BAD_REQUEST', `--interpolate must be a number in (0, 1], got ${share}`);
}

/** The trainer's argv (after the script path) for the given options. */
export function trainerArgs(o: TrainOptions): string[] {
  const a: string[] = ['--data', o.data, '--out', o.out];
  const num = (flag: string, v: number | undefined, integer: boolean, min = 0) => {
    if (v === undefined) return;
    if (!Number.isFinite(v) || v < min || (integer && !Number.isInteger(v))) {
      throw new AskgraphError('BAD_REQUEST', `--${flag} must be ${integer ? 'an integer' : 'a number'} ≥ ${min}, got ${v}`);
    }
    a.push('--' + flag, String(v));
  };
  if (o.valid) a.push('--valid', o.valid);
  num('epochs', o.epochs, false, 0.01);
  num('minutes', o.minutes, false, 0.01);
  num('seed', o.seed, true);
  if (o.size !== undefined) {
    if (!MODEL_SIZES.includes(o.size)) throw new AskgraphError('BAD_REQUEST', `--size must be one of ${MODEL_SIZES.join(', ')}, got ${o.size}`);
    a.push('--size', o.size);
  }
  for (const f of o.labels ?? []) a.push('--labels', f);
  for (const f of o.kb ?? []) a.push('--kb', f);
  num('max-train', o.maxTrain, true, 1);
  num('vocab-size', o.vocabSize, true, 16);
  num('probe', o.probe, true);
  num('beam', o.beam, true);
  num('final-eval', o.finalEval, true, 1);
  num('threads', o.threads, true, 1);
  if (o.checkpoint) a.push('--checkpoint', o.checkpoint);
  if (o.initFrom) a.push('--init-from', o.initFrom);
  if (o.wordVectors) a.push('--word-vectors', o.wordVectors);
  if (o.interpolate !== undefined) {
    checkInterpolate(o.interpolate);
    if (o.interpolate < 1 && !o.initFrom) throw new AskgraphError('BAD_REQUEST', '--interpolate below 1 needs --init-from: the weights to interpolate from');
    a.push('--interpolate', String(o.interpolate));
  }
  a.push(...(o.extraArgs ?? []));
  return a;
}

/** The environment the trainer runs with: passive OpenMP waiting (2 shared cores), unbuffered output. */
export function trainerEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...base, OMP_WAIT_POLICY: 'PASSIVE', PYTHONUNBUFFERED: '1', PYTHONIOENCODING: 'utf-8' };
}

/** Splits a byte stream into lines. */
function lineSplitter(onLine: (line: string) => void): { push(chunk: Buffer | string): void; end(): void } {
  let buf = '';
  return {
    push(chunk) {
      buf += chunk.toString();
      let i: number;
      while ((i = buf.indexOf('\n')) >= 0) {
        onLine(buf.slice(0, i));
        buf = buf.slice(i + 1);
      }
    },
    end() {
      if (buf.length) onLine(buf);
      buf = '';
    },
  };
}

/** A trainer stdout line as an event, or undefined when it is not one. */
export function parseEventLine(line: string): TrainEvent | undefined {
  const t = line.trim();
  if (!t.startsWith('{')) return undefined;
  try {
    const v = JSON.parse(t) as unknown;
    if (v && typeof v === 'object' && typeof (v as TrainEvent).event === 'string') return v as TrainEvent;
  } catch {
    /* not an event */
  }
  return undefined;
}

interface RunOutcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderrTail: string[];
  error?: Error;
}

function run(python: string, args: string[], env: NodeJS.ProcessEnv, onStdout: (l: string) => void, onStderr: (l: string) => void, signal?: AbortSignal): Promise<RunOutcome> {
  return new Promise((resolve) => {
    const tail: string[] = [];
    let settled = false;
    const finish = (o: Omit<RunOutcome, 'stderrTail'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...o, stderrTail: tail });
    };
    let child;
    try {
      child = spawn(python, args, { env, stdio: ['ignore', 'pipe', 'pipe'], signal });
    } catch (e) {
      finish({ code: null, signal: null, error: e as Error });
      return;
    }
    const out = lineSplitter(onStdout);
    const err = lineSplitter((l) => {
      tail.push(l);
      if (tail.length > STDERR_TAIL) tail.shift();
      onStderr(l);
    });
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', (e) => finish({ code: null, signal: null, error: e }));
    child.on('close', (code, sig) => {
      out.end();
      err.end();
      finish({ code, signal: sig });
    });
  });
}

function failure(message: string, o: RunOutcome, extra: Record<string, unknown> = {}): AskgraphError {
  const tail = o.stderrTail.filter((l) => l.trim().length > 0);
  const last = tail.slice(-8).join('\n');
  return new AskgraphError('TRAINING_FAILED', last ? `${message}\n${last}` : message, {
    details: { exitCode: o.code, signal: o.signal, stderr: tail, ...extra },
    ...(o.error ? { cause: o.error } : {}),
  });
}

/** Checks that the interpreter exists and can import torch, sentencepiece and onnx; returns the torch version. */
export async function checkTrainer(opts: { python?: string; env?: NodeJS.ProcessEnv } = {}): Promise<string> {
  const python = pythonPath(opts);
  let version = '';
  const o = await run(
    python,
    ['-c', 'import torch, sentencepiece, onnx; print(torch.__version__)'],
    trainerEnv(opts.env),
    (l) => {
      if (l.trim()) version = l.trim();
    },
    () => undefined, // the version probe's stderr is not shown
  );
  if (o.error) {
    const missing = (o.error as NodeJS.ErrnoException).code === 'ENOENT';
    throw failure(missing ? `python not found: ${python} (install python3, python3-torch, python3-sentencepiece, python3-onnx)` : `cannot run ${python}: ${o.error.message}`, o, { python });
  }
  if (o.code !== 0) {
    const text = o.stderrTail.join('\n');
    const mod = /No module named '([^']+)'/.exec(text)?.[1];
    throw failure(
      mod ? `${python} cannot import ${mod} (Debian: apt-get install python3-torch python3-sentencepiece python3-onnx)` : `${python} cannot load torch/sentencepiece/onnx`,
      o,
      { python },
    );
  }
  return version;
}

/** The bare names of a form that become model symbols, told apart by the form grammar (the trainer reads tokens only). */
export interface FormNames {
  relations: string[];
  classes: string[];
}

/**
 * Relation and class names used by the training forms, from the parsed forms (any operator: the walk
 * looks at the AST's relation and class nodes wherever they stand). Lines whose form does not parse are
 * skipped here; the trainer reports them.
 */
export function formNames(dataFile: string): FormNames {
  const relations = new Set<string>();
  const classes = new Set<string>();
  const walk = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) { node.forEach(walk); return; }
    const n = node as { kind?: string; ref?: { kind: string; name?: string } };
    if (n.kind === 'rel' && n.ref?.kind === 'name' && n.ref.name) relations.add(n.ref.name);
    if (n.kind === 'class' && n.ref?.kind === 'name' && n.ref.name) classes.add(n.ref.name);
    for (const v of Object.values(node)) if (v && typeof v === 'object') walk(v);
  };
  for (const line of fs.readFileSync(dataFile, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      const form = (JSON.parse(line) as { form?: unknown }).form;
      if (typeof form === 'string') walk(parseForm(form));
    } catch {
      /* a line that is not JSON or a form that does not parse: the trainer skips and counts it */
    }
  }
  return { relations: [...relations].sort(), classes: [...classes].sort() };
}

/** Trains a parser and writes the model folder; resolves with the trainer's report. */
export async function train(opts: TrainOptions): Promise<TrainResult> {
  const t0 = Date.now();
  for (const [name, f] of [['--data', opts.data], ['--valid', opts.valid], ...(opts.labels ?? []).map((l) => ['--labels', l]), ...(opts.kb ?? []).map((l) => ['--kb', l])] as [string, string | undefined][]) {
    if (f !== undefined && !fs.existsSync(f)) throw new AskgraphError('NOT_FOUND', `${name} file not found: ${f}`);
  }
  const vectors = opts.wordVectors;
  const files = Object.values(WORD_VECTOR_FILES);
  for (const f of vectors ? files.map((n) => path.join(vectors, n)) : []) {
    if (!fs.existsSync(f)) throw new AskgraphError('NOT_FOUND', `--word-vectors: ${f} not found (the folder needs ${files.join(' and ')}, as the package's assets/lexical has)`);
  }
  const args = trainerArgs(opts);
  // The trainer tells relations from classes by this file: the grammar lives on the TypeScript side.
  const namesFile = `${path.resolve(opts.out).replace(/[\\/]+$/, '')}.names.json`;
  fs.mkdirSync(path.dirname(namesFile), { recursive: true });
  fs.writeFileSync(namesFile, JSON.stringify(formNames(opts.data)));
  args.push('--names', namesFile);
  const python = pythonPath(opts);
  await checkTrainer({ python, env: opts.env });
  const script = opts.script ?? trainerScript();
  if (!fs.existsSync(script)) throw new AskgraphError('TRAINING_FAILED', `trainer script not found: ${script}`);
  const events: TrainEvent[] = [];
  let done: TrainEvent | undefined;
  const o = await run(
    python,
    [script, ...args],
    trainerEnv(opts.env ?? process.env),
    (line) => {
      const e = parseEventLine(line);
      if (!e) return;
      if (e.event !== 'step') events.push(e);
      if (e.event === 'done') done = e;
      opts.onEvent?.(e);
    },
    (line) => opts.onStderr?.(line),
    opts.signal,
  );
  fs.rmSync(namesFile, { force: true });
  if (o.error) throw failure(`the trainer could not run: ${o.error.message}`, o, { python, script });
  if (o.code !== 0 || !done) {
    throw failure(`the trainer failed (${o.signal ? `signal ${o.signal}` : `exit code ${String(o.code)}`})`, o, { python, script, args });
  }
  const reportFile = path.join(opts.out, 'report.json');
  let report: Record<string, unknown> = {};
  try {
    report = JSON.parse(fs.readFileSync(reportFile, 'utf8')) as Record<string, unknown>;
  } catch (e) {
    throw failure(`the trainer finished but wrote no readable ${reportFile}`, o, { cause: String(e) });
  }
  // Decoding rules live in src/generate: the reported validation numbers must be the Node decoder's
  // (the trainer runs src/train/validate.ts after export); the PyTorch numbers are only a probe.
  const v = report.validation as { decoder?: unknown; probe?: unknown; nodeUnavailable?: unknown } | undefined;
  if (v?.probe !== undefined && v.decoder !== 'node') {
    throw failure(`the trainer could not measure the validation with the Node decoder: ${String(v.nodeUnavailable)}`, o, { reportFile });
  }
  return { out: opts.out, done, events, report, seconds: (Date.now() - t0) / 1000 };
}
