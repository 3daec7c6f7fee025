import { AskgraphError, type Answer, type AnswerItem } from '../../core';
import { createGateway, validateQuestion, type AskOptions } from '../../pipeline';
import { printJson, writeLine } from '../io';
import type { RegisterCommand } from './index';

interface AskCliOpts {
  store?: string;
  model?: string;
  beam?: string;
  json?: boolean;
  explain?: boolean;
  fallback?: string;
  timeout?: string;
}

function showAnswer(a: AnswerItem): string {
  return a.type === 'literal' ? a.value : (a.label ?? `<${a.value}>`);
}

function intOption(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new AskgraphError('BAD_REQUEST', `${name} must be a positive integer, got "${v}"`);
  return n;
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
 * `askgraph ask "<question>" [--store DIR|URL] [--model DIR] [--beam K] [--json] [--explain] [--fallback off|names]`:
 * the whole pipeline (parse → ground → compile → execute → fallback) on one question.
 */
export const register: RegisterCommand = (program, io) => {
  program
    .command('ask')
    .description('answer a question over a knowledge graph (default: the embedded movies graph and model)')
    .argument('<question>', 'the question, e.g. "who directed Forrest Gump"')
    .option('--store <dir|url>', 'knowledge pack / store folder, data file, or http(s) SPARQL endpoint (default: the embedded movies pack)')
    .option('--model <dir>', "parser model folder (default: the pack's model)")
    .option('--beam <k>', 'beam width of the parser (default 4)')
    .option('--fallback <off|names>', "fallback readers: 'off' or comma-separated reader names (default: the default chain)")
    .option('--timeout <ms>', 'time budget of the whole question in milliseconds (default 10000)')
    .option('--json', 'print the answer as JSON (answers with IRIs, form, SPARQL, trace, timings)')
    .option('--explain', 'print every attempt (beam form, grounded form, outcome, time)')
    .action(async (question: string, opts: AskCliOpts) => {
      const askOpts: AskOptions = {};
      const beam = intOption('--beam', opts.beam);
      if (beam !== undefined) askOpts.beam = beam;
      const timeout = intOption('--timeout', opts.timeout);
      if (timeout !== undefined) askOpts.timeoutMs = timeout;
      if (opts.fallback !== undefined) {
        askOpts.fallback = opts.fallback === 'off' ? 'off' : opts.fallback.split(',').map((s) => s.trim()).filter(Boolean);
      }
      validateQuestion(question); // reject bad input before loading the store and the model
      const gateway = await createGateway({ store: opts.store, model: opts.model, progress: io.stderr });
      try {
        const answer = await gateway.ask(question, askOpts);
        if (opts.json) {
          printJson(io, answer);
          return;
        }
        const out = (s: string) => writeLine(io.stdout, s);
        if (answer.answers.length === 0) out('no answer (nothing in the graph supports one)');
        for (const a of answer.answers) out(showAnswer(a));
        out('');
        out(`source:     ${answer.source}  (confidence ${answer.confidence.toFixed(2)})`);
        if (answer.form) out(`form:       ${answer.form}`);
        if (answer.groundedForm && answer.groundedForm !== answer.form) out(`grounded:   ${answer.groundedForm}`);
        if (answer.sparql) {
          out('sparql:');
          for (const line of answer.sparql.split('\n')) out(`  ${line}`);
        }
        if (answer.evidence?.length) out(`evidence:   ${answer.evidence.length} path(s); --json shows them`);
        if (opts.explain) printExplain(out, answer);
      } finally {
        await gateway.close();
      }
    });
};
