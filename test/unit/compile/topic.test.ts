import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { packageRoot } from '../../../src/core';
import { compileForm } from '../../../src/compile';
import { parseForm } from '../../../src/form';
import { loadPack } from '../../../src/execute';
import { createGateway } from '../../../src/pipeline';
import { MOVIES_NAMESPACES } from '../../helpers/movies';

describe('compile: topic exclusion at every hop', () => {
  const form = parseForm('(JOIN (R has_genre) (JOIN directed_by (JOIN (R directed_by) [ Black Snake Moan ])))');

  it("'every-hop' excludes the topic from the answer and from every intermediate JOIN node", () => {
    const { sparql } = compileForm(form, { ...MOVIES_NAMESPACES, excludeTopic: 'every-hop' });
    assert.match(sparql, /FILTER\(\?x != \?e0\)/);
    assert.match(sparql, /FILTER\(\?y0 != \?e0\)/);
    assert.match(sparql, /FILTER\(\?y1 != \?e0\)/);
  });

  it('by default excludes it from the answer only, false keeps it', () => {
    const answerOnly = compileForm(form, MOVIES_NAMESPACES).sparql;
    assert.match(answerOnly, /FILTER\(\?x != \?e0\)/);
    assert.doesNotMatch(answerOnly, /FILTER\(\?y\d != /);
    assert.doesNotMatch(compileForm(form, { ...MOVIES_NAMESPACES, excludeTopic: false }).sparql, /FILTER/);
  });
});

describe('compile: the movies pack asks for every-hop topic exclusion', () => {
  it('pack.json keeps excludeTopic through loadPack, and the gateway compiles with it', async () => {
    const pack = await loadPack();
    assert.equal(pack.config.excludeTopic, 'every-hop');
    const gateway = await createGateway({});
    try {
      const compiled = gateway.compile('(JOIN (R has_genre) (JOIN directed_by (JOIN (R directed_by) [ Heat ])))');
      assert.match(compiled.sparql, /FILTER\(\?y0 != \?e0\)/);
    } finally {
      await gateway.close();
    }
  });
});

describe('compile: a pack\'s names (pack.json "names": bare name → IRI)', () => {
  it('loadPack keeps them and the gateway compiles bare class / relation names through them', async function () {
    this.timeout(60_000);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-names-'));
    fs.copyFileSync(path.join(packageRoot(), 'fixtures', 'graphs', 'movies-small.ttl'), path.join(dir, 'graph.ttl'));
    const names = { film: 'http://askgraph.dev/movies/class/film', made_by: 'http://askgraph.dev/movies/relation/directed_by' };
    fs.writeFileSync(
      path.join(dir, 'pack.json'),
      JSON.stringify({ name: 'names-test', data: ['graph.ttl'], baseIri: 'http://askgraph.dev/movies/', vocabularyNamespace: 'http://askgraph.dev/movies/relation/', labelPredicates: ['http://www.w3.org/2000/01/rdf-schema#label'], names }),
    );
    assert.deepEqual((await loadPack(dir)).config.names, names);
    // no parser is needed to compile: a stand-in generator with an empty beam
    const generator = { id: 'empty-beam', generate: () => Promise.resolve({ candidates: [], dropped: 0, timeMs: 0 }) };
    const gateway = await createGateway({ store: dir, cacheDir: path.join(dir, '.cache'), generator });
    try {
      const compiled = gateway.compile('(COUNT (AND film (JOIN made_by [ Robert Zemeckis ])))');
      assert.match(compiled.sparql, /<http:\/\/askgraph\.dev\/movies\/class\/film>/);
      assert.match(compiled.sparql, /<http:\/\/askgraph\.dev\/movies\/relation\/directed_by>/);
    } finally {
      await gateway.close();
    }
  });
});
