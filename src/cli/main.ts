import { Command, CommanderError } from 'commander';
import { CliIO, ExitCode, reportError } from './io';
import { COMMANDS } from './commands';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AskgraphError, packageRoot } from '../core';

/** The version in the package's package.json. */
function packageVersion(): string {
  const pkg: unknown = JSON.parse(fs.readFileSync(path.join(packageRoot(), 'package.json'), 'utf8'));
  if (typeof pkg !== 'object' || pkg === null || !('version' in pkg) || typeof pkg.version !== 'string') throw new AskgraphError('INTERNAL', 'package.json has no version');
  return pkg.version;
}

/**
 * The whole CLI as a function of argv and streams (the bin is two lines). Each command lives in
 * src/cli/commands/<name>.ts and registers itself on the program; commands are thin over the library.
 */
export async function main(argv: string[], io: CliIO): Promise<number> {
  const program = new Command('askgraph')
    .description('A natural-language gateway to RDF knowledge graphs')
    .version(packageVersion())
    .addHelpText('after', '\nExit codes: 0 answered (or done), 1 no answer (ask) or different (diff), 2 an error (one line "askgraph: CODE: message" on stderr).')
    .exitOverride()
    // commander's own error lines ("error: unknown option …") are replaced by askgraph's format below
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s), outputError: () => undefined });
  // Only the command being run is loaded (its module pulls in its stage: the pipeline, the server, …);
  // help, version and unknown commands register them all.
  const first = argv.find((a) => !a.startsWith('-'));
  const only = COMMANDS.find((c) => c.name === first);
  const versionOnly = first === undefined && argv.length > 0 && argv.every((a) => a === '-V' || a === '--version');
  if (!versionOnly) for (const c of only ? [only] : COMMANDS) c.load()(program, io);
  // errors as JSON too with --json or --format json
  const json = argv.includes('--json') || argv.includes('--format=json') || argv.some((a, i) => a === '--format' && argv[i + 1] === 'json');
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (e) {
    if (e instanceof ExitCode) return e.code;
    if (e instanceof CommanderError) {
      if (e.exitCode === 0) return 0;
      if (e.code === 'commander.help') return 2; // no command: the help is on stderr already
      // usage errors (unknown option or command, missing argument …) in the one error format
      const help = only ? `askgraph ${only.name} --help` : 'askgraph --help';
      return reportError(io, new AskgraphError('BAD_REQUEST', `${e.message.replace(/^error: /, '').trim()} (see ${help})`), json);
    }
    return reportError(io, e, json);
  }
}
