import * as fs from 'node:fs';
import * as path from 'node:path';
import { AskgraphError } from '../../core';
import { packCompileOptions } from '../../compile';
import { loadPack } from '../../execute';
import {
  importGrailqa,
  importMetaqaSplit,
  importPathQuestion,
  importQald,
  importWc2014,
  readText,
  writeJsonl,
  writeTriplePack,
  type ConversionStats,
  type Example,
} from '../../eval';
import { printJson, writeLine } from '../io';
import type { RegisterCommand } from './index';

const KINDS = ['metaqa', 'pathquestion', 'wc2014', 'qald', 'grailqa'] as const;
type Kind = (typeof KINDS)[number];

interface ImportFlags {
  out?: string;
  kb?: string;
  pack?: string;
  store?: string;
  name?: string;
  json?: boolean;
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readText(file));
  } catch (e) {
    if (e instanceof AskgraphError) throw e;
    throw new AskgraphError('DATA_FORMAT', `${file}: ${(e as Error).message}`);
  }
}

export const register: RegisterCommand = (program, io) => {
  program
    .command('import')
    .description('convert a benchmark into askgraph JSON Lines (and its KB file into a knowledge pack)')
    .argument('<kind>', KINDS.join(' | '))
    .argument('<input>', 'metaqa: the folder with {1,2,3}-hop/; others: the question file')
    .option('--out <path>', 'output .jsonl (metaqa: output folder for train.jsonl + valid.jsonl)')
    .option('--kb <file>', 'pathquestion / wc2014: the KB triple file to turn into a pack')
    .option('--pack <dir>', 'where to write the pack (pack.json + kb.txt)')
    .option('--store <pack>', "qald: the pack whose namespaces turn the queries' IRIs into bare names (default: the embedded pack)")
    .option('--name <name>', 'data set / pack name (default from the input file name)')
    .option('--json', 'print the counts as JSON')
    .action(async (kindArg: string, input: string, flags: ImportFlags) => {
      if (!(KINDS as readonly string[]).includes(kindArg)) throw new AskgraphError('BAD_REQUEST', `unknown kind ${kindArg} (${KINDS.join(', ')})`);
      const kind = kindArg as Kind;
      const name = flags.name ?? path.basename(input, path.extname(input)).toLowerCase();
      const report: Record<string, string | number | object> = { kind, input };
      let examples: Example[] | undefined;
      let stats: ConversionStats | undefined;
      switch (kind) {
        case 'metaqa': {
          const { train, valid } = importMetaqaSplit(input);
          const out = flags.out ?? '.';
          fs.mkdirSync(out, { recursive: true });
          writeJsonl(path.join(out, 'train.jsonl'), train);
          writeJsonl(path.join(out, 'valid.jsonl'), valid);
          Object.assign(report, { train: train.length, valid: valid.length, out });
          break;
        }
        case 'pathquestion':
          examples = importPathQuestion(readText(input), name);
          break;
        case 'wc2014':
          examples = importWc2014(readText(input), name);
          break;
        case 'qald':
          ({ examples, stats } = importQald(readJson(input), packCompileOptions((await loadPack(flags.store)).config)));
          break;
        case 'grailqa':
          ({ examples, stats } = importGrailqa(readJson(input)));
          break;
      }
      if (examples) {
        if (flags.out) writeJsonl(flags.out, examples);
        Object.assign(report, { examples: examples.length, withForm: examples.filter((e) => e.form).length, ...(flags.out ? { out: flags.out } : {}) });
      }
      if (stats) report.conversion = stats;
      if (flags.kb) {
        if (kind !== 'pathquestion' && kind !== 'wc2014') throw new AskgraphError('BAD_REQUEST', '--kb is for pathquestion and wc2014');
        const packDir = flags.pack ?? path.join(path.dirname(flags.out ?? input), name);
        const { triples } = writeTriplePack(readText(flags.kb), packDir, { name, dropInverse: kind === 'wc2014' });
        report.pack = { dir: packDir, triples };
      }
      if (flags.json) printJson(io, report);
      else {
        for (const [k, v] of Object.entries(report)) writeLine(io.stdout, `${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
        if (examples && !flags.out) writeLine(io.stderr, 'askgraph: nothing written (give --out FILE.jsonl)');
      }
    });
};
