import * as fs from 'node:fs';
import { openExecutor } from '../src/execute';
import { Sampler, SynthStore, printSForm, buildLexicon } from '../src/synth';
import { Rng } from '../src/synth/random';
async function main() {
  const schema = JSON.parse(fs.readFileSync(process.argv[3], 'utf8'));
  const ex = await openExecutor(process.argv[2], { labelPredicates: schema.labelPredicates });
  const store = new SynthStore(ex, schema, { compile: { excludeTopic: process.argv[4] === 'every' ? 'every-hop' : true } });
  const s = new Sampler(store, new Rng(7), buildLexicon(schema));
  const ops = ['and','count','argmax','argmin','compare','range','ask','diff','aggregate','ratio','mostcommon','argmaxcount','compare2'];
  let same = 0, diff = 0, err = 0;
  for (const op of ops) for (let i = 0; i < 12; i++) {
    const r = await s.sample(op as any);
    if (!r) continue;
    let c: any;
    try { c = await (store as any).compose(r.form); } catch (e) { err++; continue; }
    const norm = (v: any) => v.type === 'set' ? v.items.map((x: any) => x.value).sort().join('|') : v.type === 'num' ? Number(v.value).toFixed(3) : String(v.value);
    if (norm(c) === norm(r.answer)) same++; else { diff++; console.log('DIFF', op, printSForm(r.form, new Map()), '\n   compiled:', norm(r.answer).slice(0, 150), '\n   composed:', norm(c).slice(0, 150)); }
  }
  console.log({ same, diff, err });
  await ex.close();
}
main();
