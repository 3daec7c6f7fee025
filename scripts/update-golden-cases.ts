/**
 * Writes query.rq and answers.json of the golden cases from the current compiler and the fixture
 * graph — review the diff before committing (the golden runner then holds the compiler to it).
 *   npx tsx scripts/update-golden-cases.ts [case-name…]
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseForm } from '../src/form';
import { compileForm } from '../src/compile';
import { openExecutor, runCompiled } from '../src/execute';
import { loadCases, fixtureGraph, outcomeStrings } from '../test/unit/compile/cases-lib';

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const executor = await openExecutor(fixtureGraph());
  try {
    for (const c of loadCases()) {
      if (only.length && !only.includes(c.name)) continue;
      const compiled = compileForm(parseForm(c.form), c.options);
      fs.writeFileSync(path.join(c.dir, 'query.rq'), compiled.sparql + '\n');
      const outcome = await runCompiled(executor, compiled, { timeoutMs: 10000 });
      if (outcome.status === 'error' || outcome.status === 'timeout') throw new Error(`${c.name}: ${outcome.status} ${JSON.stringify(outcome.error)}`);
      const answers = outcomeStrings(outcome);
      fs.writeFileSync(path.join(c.dir, 'answers.json'), JSON.stringify(answers, null, 2) + '\n');
      console.log(`${c.name}: ${answers.length} answers  ${answers.slice(0, 6).join(' | ')}`);
    }
  } finally {
    await executor.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
