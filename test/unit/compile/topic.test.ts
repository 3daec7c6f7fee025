import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { packageRoot, RDFS_LABEL, type Executor, type TopicExclusion } from '../../../src/core';
import { compileForm, type CompileOptions } from '../../../src/compile';
import { parseForm } from '../../../src/form';
import { loadPack, openExecutor, runCompiled } from '../../../src/execute';
import { createGateway } from '../../../src/pipeline';
import { MOVIES_NAMESPACES } from '../../helpers/movies';
import { FixedBeam } from '../pipeline/fixed-beam';

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

describe("compile: 'retraced' topic exclusion — only where a path goes back along its own relation", () => {
  // a made-up family and its films: Ana and Ben are married; Ana directed two films, Ben one
  const N = 'http://example.org/fam/';
  const R = `${N}rel/`;
  const ttl = [
    ['ana', 'Ana Roe'], ['ben', 'Ben Roe'], ['f1', 'First Light'], ['f2', 'Second Wind'], ['f3', 'Third Act'],
  ].map(([id, label]) => `<${N}${id}> <${RDFS_LABEL}> "${label}" .`).concat([
    `<${N}ana> <${R}spouse> <${N}ben> .`, `<${N}ben> <${R}spouse> <${N}ana> .`,
    `<${N}f1> <${R}directedBy> <${N}ana> .`, `<${N}f2> <${R}directedBy> <${N}ana> .`, `<${N}f3> <${R}directedBy> <${N}ben> .`,
  ]).join('\n');
  const opts = { vocabularyNamespace: R, entityNamespace: N, excludeTopic: 'retraced' as const };
  /** pack.json of the family graph, less its excludeTopic */
  const packConfig = { name: 'fam', data: ['graph.ttl'], baseIri: N, vocabularyNamespace: R, labelPredicates: [RDFS_LABEL] };
  let dir = '';
  let ex: Executor | undefined;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-retraced-'));
    fs.writeFileSync(path.join(dir, 'graph.ttl'), ttl);
    ex = await openExecutor(path.join(dir, 'graph.ttl'));
  });
  after(async () => {
    await ex?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const answers = async (form: string, o: CompileOptions = opts): Promise<string[]> => {
    const out = await runCompiled(ex!, compileForm(parseForm(form), o), { timeoutMs: 30_000 });
    assert.ok(out.status === 'answers' || out.status === 'empty', `${form}: ${out.status}`);
    return out.answers.map((a) => a.value.slice(N.length)).sort();
  };

  it('the other films of the director of a film: the film itself is left out, in either direction of the pair', async () => {
    assert.deepEqual(await answers(`(JOIN directedBy (JOIN (R directedBy) <${N}f1>))`), ['f2']);
    // one hop deeper: the directors of the other films of f1's director
    assert.deepEqual(await answers(`(JOIN (R directedBy) (JOIN directedBy (JOIN (R directedBy) <${N}f1>)))`), ['ana']);
    // the pair written the other way round: who else directed films that Ana directed — nobody
    assert.deepEqual(await answers(`(JOIN (R directedBy) (JOIN directedBy <${N}ana>))`), []);
  });

  it('a path of other relations that comes back to the topic keeps it: the spouse of Ana\'s spouse is Ana', async () => {
    assert.deepEqual(await answers(`(JOIN (R spouse) (JOIN (R spouse) <${N}ana>))`), ['ana']);
    // the answers-only rule drops her, leaving no answer at all
    assert.deepEqual(await answers(`(JOIN (R spouse) (JOIN (R spouse) <${N}ana>))`, { ...opts, excludeTopic: true }), []);
    // one hop is never a retraced path: the films Ana directed are all there
    assert.deepEqual(await answers(`(JOIN directedBy <${N}ana>)`), ['f1', 'f2']);
  });

  it('the filter sits on the node that closes the pair, no other', () => {
    const form = parseForm('(JOIN (R has_genre) (JOIN directed_by (JOIN (R directed_by) [ Black Snake Moan ])))');
    const { sparql } = compileForm(form, { ...MOVIES_NAMESPACES, excludeTopic: 'retraced' });
    assert.match(sparql, /FILTER\(\?y0 != \?e0\)/);
    assert.doesNotMatch(sparql, /FILTER\(\?(x|y1) != /);
  });

  it('pack.json accepts it; another value is refused with DATA_FORMAT', async () => {
    fs.writeFileSync(path.join(dir, 'pack.json'), JSON.stringify({ ...packConfig, excludeTopic: 'retraced' }));
    assert.equal((await loadPack(dir)).config.excludeTopic, 'retraced');
    fs.writeFileSync(path.join(dir, 'pack.json'), JSON.stringify({ ...packConfig, excludeTopic: 'sometimes' }));
    await assert.rejects(loadPack(dir), (e: Error & { code?: string }) => e.code === 'DATA_FORMAT');
  });

  it("the fallback readers follow the pack's setting: the spouse of Ana's spouse is Ana with 'retraced', not with true", async function () {
    this.timeout(60_000);
    const Q = 'who is the spouse of the spouse of Ana Roe';
    // the parser's one reading is empty (films directed by films), which hands the question to the fallback readers
    const generator = new FixedBeam({ [Q]: [['(JOIN directedBy (JOIN directedBy [ Ana Roe ]))', -0.1]] }, {}, -50);
    const ask = async (excludeTopic: TopicExclusion) => {
      fs.writeFileSync(path.join(dir, 'pack.json'), JSON.stringify({ ...packConfig, excludeTopic }));
      const gateway = await createGateway({ store: dir, cacheDir: path.join(dir, '.cache'), generator });
      try {
        const a = await gateway.ask(Q, { fallback: ['paths'] });
        return { source: a.source, answers: a.answers.map((x) => x.label) };
      } finally {
        await gateway.close();
      }
    };
    // the readers' chains: spouse (Ben), and spouse of spouse, which reaches Ana again without going back along a hop
    const retraced = await ask('retraced');
    assert.equal(retraced.source, 'fallback:paths');
    assert.ok(retraced.answers.includes('Ana Roe'), retraced.answers.join('; '));
    const answersOnly = await ask(true);
    assert.equal(answersOnly.source, 'fallback:paths');
    assert.ok(!answersOnly.answers.includes('Ana Roe'), answersOnly.answers.join('; '));
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
