import * as fs from 'node:fs';
import { openExecutor } from '../src/execute';
import { Sampler, SynthStore, printSForm } from '../src/synth';
import { Rng } from '../src/synth/random';
async function main() {
  const schema = JSON.parse(fs.readFileSync(process.argv[3], 'utf8'));
  const ex = await openExecutor(process.argv[2], { labelPredicates: schema.labelPredicates });
  const store = new SynthStore(ex, schema, { compile: { excludeTopic: 'every-hop' } });
  const s = new Sampler(store, new Rng(7));
  const origRun = store.run.bind(store);
  (store as any).run = async (f: any) => { try { return await origRun(f); } catch (e) { console.log('  ERR', printSForm(f).slice(0, 200), String(e).slice(0, 100)); throw e; } };
  for (let i = 0; i < Number(process.argv[5] ?? 10); i++) {
    const r = await s.sample(process.argv[4] as any);
    console.log(r ? `OK ${printSForm(r.form, new Map())} -> ${r.answerCount}` : 'FAIL');
  }
  await ex.close();
}
main();
