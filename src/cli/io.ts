import { AskgraphError, toAskgraphError } from '../core';

/** What a command may touch: tests pass their own streams and run the CLI in-process. */
export interface CliIO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  /** Questions for `ask --file -` (and the interactive loop); the bin passes process.stdin. */
  stdin?: NodeJS.ReadableStream;
}

/** Thrown by commands to end with a given exit code without an error message (e.g. diff: 1 = different). */
export class ExitCode extends Error {
  constructor(readonly code: number) {
    super(`exit code ${code}`);
    this.name = 'ExitCode';
  }
}

export function writeLine(stream: NodeJS.WritableStream, text = ''): void {
  stream.write(text + '\n');
}

export function printJson(io: CliIO, value: unknown): void {
  writeLine(io.stdout, JSON.stringify(value, null, 2));
}

/**
 * Exit codes, as grep's: 0 answered (or done), 1 no answer (`ask`; `diff`: different), 2 an error.
 * Errors: one line `askgraph: CODE: message` on stderr (and {error} JSON on stdout with --json), no stack.
 */
export function reportError(io: CliIO, e: unknown, json: boolean): number {
  const err: AskgraphError = toAskgraphError(e);
  if (json) printJson(io, err.toJSON());
  writeLine(io.stderr, `askgraph: ${err.code}: ${err.message.split('\n')[0]}`);
  if (err.code === 'INTERNAL' && io.env.ASKGRAPH_DEBUG && e instanceof Error) writeLine(io.stderr, e.stack ?? '');
  return 2;
}
