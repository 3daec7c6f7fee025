// Development entry: `npx tsx src/cli/dev.ts <args>` runs the CLI from the TypeScript sources.
import { main } from './main';
void main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env }).then((code) => {
  process.exitCode = code;
});
