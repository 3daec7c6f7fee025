import type { Command } from 'commander';
import type { CliIO } from '../io';
import { register as diffCommand } from './diff';
import { register as evalCommand } from './eval';
import { register as parseCommand } from './parse';

export type RegisterCommand = (program: Command, io: CliIO) => void;

// Each command's file registers it; the order here is the order in `askgraph --help`.
export const COMMANDS: RegisterCommand[] = [
  diffCommand,
  evalCommand,
  parseCommand,
];
