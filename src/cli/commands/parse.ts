import { AskgraphError } from '../../core';
import { loadParser, readLabelsFile } from '../../generate';
import { printJson, writeLine } from '../io';
import { intArg } from '../options';
import type { RegisterCommand } from './index';

/** `askgraph parse "<question>"`: the parser's beam (form + log-probability), as text or JSON. */
export const register: RegisterCommand = (program, io) => {
  program
    .command('parse')
    .description("print the parser's beam of logical forms for a question (form and log-probability)")
    .argument('<question>', 'the question, e.g. "who directed Forrest Gump"')
    .option('--beam <k>', 'beam size (1 = greedy)', intArg('--beam'), 4)
    .option('--max-length <n>', 'most target tokens to generate (default: the model config)', intArg('--max-length'))
    .option('--model <dir>', 'model folder (default: the movies model, store/movies/model)')
    .option('--labels <src>', "restrict copied entity names to graph labels: 'pack' (the model's pack), 'none', or a file", 'pack')
    .option('--label-mode <mode>', "graph labels as a 'soft' prior (default) or a 'hard' restriction")
    .option('--json', 'print JSON')
    .action(async (question: string, opts: { beam: number; maxLength?: number; model?: string; labels?: string; labelMode?: string; json?: boolean }) => {
      if (!question.trim()) throw new AskgraphError('QUESTION_INVALID', 'the question is empty');
      const { beam, maxLength } = opts;
      const src = opts.labels ?? 'pack';
      const labels = src === 'pack' || src === 'none' ? src : readLabelsFile(src);
      if (opts.labelMode !== undefined && opts.labelMode !== 'soft' && opts.labelMode !== 'hard') {
        throw new AskgraphError('BAD_REQUEST', `--label-mode must be soft or hard, got "${opts.labelMode}"`);
      }
      const labelMode = opts.labelMode;
      const parser = await loadParser(opts.model ?? io.env.ASKGRAPH_MODEL, { labels, labelMode });
      const r = await parser.generate(question, { beam, maxLength });
      if (opts.json) {
        printJson(io, {
          question,
          model: parser.id,
          beam,
          labels: parser.labelCount,
          timeMs: Math.round(r.timeMs * 10) / 10,
          candidates: r.candidates.map((c) => ({ rank: c.rank, form: c.text, logProb: c.logProb })),
        });
        return;
      }
      if (r.candidates.length === 0) writeLine(io.stdout, '(no form)');
      for (const c of r.candidates) writeLine(io.stdout, `${c.logProb.toFixed(4).padStart(10)}  ${c.text}`);
    });
};
