import * as path from 'node:path';
import { PACK_FILE } from '../../execute';
import { buildStorePack } from '../../pack';
import { describeLabelSources } from '../../synth';
import { printJson, writeLine } from '../io';
import type { RegisterCommand } from './index';


/**
 * `askgraph load <file…> [--store DIR] [--base IRI]`: builds an embedded store from RDF files (nt, ttl,
 * nq, trig, rdf/owl/xml) and triple files (.txt `head|rel|tail`, .tsv / tab-separated), saves it as
 * DIR/data.nq and writes DIR/pack.json, so `askgraph run --store DIR` (and every stage) can open it
 * (src/pack/store.ts).
 */
export const register: RegisterCommand = (program, io) => {
  program
    .command('load')
    .description('build an embedded store (DIR/data.nq + DIR/pack.json) from RDF or triple files')
    .argument('<files...>', 'data files: .nt .nq .ttl .trig .rdf .owl .xml, or triple files .txt (head|rel|tail) / .tsv')
    .option('--store <dir>', 'store folder to write', 'askgraph-store')
    .option('--base <iri>', 'base IRI for minting entities/relations of triple files (default http://askgraph.dev/<store name>/)')
    .option('--name <name>', 'pack name (default: the store folder name)')
    .option('--json', 'print JSON')
    .action(async (files: string[], opts: { store: string; base?: string; name?: string; json?: boolean }) => {
      const r = await buildStorePack({
        files,
        dir: opts.store,
        env: io.env,
        ...(opts.name !== undefined ? { name: opts.name } : {}),
        ...(opts.base !== undefined ? { baseIri: opts.base } : {}),
      });
      if (opts.json) printJson(io, { store: r.dir, pack: r.pack, triples: r.triples, files: r.files, loadMs: r.loadMs, timeMs: r.timeMs, labelSources: r.labelSources });
      else {
        writeLine(io.stdout, `loaded ${r.triples} triples from ${r.files.length} file(s) into ${path.join(r.dir, r.dataFile)} (${r.timeMs} ms); pack: ${path.join(r.dir, PACK_FILE)}`);
        writeLine(io.stdout, `labels: ${describeLabelSources(r.labelSources)}`);
      }
    });
};
