import type { Command } from 'commander';
import type { CliIO } from '../io';

export type RegisterCommand = (program: Command, io: CliIO) => void;

/**
 * Each command's file registers it; the order here is the order in `askgraph --help`. The modules are
 * required on demand: `askgraph ask` loads the pipeline only, not the server, the trainer or the
 * evaluation harness (cold start: see the README, "Many questions, fast"). `typeof import(…)` types each
 * require (a type only: nothing is loaded before `load()`).
 */
export const COMMANDS: { name: string; load: () => RegisterCommand }[] = [
  { name: 'ask', load: () => (require('./ask') as typeof import('./ask')).register },
  { name: 'compile', load: () => (require('./compile') as typeof import('./compile')).register },
  { name: 'diff', load: () => (require('./diff') as typeof import('./diff')).register },
  { name: 'eval', load: () => (require('./eval') as typeof import('./eval')).register },
  { name: 'import', load: () => (require('./import') as typeof import('./import')).register },
  { name: 'init', load: () => (require('./init') as typeof import('./init')).register },
  { name: 'parse', load: () => (require('./parse') as typeof import('./parse')).register },
  { name: 'load', load: () => (require('./load') as typeof import('./load')).register },
  { name: 'run', load: () => (require('./run') as typeof import('./run')).register },
  { name: 'serve', load: () => (require('./serve') as typeof import('./serve')).register },
  { name: 'synth', load: () => (require('./synth') as typeof import('./synth')).register },
  { name: 'train', load: () => (require('./train') as typeof import('./train')).register },
];
