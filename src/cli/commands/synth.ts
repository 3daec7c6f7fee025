import * as fs from 'node:fs';
import * as path from 'node:path';
import { SingleBar } from 'cli-progress';
import type { CompileOptions } from '../../compile';
import { loadPack, openExecutor, PACK_FILE } from '../../execute';
import { buildLexicon, chatRecord, LEXICON_FILE, mergeLexicon, readLexicon, readSchema, synthesize, writeLexicon } from '../../synth';
import { printJson, writeLine } from '../io';
import { intArg } from '../options';
import type { RegisterCommand } from './index';

interface SynthFlags {
  store?: string;
  schema: string;
  out: string;
  chat?: string;
  count: number;
  seed: number;
  lexicon?: string;
  saveLexicon?: string;
  timeout: number;
  progress?: boolean;
  json?: boolean;
}

/**
 * `askgraph synth`: synthetic (question, form) pairs made from a graph alone — the training data of
 * `askgraph init`, exported as JSON Lines (and in a chat fine-tuning layout for larger LLMs).
 */
export const register: RegisterCommand = (program, io) => {
  program
    .command('synth')
    .description('synthesise training pairs (question → logical form) from a graph and its schema.json')
    .option('--store <pack|dir|url>', 'the store (a pack, a data folder or file, or a SPARQL endpoint URL; default the movies pack)')
    .requiredOption('--schema <file>', 'schema.json of the store (written by `askgraph init`)')
    .requiredOption('--out <file>', 'pairs as JSON Lines: {id, question, form, operator, answerCount, template, noise}')
    .option('--chat <file>', 'also write the pairs in the chat fine-tuning layout {"messages":[system, user, assistant]}')
    .option('--count <n>', 'number of pairs', intArg('--count'), 10000)
    .option('--seed <s>', 'random seed (same seed + same store = same pairs)', intArg('--seed', 0), 1)
    .option('--lexicon <file>', 'a (user-edited, possibly partial) lexicon.json merged over the generated one; its entries win (default: <pack>/lexicon.json if the store is a pack that has one)')
    .option('--save-lexicon <file>', 'write the lexicon used (generated + --lexicon) to edit and pass back with --lexicon')
    .option('--timeout <ms>', 'timeout per query in ms', intArg('--timeout'), 5000)
    .option('--no-progress', 'no progress bar')
    .option('--json', 'print statistics as JSON')
    .action(async (flags: SynthFlags) => {
      const { count, seed, timeout: timeoutMs } = flags;
      const schema = readSchema(path.resolve(flags.schema));
      let lexicon = buildLexicon(schema);
      // the user's phrasings: --lexicon, else the pack's own lexicon.json
      const packLexicon = flags.store && !/^https?:\/\//i.test(flags.store) ? path.join(path.resolve(flags.store), LEXICON_FILE) : undefined;
      const lexFile = flags.lexicon ? path.resolve(flags.lexicon) : packLexicon && fs.existsSync(packLexicon) ? packLexicon : undefined;
      if (lexFile) lexicon = mergeLexicon(lexicon, readLexicon(lexFile));
      if (flags.saveLexicon) writeLexicon(path.resolve(flags.saveLexicon), lexicon);
      const compile: CompileOptions = { labelPredicates: schema.labelPredicates, typePredicate: schema.typePredicate };
      if (flags.store && !/^https?:\/\//i.test(flags.store) && fs.existsSync(path.join(path.resolve(flags.store), PACK_FILE))) {
        const { config } = await loadPack(flags.store);
        if (config.excludeTopic !== undefined) compile.excludeTopic = config.excludeTopic;
      }
      const executor = await openExecutor(flags.store, { labelPredicates: schema.labelPredicates });
      const showBar = flags.progress !== false && !flags.json;
      const bar = showBar
        ? new SingleBar({ stream: io.stderr, format: 'synth [{bar}] {percentage}% | {value}/{total} pairs | {eta_formatted} left', hideCursor: false, noTTYOutput: true, notTTYSchedule: 5000 })
        : undefined;
      bar?.start(count, 0);
      let result;
      try {
        result = await synthesize(executor, schema, lexicon, { count, seed, compile, timeoutMs, onProgress: (done) => bar?.update(done) });
      } finally {
        bar?.stop();
        await executor.close();
      }
      const { examples, stats } = result;
      fs.writeFileSync(path.resolve(flags.out), examples.map((e) => JSON.stringify(e)).join('\n') + (examples.length ? '\n' : ''));
      if (flags.chat) fs.writeFileSync(path.resolve(flags.chat), examples.map((e) => JSON.stringify(chatRecord(schema, e))).join('\n') + (examples.length ? '\n' : ''));
      if (flags.json) {
        printJson(io, { out: path.resolve(flags.out), ...(flags.chat ? { chat: path.resolve(flags.chat) } : {}), stats });
        return;
      }
      writeLine(io.stdout, `wrote ${stats.examples} pairs to ${flags.out}${flags.chat ? ` (chat layout: ${flags.chat})` : ''} in ${(stats.timeMs / 1000).toFixed(1)} s; ${stats.templates} templates`);
      for (const [op, s] of Object.entries(stats.perOperator)) writeLine(io.stdout, `  ${op.padEnd(12)} ${String(s.examples).padStart(7)} pairs`);
      if (stats.examples < count) writeLine(io.stdout, `only ${stats.examples} of ${count} pairs: the graph has too few distinct forms for more`);
    });
};
