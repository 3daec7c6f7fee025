import * as fs from 'node:fs';
import * as readline from 'node:readline';
import { Option } from 'commander';
import { Readable } from 'node:stream';
import { AskgraphError, DEFAULT_BEAM, defined, toAskgraphError, type Answer, type AnswerItem } from '../../core';
import { cpuMs, createGateway, failureOf, validateQuestion, type AskOptions, type Gateway, type StartupPhase } from '../../pipeline';
import { ExitCode, printJson, writeLine, type CliIO } from '../io';
import { intArg } from '../options';
import { textTable } from '../table';
import { answerToDelimited } from '../../core';
import type { RegisterCommand } from './index';

interface AskCliOpts {
  store?: string;
  model?: string;
  beam?: number;
  json?: boolean;
  explain?: boolean;
  fallback?: string;
  timeout?: number;
  file?: string;
  generator?: string;
  generatorModel?: string;
  /** commander's --no-parser: false when given. */
  parser?: boolean;
  /** --format: text (default), json (as --json), csv or tsv (the answer as a table, answer-table.ts). */
  format?: 'text' | 'json' | 'csv' | 'tsv';
  /** --iris: IRIs beside the labels (table answers get an IRI column per entity column). */
  iris?: boolean;
}

function showAnswer(a: AnswerItem): string {
  return a.type === 'literal' ? a.value : (a.label ?? `<${a.value}>`);
}

function ms(x: number): string {
  return `${x.toFixed(1)} ms`;
}

function printExplain(write: (s: string) => void, a: Answer): void {
  write('');
  write('trace:');
  a.trace.forEach((t, i) => {
    const head = `${String(i + 1).padStart(3)}. ${t.stage.padEnd(8)} ${t.outcome.padEnd(7)} ${ms(t.timeMs).padStart(9)}`;
    const bits = [
      t.reader ? `reader ${t.reader}` : '',
      t.score !== undefined ? `score ${t.score.toFixed(3)}` : '',
      t.answerCount !== undefined ? `${t.answerCount} answer(s)` : '',
      t.note ?? '',
    ].filter(Boolean);
    write(`${head}  ${bits.join(' · ')}`);
    if (t.beamForm) write(`       beam form:     ${t.beamForm}`);
    if (t.groundedForm && t.groundedForm !== t.beamForm) write(`       grounded form: ${t.groundedForm}`);
    if (t.error) write(`       error: ${t.error.code}: ${t.error.message}`);
  });
  write('');
  write('beam:');
  a.beam.forEach((b, i) => write(`  ${i}. ${b.logProb.toFixed(3).padStart(8)}  ${b.form}`));
  const t = a.timings;
  write('');
  write(`timings: generate ${ms(t.generate)}, ground ${ms(t.ground)}, execute ${ms(t.execute)}, fallback ${ms(t.fallback)}, total ${ms(t.total)}`);
}

/**
 * The cold start, phase by phase (`ask --explain`): node and the modules up to the command, each phase of
 * createGateway, the question itself; wall and CPU time of this process, and the store process's own CPU.
 */
function printStartup(write: (s: string) => void, phases: readonly StartupPhase[], storeCpuMs: number | undefined): void {
  write('');
  write('cold start:                               wall       CPU');
  const row = (name: string, wall: number, cpu: number, note?: string) =>
    write(`  ${name.padEnd(36)} ${ms(wall).padStart(10)} ${ms(cpu).padStart(10)}${note ? `  ${note}` : ''}`);
  for (const p of phases) row(p.phase, p.wallMs, p.cpuMs, p.note);
  const wall = phases.reduce((a, p) => a + p.wallMs, 0);
  const cpu = phases.reduce((a, p) => a + p.cpuMs, 0);
  row('total (this process)', wall, cpu);
  if (storeCpuMs !== undefined) write(`  CPU of the store process: ${ms(storeCpuMs)}; all told ${ms(cpu + storeCpuMs)}`);
}

function printAnswer(io: CliIO, answer: Answer, opts: AskCliOpts, indent = ''): void {
  const out = (s: string) => writeLine(io.stdout, indent + s);
  if (answer.answers.length === 0) out(answer.reason ? `no answer: ${answer.reason}` : 'no answer (nothing in the graph supports one)');
  else if (answer.table) {
    // a table answer: aligned columns (labels; --iris adds the IRIs), then how many rows
    for (const line of textTable(answer.table, { iris: opts.iris })) out(line);
    const n = answer.table.rows.length;
    out(`(${n} row${n === 1 ? '' : 's'}; --format csv or tsv exports them)`);
  } else for (const a of answer.answers) out(opts.iris && a.type === 'uri' ? `${showAnswer(a)}  <${a.value}>` : showAnswer(a));
  if (indent) {
    // batch / interactive: one line of provenance per question; --explain adds the rest
    out(`(${answer.source}, confidence ${answer.confidence.toFixed(2)}${answer.form ? `, form ${answer.form}` : ''})`);
    if (answer.answers.length > 0 && answer.reason) out(`(caveat: ${answer.reason})`);
    if (opts.explain) printExplain(out, answer);
    return;
  }
  out('');
  // as in the inspector: fallback answers (≤ 0.6) and parser answers below 0.8 are flagged
  const doubtful = answer.answers.length > 0 && answer.confidence < 0.8 ? ' — doubtful, check the form or the evidence' : '';
  out(`source:     ${answer.source}  (confidence ${answer.confidence.toFixed(2)}${doubtful})`);
  // an answer that leaves part of the question out says what (src/pipeline/checks.ts)
  if (answer.answers.length > 0 && answer.reason) out(`caveat:     ${answer.reason}`);
  if (answer.form) out(`form:       ${answer.form}`);
  if (answer.groundedForm && answer.groundedForm !== answer.form) out(`grounded:   ${answer.groundedForm}`);
  if (answer.sparql) {
    out('sparql:');
    for (const line of answer.sparql.split('\n')) out(`  ${line}`);
  }
  if (answer.evidence?.length) out(`evidence:   ${answer.evidence.length} path(s); --json shows them`);
  if (opts.explain) printExplain(out, answer);
}

/**
 * Many questions over one loaded gateway: one question a line (blank lines and lines starting with #
 * are skipped). --json prints JSON Lines (one Answer per line; a question that fails gives
 * {"question", "line", "error": {code, message}} and the others go on); otherwise the answers of each
 * question under it. Lines are answered as they arrive, so `--file -` at a terminal is an interactive loop.
 */
async function askMany(io: CliIO, gateway: Gateway, input: NodeJS.ReadableStream, askOpts: AskOptions, opts: AskCliOpts, prompt: boolean): Promise<{ failed: number; unanswered: number }> {
  // at a terminal: line editing and history, the prompt on stderr (stdout stays answers only)
  const rl = prompt
    ? readline.createInterface({ input, output: io.stderr, terminal: true, historySize: 200, prompt: 'askgraph> ' })
    : readline.createInterface({ input, crlfDelay: Infinity, terminal: false });
  let n = 0;
  let failed = 0;
  let unanswered = 0;
  if (prompt) {
    writeLine(io.stderr, 'askgraph: one question a line; Ctrl-D ends.');
    rl.prompt();
  }
  for await (const raw of rl) {
    n++;
    const line = raw.trim();
    if (line && !line.startsWith('#')) {
      try {
        const answer = await gateway.ask(line, askOpts);
        // a question stopped by a failure (time ran out, the store was away) is an error, not "no answer"
        const failure = failureOf(answer);
        if (failure) throw failure;
        if (answer.answers.length === 0) unanswered++;
        if (opts.json) writeLine(io.stdout, JSON.stringify(answer));
        else {
          if (!prompt) writeLine(io.stdout, line); // at a terminal the question is already on the screen
          printAnswer(io, answer, opts, '  ');
        }
      } catch (e) {
        failed++;
        const err = toAskgraphError(e);
        if (opts.json) writeLine(io.stdout, JSON.stringify({ question: line, line: n, ...err.toJSON() }));
        writeLine(io.stderr, `askgraph: line ${n}: ${err.code}: ${err.message.split('\n')[0]}`);
      }
    }
    if (prompt) rl.prompt();
  }
  if (prompt) writeLine(io.stderr);
  return { failed, unanswered };
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  stream.setEncoding('utf8');
  for await (const chunk of stream) text += chunk as string;
  return text;
}

function openQuestions(file: string, io: CliIO): NodeJS.ReadableStream {
  if (file === '-') {
    if (!io.stdin) throw new AskgraphError('BAD_REQUEST', '--file -: no standard input');
    return io.stdin;
  }
  try {
    if (!fs.statSync(file).isFile()) throw new Error('not a file');
  } catch (e) {
    throw new AskgraphError('NOT_FOUND', `cannot read questions file ${file}: ${(e as Error).message}`);
  }
  return fs.createReadStream(file, { encoding: 'utf8' });
}

/**
 * `askgraph ask "<question>" [--store DIR|URL] [--model DIR] [--beam K] [--json] [--explain] [--fallback off|names]`:
 * the whole pipeline (parse → ground → compile → execute → fallback) on one question;
 * `--file questions.txt` (or `-` = standard input) for many, and without a question at a terminal an
 * interactive loop.
 */
export const register: RegisterCommand = (program, io) => {
  program
    .command('ask')
    .description('answer a question over a knowledge graph (default: the embedded movies graph and model); exit 0 answered, 1 no answer, 2 error')
    .argument('[question]', 'the question, e.g. "who directed Forrest Gump" (none: --file, or an interactive loop at a terminal)')
    .option('--file <path>', "questions, one a line ('-' = standard input); with --json prints JSON Lines")
    .option('--store <dir|url>', 'knowledge pack / store folder, data file, or http(s) SPARQL endpoint (default: the embedded movies pack)')
    .option('--model <dir>', "parser model folder (default: the pack's model)")
    .option('--generator <url>', 'an OpenAI-compatible chat/completions server that writes the forms instead of the parser model')
    .option('--generator-model <name>', 'model name sent to --generator (default "default")')
    .option('--beam <k>', `beam width of the parser (default ${DEFAULT_BEAM})`, intArg('--beam'))
    .option('--fallback <off|names>', "fallback readers: 'off' or comma-separated reader names (default: the default chain)")
    .option('--no-parser', 'skip the parser: the fallback readers answer from graph evidence')
    .option('--timeout <ms>', 'time budget of the whole question in milliseconds (default 10000)', intArg('--timeout'))
    .option('--json', 'print the answer as JSON (answers with IRIs, form, SPARQL, trace, timings; a table answer\'s columns and rows in "table")')
    .addOption(
      new Option('--format <format>', 'text (default) | json (as --json) | csv | tsv: the answer as a table with a header row of column labels, an IRI column after each entity column (see the README)').choices(['text', 'json', 'csv', 'tsv']),
    )
    .option('--iris', 'show IRIs beside the labels (a table answer gets an IRI column after each entity column)')
    .option('--explain', 'print every attempt (beam form, grounded form, outcome, time)')
    .action(async (question: string | undefined, opts: AskCliOpts) => {
      const askOpts: AskOptions = {};
      if (opts.beam !== undefined) askOpts.beam = opts.beam;
      if (opts.timeout !== undefined) askOpts.timeoutMs = opts.timeout;
      if (opts.parser === false) askOpts.noParser = true;
      if (opts.fallback !== undefined) {
        askOpts.fallback = opts.fallback === 'off' ? 'off' : opts.fallback.split(',').map((s) => s.trim()).filter(Boolean);
      }
      if (question !== undefined && opts.file !== undefined) throw new AskgraphError('BAD_REQUEST', 'give either a question or --file, not both');
      const noQuestion = () => new AskgraphError('BAD_REQUEST', 'no question: give one, or --file questions.txt (--file - reads standard input)');
      // no question and no --file: at a terminal an interactive loop; piped in (`echo "…" | askgraph ask`), the questions on standard input
      const fromStdin = question === undefined && opts.file === undefined;
      if (fromStdin && !io.stdin) throw noQuestion();
      const stdin = fromStdin ? io.stdin : undefined;
      const interactive = stdin !== undefined && (stdin as { isTTY?: boolean }).isTTY === true;
      // reject bad input before loading the store and the model
      if (question !== undefined) validateQuestion(question);
      let input = stdin && interactive ? stdin : opts.file !== undefined ? openQuestions(opts.file, io) : undefined;
      if (stdin && !interactive) {
        // piped questions are read to their end first: none at all is an error before the store and the model load
        const text = await readAll(stdin);
        if (!text.split('\n').some((l) => l.trim() && !l.trim().startsWith('#'))) throw noQuestion();
        input = Readable.from([text]);
      }
      if (opts.format === 'json') opts.json = true;
      const delimited = opts.format === 'csv' || opts.format === 'tsv' ? opts.format : undefined;
      if (delimited && opts.json) throw new AskgraphError('BAD_REQUEST', `give either --json or --format ${delimited}, not both`);
      if (delimited && question === undefined) throw new AskgraphError('BAD_REQUEST', `--format ${delimited} exports the answer of one question (not --file or standard input)`);
      if (opts.model !== undefined && opts.generator !== undefined) throw new AskgraphError('BAD_REQUEST', 'give either --model or --generator, not both');
      // everything before this line: node's own start and the modules (performance.now() counts from the process's start)
      const boot: StartupPhase = { phase: 'node start + modules', wallMs: performance.now(), cpuMs: cpuMs() };
      const gateway = await createGateway({
        store: opts.store,
        model: opts.model,
        ...(opts.generator !== undefined ? { generatorUrl: opts.generator, generatorModel: opts.generatorModel } : {}),
        progress: io.stderr,
      });
      try {
        if (input) {
          const { failed, unanswered } = await askMany(io, gateway, input, askOpts, opts, interactive);
          // exit code: 2 if a question failed, else 1 if one had no answer, else 0 (an interactive session ends with 0)
          if (failed > 0) throw new ExitCode(2);
          if (unanswered > 0 && !interactive) throw new ExitCode(1);
          return;
        }
        const t0 = performance.now();
        const c0 = cpuMs();
        const answer = await gateway.ask(defined(question, 'the question'), askOpts);
        // a question stopped by a failure (time ran out, the store was away) is an error (exit 2), not "no answer"
        const failure = failureOf(answer);
        if (failure) throw failure;
        const t = answer.timings;
        const startup: StartupPhase[] = [
          boot,
          ...(gateway.startup ?? []),
          {
            phase: 'the question',
            wallMs: performance.now() - t0,
            cpuMs: cpuMs() - c0,
            note: `generate ${ms(t.generate)}, ground ${ms(t.ground)}, execute ${ms(t.execute)}, fallback ${ms(t.fallback)}`,
          },
        ];
        const storeCpu = (gateway.executor as { info?: { cpuMs?: number } }).info?.cpuMs;
        if (delimited) {
          // the answer as a table: CSV / TSV on stdout (a "no answer" is the header alone, and its reason on stderr)
          io.stdout.write(answerToDelimited(answer, delimited));
          if (answer.answers.length === 0) writeLine(io.stderr, answer.reason ? `askgraph: no answer: ${answer.reason}` : 'askgraph: no answer (nothing in the graph supports one)');
        } else if (opts.json) printJson(io, opts.explain ? { ...answer, startup: { phases: startup, ...(storeCpu !== undefined ? { storeProcessCpuMs: storeCpu } : {}) } } : answer);
        else {
          printAnswer(io, answer, opts);
          if (opts.explain) printStartup((s) => writeLine(io.stdout, s), startup, storeCpu);
        }
        if (answer.answers.length === 0) throw new ExitCode(1); // no answer: exit 1, as grep without a match
      } finally {
        await gateway.close();
      }
    });
};
