import { PassThrough } from 'node:stream';
import { main } from '../../src/cli/main';
import type { CliIO } from '../../src/cli/io';

/** Streams for running the CLI in-process, and what was written to them. */
export function captureIO(env: NodeJS.ProcessEnv = {}, opts: { tty?: boolean } = {}): { io: CliIO; out: () => string; err: () => string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  if (opts.tty) (stdout as unknown as { isTTY: boolean }).isTTY = true;
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  return { io: { stdout, stderr, env }, out: () => out, err: () => err };
}

/** Runs the askgraph CLI in-process (as the bin does) and collects its exit code, stdout and stderr. */
export async function cli(args: string[], env: NodeJS.ProcessEnv = {}, opts: { tty?: boolean } = {}): Promise<{ code: number; out: string; err: string }> {
  const c = captureIO(env, opts);
  const code = await main(args, c.io);
  return { code, out: c.out(), err: c.err() };
}
