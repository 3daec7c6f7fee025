/**
 * Schema discovery against the real Virtuoso (bounded SPARQL over HTTP) gives the same schema as on the
 * embedded Oxigraph store; label sources of a graph without labels too.
 */
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { LOCAL_NAME_SOURCE, packageRoot } from '../../src/core';
import { EndpointExecutor, openExecutor } from '../../src/execute';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { createGateway } from '../../src/pipeline';
import { discoverSchema } from '../../src/synth/discover';
import { cli } from '../helpers/cli';
import type { Schema } from '../../src/synth/types';
import { ensureGraph, graphEndpoint } from './virtuoso-setup';

const root = packageRoot();

/** What must agree between stores (ids and timestamps differ; Virtuoso may order equal counts differently). */
function comparable(s: Schema) {
  return {
    triples: s.triples,
    labelPredicates: s.labelPredicates,
    labelSources: [...s.labelSources].sort((a, b) => (a.source < b.source ? -1 : 1)),
    classes: [...s.classes].sort((a, b) => (a.iri < b.iri ? -1 : 1)),
    properties: [...s.properties]
      .sort((a, b) => (a.iri < b.iri ? -1 : 1))
      .map((p) => ({ ...p, domain: [...p.domain].sort(), range: [...p.range].sort() })),
  };
}

describe('Virtuoso: schema discovery over a real SPARQL endpoint', function () {
  this.timeout(180_000);

  for (const [file, graph] of [
    ['books.ttl', 'http://askgraph.dev/test/books'],
    ['creatures.ttl', 'http://askgraph.dev/test/creatures'],
  ] as const) {
    it(`${file}: the same classes, properties, kinds, ranges and label sources as on Oxigraph`, async () => {
      const ttl = path.join(root, 'fixtures', 'graphs', file);
      const ox = await openExecutor(ttl);
      let local: Schema;
      try {
        local = await discoverSchema(ox);
      } finally {
        await ox.close();
      }
      await ensureGraph(ttl, graph, local.triples);
      const vt = new EndpointExecutor(graphEndpoint(graph));
      const remote = await discoverSchema(vt, { timeoutMs: 20_000 });
      assert.ok(remote.store.startsWith('sparql:'));
      assert.deepEqual(comparable(remote), comparable(local));
      if (file === 'creatures.ttl') assert.equal(remote.labelSources[0]!.source, LOCAL_NAME_SOURCE);
      else assert.equal(remote.properties.find((p) => p.name === 'publicationYear')?.valueKind, 'year');
    });
  }

  it('`init` on an endpoint URL: the pack refers to the endpoint, synthesis runs over HTTP, and `ask` answers without a parser', async () => {
    const ttl = path.join(root, 'fixtures', 'graphs', 'creatures.ttl');
    await ensureGraph(ttl, 'http://askgraph.dev/test/creatures', 20);
    const url = graphEndpoint('http://askgraph.dev/test/creatures');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-init-vt-'));
    try {
      const r = await cli(['init', url, '--out', dir, '--count', '200', '--no-train'], { ...process.env });
      assert.equal(r.code, 0, r.err);
      assert.match(r.err, /init: labels: IRI local names 14 entities/);
      const pack = JSON.parse(fs.readFileSync(path.join(dir, 'pack.json'), 'utf8'));
      assert.equal(pack.endpoint, url);
      assert.equal(pack.data, undefined);
      assert.equal(pack.localNameLabels, true);
      assert.ok(fs.readFileSync(path.join(dir, 'data', 'train.jsonl'), 'utf8').split('\n').length > 100);
      const gw = await createGateway({ store: dir });
      try {
        assert.ok(gw.executor.id.startsWith('sparql:'));
        const a = await gw.ask('what is the Frost Wyrm weak to');
        assert.ok(a.answers.some((x) => x.label === 'Fire'), JSON.stringify(a.answers));
      } finally {
        await gw.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
