/**
 * The restaurants dev set (../shared/data/restaurants/restaurants-qald.json) has SQL gold queries only, so
 * `askgraph eval --oracle` has no gold form for any of its 60 questions. Its folder also holds 15 hand-written
 * SPARQL queries checked against the SQL answers (restaurants-sparql-check.json, written without PREFIX
 * declarations). This script writes those 15 as QALD-JSON — the PREFIXes added, the answers taken from
 * restaurants-qald.json by id — so the oracle can be measured on them:
 *
 *   npx tsx scripts/restaurants-check-qald.ts [--data DIR] --out /tmp/restaurants-check-qald.json
 *   askgraph load ../shared/data/restaurants/restaurants.nt --store /tmp/rest-store
 *   askgraph eval --dataset /tmp/restaurants-check-qald.json --format qald --oracle --store /tmp/rest-store
 *
 * For measuring only (the brief's rule: never train on these questions).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const PREFIXES = 'PREFIX rest: <http://example.org/rest/>\nPREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\nPREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>\nPREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\n';

function main(): void {
  const dir = arg('--data') ?? [path.resolve(__dirname, '../../shared/data'), path.resolve(__dirname, '../../../shared/data'), '/work/shared/data'].find((d) => fs.existsSync(path.join(d, 'restaurants')));
  if (!dir) throw new Error('cannot find shared/data; pass --data DIR');
  const out = arg('--out');
  if (!out) throw new Error('--out FILE is required');
  const check = JSON.parse(fs.readFileSync(path.join(dir, 'restaurants', 'restaurants-sparql-check.json'), 'utf8')) as { questions: { id: string; sparql: string }[] };
  const qald = JSON.parse(fs.readFileSync(path.join(dir, 'restaurants', 'restaurants-qald.json'), 'utf8')) as { questions: { id: string; question: unknown; answers: unknown }[] };
  const byId = new Map(qald.questions.map((q) => [q.id, q]));
  const questions = check.questions.map((c) => {
    const q = byId.get(c.id);
    if (!q) throw new Error(`question ${c.id} is not in restaurants-qald.json`);
    return { id: c.id, question: q.question, query: { sparql: PREFIXES + c.sparql }, answers: q.answers };
  });
  fs.writeFileSync(out, JSON.stringify({ questions }, null, 1));
  console.log(`wrote ${questions.length} questions to ${out}`);
}

main();
