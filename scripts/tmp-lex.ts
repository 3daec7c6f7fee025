import * as fs from 'node:fs';
import { buildLexicon } from '../src/synth/lexicon';
const s = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const t0 = Date.now();
const l = buildLexicon(s);
console.log(JSON.stringify(l, null, 1), Date.now() - t0, 'ms');
