import type { Command } from 'commander';
import type { CliIO } from '../io';

export type RegisterCommand = (program: Command, io: CliIO) => void;

/**
 * Each command's file registers it; the order here is the order in `askgraph --help`. The modules are
 * required on demand: `askgraph ask` loads the pipeline only, not the server, the trainer or the
 * evaluation harness (cold start: see the README, "Many questions, fast").
 */
export const COMMANDS: { name: string; load: () => RegisterCommand }[] = [
  { name: 'ask', load: () => require('./ask').register },
  { name: 'compile', load: () => require('./compile').register },
  { name: 'diff', load: () => require('./diff').register },
  { name: 'eval', load: () => require('./eval').register },
  { name: 'import', load: () => require('./import').register },
  { name: 'init', load: () => require('./init').register },
  { name: 'parse', load: () => require('./parse').register },
  { name: 'load', load: () => require('./load').register },
  { name: 'run', load: () => require('./run').register },
  { name: 'serve', load: () => require('./serve').register },
  { name: 'synth', load: () => require('./synth').register },
  { name: 'train', load: () => require('./train').register },
];
