import * as fs from 'node:fs';
import * as path from 'node:path';
import { AskgraphError, PackConfig } from '../../core';
import { buildStore, checkStoreFits, PACK_FILE, saveSnapshot } from '../../execute';
import { parseJsonSelect } from '../../execute/terms';
import { describeLabelSources, discoverLabelSources } from '../../synth/discover';
import { printJson, writeLine } from '../io';
import type { RegisterCommand } from './index';


/**
 * `askgraph load <file…> [--store DIR] [--base IRI]`: builds an embedded store from RDF files (nt, ttl,
 * nq, trig, rdf/owl/xml) and triple files (.txt `head|rel|tail`, .tsv / tab-separated), saves it as
 * DIR/data.nq and writes DIR/pack.json, so `askgraph run --store DIR` (and every stage) can open it.
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
      const dir = path.resolve(opts.store);
      const name = opts.name ?? path.basename(dir);
      const baseIri = opts.base ?? `http://askgraph.dev/${encodeURIComponent(name)}/`;
      if (!/^https?:\/\/\S+[/#]$/.test(baseIri)) {
        throw new AskgraphError('BAD_REQUEST', `--base must be an http(s) IRI ending in / or #, got "${baseIri}"`);
      }
      const abs = files.map((f) => path.resolve(f));
      for (const f of abs) if (!fs.existsSync(f)) throw new AskgraphError('NOT_FOUND', `no such file: ${f}`);
      // a graph the embedded store cannot hold is refused here, before anything is loaded or written
      checkStoreFits(abs, { purpose: 'load', env: io.env });
      const t0 = Date.now();
      const { store, info } = buildStore({ files: abs, baseIri });
      const dataFile = 'data.nq';
      saveSnapshot(store, path.join(dir, dataFile));
      // Which label predicates the graph uses (and whether some entities only have their IRI to go by).
      const select = async (q: string) => parseJsonSelect(store.query(q, { use_default_graph_as_union: true, results_format: 'application/sparql-results+json' }) as string);
      const labels = await discoverLabelSources({ select });
      let previous: Partial<PackConfig> = {};
      try {
        previous = JSON.parse(fs.readFileSync(path.join(dir, PACK_FILE), 'utf8')) as Partial<PackConfig>;
      } catch {
        // a new store
      }
      const pack: PackConfig = {
        name,
        data: [dataFile],
        baseIri,
        vocabularyNamespace: baseIri + 'relation/',
        labelPredicates: labels.labelPredicates,
        ...(labels.aliasPredicates.length ? { aliasPredicates: labels.aliasPredicates } : previous.aliasPredicates ? { aliasPredicates: previous.aliasPredicates } : {}),
        ...(labels.localNameLabels ? { localNameLabels: true } : {}),
        ...(previous.model ? { model: previous.model } : {}),
      };
      const packTmp = path.join(dir, `${PACK_FILE}.${process.pid}.tmp`);
      fs.writeFileSync(packTmp, JSON.stringify(pack, null, 2) + '\n');
      fs.renameSync(packTmp, path.join(dir, PACK_FILE));
      fs.rmSync(path.join(dir, '.cache'), { recursive: true, force: true }); // stale snapshot of older data
      const timeMs = Date.now() - t0;
      if (opts.json) printJson(io, { store: dir, pack, triples: info.size, files: abs, loadMs: info.loadMs, timeMs, labelSources: labels.labelSources });
      else {
        writeLine(io.stdout, `loaded ${info.size} triples from ${abs.length} file(s) into ${path.join(dir, dataFile)} (${timeMs} ms); pack: ${path.join(dir, PACK_FILE)}`);
        writeLine(io.stdout, `labels: ${describeLabelSources(labels.labelSources)}`);
      }
    });
};
