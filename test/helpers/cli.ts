import { PassThrough } from 'node:stream';
import { main } from '../../src/cli/main';

/** Runs the askgraph CLI in-process (as the bin does) and collects its exit code, stdout and stderr. */
export async function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string; err: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c) => (out += c));
  stderr.on('data', (c) => (err += c));
  const code = await main(args, { stdout, stderr, env });
  return { code, out, err };
}
