import * as fs from 'node:fs';
import { buildLexicon } from '../src/synth/lexicon';
const l = buildLexicon(JSON.parse(fs.readFileSync(process.argv[2], 'utf8')));
for (const [n, p] of Object.entries(l.properties)) console.log(n, p.shape, JSON.stringify(p.subject.singular), JSON.stringify(p.object.singular), p.wh, p.swh, '|', p.subjectQ.slice(0, 3).join(' / '), '|', p.objectQ.slice(0, 3).join(' / '), '|', (p.most ?? []).join(','));
for (const [n, c] of Object.entries(l.classes)) console.log(n, JSON.stringify(c));
