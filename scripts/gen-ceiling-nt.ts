/**
 * A seeded synthetic N-Triples stream for measuring the embedded store's memory (issue 25 item 4; the
 * ≥ 20M-triple realistic graph of item 1 is scripts/build-large-graph.*, this one only needs to be the
 * right shape for a memory measurement): people, films and places with types, labels (distinct strings,
 * some shared), integer and date literals, and links with skewed (Zipf-like) degrees, about 9 triples
 * per entity. Writes exactly N triples.
 * Run: npx tsx scripts/gen-ceiling-nt.ts --triples 1000000 [--seed 1] > /tmp/g.nt
 */
import { Command } from 'commander';
import { Rng } from '../src/core/random';

const BASE = 'http://example.org/ceiling/';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const RDFS_LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';
const XSD = 'http://www.w3.org/2001/XMLSchema#';
const SYLLABLES = ['an', 'bel', 'cor', 'da', 'el', 'fin', 'gar', 'ho', 'is', 'jun', 'ka', 'lor', 'mi', 'nov', 'or', 'pra', 'qui', 'ros', 'sa', 'tem', 'ur', 'vin', 'wes', 'yor', 'zan'];
const CLASSES = ['Person', 'Film', 'Place', 'Organisation', 'Book', 'Song'];
const RELATIONS = ['knows', 'directedBy', 'starring', 'bornIn', 'locatedIn', 'memberOf', 'wrote', 'basedOn', 'sequelOf', 'influencedBy'];

function name(rng: Rng): string {
  const words = 1 + rng.int(3);
  const out: string[] = [];
  for (let w = 0; w < words; w++) {
    let s = '';
    for (let k = 0, n = 2 + rng.int(3); k < n; k++) s += rng.pick(SYLLABLES);
    out.push(s.charAt(0).toUpperCase() + s.slice(1));
  }
  return out.join(' ');
}

export function* ceilingTriples(triples: number, seed: number): Generator<string> {
  const rng = new Rng(seed);
  const entities = Math.max(10, Math.ceil(triples / 9));
  // skewed targets: index ~ entities * u^3 (a few entities get most links)
  const target = () => `<${BASE}e${Math.floor(entities * rng.next() ** 3)}>`;
  let written = 0;
  for (let i = 0; written < triples; i = (i + 1) % entities) {
    const s = `<${BASE}e${i}>`;
    const lines = [
      `${s} <${RDF_TYPE}> <${BASE}${CLASSES[i % CLASSES.length]}> .`,
      `${s} <${RDFS_LABEL}> "${name(rng)}"@en .`,
      `${s} <${BASE}year> "${1900 + rng.int(125)}"^^<${XSD}integer> .`,
      `${s} <${BASE}date> "${1900 + rng.int(125)}-${String(1 + rng.int(12)).padStart(2, '0')}-${String(1 + rng.int(28)).padStart(2, '0')}"^^<${XSD}date> .`,
    ];
    for (let k = 0; k < 5; k++) lines.push(`${s} <${BASE}${rng.pick(RELATIONS)}> ${target()} .`);
    for (const line of lines) {
      if (written >= triples) return;
      written++;
      yield line;
    }
  }
}

if (require.main === module) {
  const opts = new Command().requiredOption('--triples <n>', 'how many triples', Number).option('--seed <n>', 'seed', Number, 1).parse().opts<{ triples: number; seed: number }>();
  let buf: string[] = [];
  const flush = (): boolean => {
    const ok = process.stdout.write(buf.join('\n') + '\n');
    buf = [];
    return ok;
  };
  const it = ceilingTriples(opts.triples, opts.seed);
  const pump = (): void => {
    for (let r = it.next(); !r.done; r = it.next()) {
      buf.push(r.value);
      if (buf.length >= 10000 && !flush()) {
        process.stdout.once('drain', pump);
        return;
      }
    }
    if (buf.length) flush();
  };
  pump();
}
