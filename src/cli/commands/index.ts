import type { Command } from 'commander';
import type { CliIO } from '../io';
import { register as askCommand } from './ask';
import { register as compileCommand } from './compile';
import { register as diffCommand } from './diff';
import { register as evalCommand } from './eval';
import { register as importCommand } from './import';
import { register as initCommand } from './init';
import { register as parseCommand } from './parse';
import { register as loadCommand } from './load';
import { register as runCommand } from './run';
import { register as serveCommand } from './serve';
import { register as synthCommand } from './synth';
import { register as trainCommand } from './train';

export type RegisterCommand = (program: Command, io: CliIO) => void;

// Each command's file registers it; the order here is the order in `askgraph --help`.
export const COMMANDS: RegisterCommand[] = [
  askCommand,
  compileCommand,
  diffCommand,
  evalCommand,
  importCommand,
  initCommand,
  parseCommand,
  loadCommand,
  runCommand,
  serveCommand,
  synthCommand,
  trainCommand,
];
