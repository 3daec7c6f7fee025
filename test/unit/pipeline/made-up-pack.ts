import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createGateway, type Gateway } from '../../../src/pipeline';
import { FixedBeam } from './fixed-beam';

const LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';

/**
 * A made-up pack for one describe block (mocha hooks: opened before its tests, closed after): entities `<base><id>`
 * with their labels, relation triples `[subject id, relation, object id]` with relations under `<base>relation/`
 * (the pack's vocabulary namespace: the parser writes their local names), and a gateway on it with a stand-in parser
 * (FixedBeam: a fixed beam per question, a fixed score per form); `files`: more files of the pack (lexicon.json), by name.
 */
export function madeUpPackFor(name: string, base: string, graph: { labels: [string, string][]; triples: [string, string, string][] }, beams: ConstructorParameters<typeof FixedBeam>[0], scores: Record<string, number> = {}, files: Record<string, string> = {}): { gateway(): Gateway; parser(): FixedBeam } {
  const rel = `${base}relation/`;
  const nt = [...graph.labels.map(([id, label]) => `<${base}${id}> <${LABEL}> "${label}" .`), ...graph.triples.map(([s, p, o]) => `<${base}${s}> <${rel}${p}> <${base}${o}> .`)].join('\n');
  let dir: string | undefined;
  let gateway: Gateway | undefined;
  let parser: FixedBeam | undefined;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), `askgraph-${name}-`));
    fs.writeFileSync(path.join(dir, `${name}.nt`), nt + '\n');
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
    fs.writeFileSync(path.join(dir, 'pack.json'), JSON.stringify({ name, data: [`${name}.nt`], baseIri: base, vocabularyNamespace: rel, labelPredicates: [LABEL] }));
    parser = new FixedBeam(beams, scores, -50);
    gateway = await createGateway({ pack: dir, generator: parser, cacheDir: dir });
  });
  after(async () => {
    await gateway?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  const opened = <T>(x: T | undefined): T => {
    if (x === undefined) throw new Error('the made-up pack is opened by the describe block\'s before hook');
    return x;
  };
  return { gateway: () => opened(gateway), parser: () => opened(parser) };
}
