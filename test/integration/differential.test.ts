/**
 * Differential test: the same compiled forms return the same answers on the embedded Oxigraph and on
 * a real Virtuoso. (1) every golden case of fixtures/cases on the fixture graph; (2) a sample of the
 * MetaQA validation forms on the whole movies graph; (3) random walks over the movies graph turned
 * into forms (fast-check property).
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { CompiledQuery, Outcome, packageRoot, pushTo } from '../../src/core';
import { compileForm } from '../../src/compile';
import { parseForm } from '../../src/form';
import { EndpointExecutor, openExecutor, runCompiled, StoreExecutor } from '../../src/execute';
import { fixtureGraph, loadCases } from '../unit/compile/cases-lib';
import { ensureGraph, graphEndpoint, moviesNTriples } from './virtuoso-setup';
import { MOVIES_NAMESPACES } from '../helpers/movies';
import { closeAll } from '../helpers/close-all';

const TIMEOUT = 30_000;

function summary(o: Outcome): { status: string; answers: string[]; rows?: string[] } {
  const text = (a: Outcome['answers'][number] | null): string => (a === null ? '∅' : `${a.type} ${a.value} ${a.datatype ?? ''} ${a.label ?? ''}`);
  return {
    status: o.status,
    answers: o.answers.map(text).sort(),
    // a table's rows in the outcome's order (its ORDER BY, else the canonical one): the same rows in the same order
    ...(o.table ? { rows: o.table.rows.map((row) => row.map(text).join(' | ')) } : {}),
  };
}

async function same(a: StoreExecutor, b: EndpointExecutor, compiled: CompiledQuery, what: string): Promise<Outcome> {
  const [x, y] = [await runCompiled(a, compiled, { timeoutMs: TIMEOUT }), await runCompiled(b, compiled, { timeoutMs: TIMEOUT })];
  assert.ok(x.status === 'answers' || x.status === 'empty', `${what}: Oxigraph ${x.status} ${JSON.stringify(x.error)}\n${compiled.sparql}`);
  assert.ok(y.status === 'answers' || y.status === 'empty', `${what}: Virtuoso ${y.status} ${JSON.stringify(y.error)}\n${compiled.sparql}`);
  assert.deepEqual(summary(y), summary(x), `${what}: answers differ\n${compiled.sparql}`);
  return x;
}

describe('differential: Oxigraph vs Virtuoso on the golden cases (fixture graph)', function () {
  this.timeout(180_000);
  const GRAPH = 'http://askgraph.dev/test/movies-small';
  let ox: StoreExecutor;
  let vt: EndpointExecutor;
  before(async () => {
    ox = await openExecutor(fixtureGraph());
    await ensureGraph(fixtureGraph(), GRAPH, await ox.count('SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }'));
    vt = new EndpointExecutor(graphEndpoint(GRAPH));
  });
  after(() => closeAll(ox));

  const cases = loadCases();
  it('there are golden cases to compare', () => assert.ok(cases.length >= 20, `${cases.length} cases`));
  for (const c of cases) {
    it(c.name, async () => {
      await same(ox, vt, compileForm(parseForm(c.form), c.options), c.name);
    });
  }
});

describe('differential: Oxigraph vs Virtuoso on the movies graph', function () {
  this.timeout(600_000);
  const GRAPH = 'http://askgraph.dev/test/movies';
  let ox: StoreExecutor;
  let vt: EndpointExecutor;
  before(async () => {
    ox = await openExecutor(); // the embedded movies pack
    await ensureGraph(moviesNTriples(), GRAPH, await ox.count('SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }', { timeoutMs: 60_000 }));
    vt = new EndpointExecutor(graphEndpoint(GRAPH));
  });
  after(() => closeAll(ox));

  it('every 20th MetaQA validation form (1-, 2- and 3-hop) gives the same answers', async () => {
    const lines = fs.readFileSync(path.join(packageRoot(), 'fixtures', 'metaqa', 'valid.jsonl'), 'utf8').trim().split('\n');
    const sample = lines.filter((_, i) => i % 20 === 0).map((l) => JSON.parse(l) as { id: string; form: string });
    assert.ok(sample.length > 90);
    let nonEmpty = 0;
    for (const ex of sample) {
      const out = await same(ox, vt, compileForm(parseForm(ex.form), MOVIES_NAMESPACES), ex.id);
      if (out.status === 'answers') nonEmpty++;
    }
    assert.ok(nonEmpty > sample.length * 0.9, `only ${nonEmpty} of ${sample.length} forms have answers`);
  });

  it('the v2 operators over MetaQA (years are entities labelled "1994") give the same answers', async () => {
    const forms = [
      '(ASK (AND [ Jaws ] (JOIN directed_by [ Steven Spielberg ])))',
      '(ASK (AND [ Jaws ] (JOIN directed_by [ Ron Howard ])))',
      '(ASK (AND (JOIN (R has_genre) [ Jaws ]) (JOIN (R has_genre) [ Alien ])))',
      '(ARGMIN (OR [ Heat ] [ Casino ]) release_year)',
      '(ASK (DIFF [ Heat ] (ARGMIN (OR [ Heat ] [ Casino ]) release_year)))',
      '(AND (JOIN starred_actors [ Tom Hanks ]) (AND (GE release_year 1990) (LT release_year 2000)))',
      '(DIFF (JOIN starred_actors [ Tom Hanks ]) (JOIN directed_by [ Ron Howard ]))',
      '(OR (JOIN directed_by [ Ron Howard ]) (JOIN directed_by [ Penny Marshall ]))',
      '(AVG (JOIN (R release_year) (JOIN directed_by [ Alfred Hitchcock ])))',
      '(SUM (JOIN (R release_year) (JOIN directed_by [ Ron Howard ])))',
      '(MAX (JOIN (R release_year) (JOIN starred_actors [ Tom Hanks ])))',
      '(MIN (JOIN (R release_year) (JOIN starred_actors [ Tom Hanks ])))',
      '(RATIO (JOIN directed_by [ Alfred Hitchcock ]) (JOIN directed_by [ Steven Spielberg ]))',
      '(PERCENT (AND (JOIN directed_by [ Alfred Hitchcock ]) (JOIN has_genre [ Thriller ])) (JOIN directed_by [ Alfred Hitchcock ]))',
      '(MOSTCOMMON (JOIN directed_by [ Alfred Hitchcock ]) has_genre)',
      '(LEASTCOMMON (JOIN starred_actors [ Tom Hanks ]) has_genre)',
      '(ARGMAXCOUNT (JOIN directed_by [ Alfred Hitchcock ]) starred_actors)',
      '(ARGMINCOUNT (JOIN directed_by [ Ron Howard ]) written_by)',
      '(COUNT (DIFF (JOIN directed_by [ Woody Allen ]) (JOIN starred_actors [ Woody Allen ])))',
      '(ARGMAX (JOIN starred_actors [ Tom Hanks ]) release_year)',
    ];
    let nonEmpty = 0;
    for (const f of forms) {
      const out = await same(ox, vt, compileForm(parseForm(f), { ...MOVIES_NAMESPACES, excludeTopic: 'every-hop' }), f);
      if (out.status === 'answers') nonEmpty++;
    }
    assert.equal(nonEmpty, forms.length, 'every v2 form has an answer on the movies graph');
  });

  it('random walks over the graph as forms (chains, reverse hops, COUNT, AND) give the same answers (property)', async () => {
    const kb = fs.readFileSync(path.join(packageRoot(), 'store', 'movies', 'kb.txt'), 'utf8').trim().split('\n').map((l) => l.split('|'));
    // labels that stay one bracketed entity in the form syntax
    const ok = (s: string) => !/[[\]()]/.test(s) && s.trim() === s;
    const out = new Map<string, [string, string][]>();
    const inc = new Map<string, [string, string][]>();
    for (const line of kb) {
      const [h, r, t] = line;
      if (h === undefined || r === undefined || t === undefined) throw new Error(`kb.txt: a line without three fields: ${line.join('|')}`);
      if (!ok(h) || !ok(t)) continue;
      pushTo(out, h, [r, t]);
      pushTo(inc, t, [r, h]);
    }
    const heads = [...out.keys()];
    // A walk from a start entity: each step follows an edge forward ((JOIN (R r) x): objects) or backward ((JOIN r x): subjects).
    const walk = fc.record({
      start: fc.nat({ max: heads.length - 1 }),
      steps: fc.array(fc.tuple(fc.boolean(), fc.nat()), { minLength: 1, maxLength: 3 }),
      count: fc.boolean(),
      and: fc.option(fc.nat(), { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(walk, async ({ start, steps, count, and }) => {
        let node = heads[start]!;
        let form = `[ ${node} ]`;
        for (const [forward, pick] of steps) {
          const edges = forward ? out.get(node) : inc.get(node);
          if (!edges || edges.length === 0) break;
          const [r, next] = edges[pick % edges.length]!;
          form = forward ? `(JOIN (R ${r}) ${form})` : `(JOIN ${r} ${form})`;
          node = next;
        }
        if (and !== undefined) {
          const edges = out.get(node);
          if (edges?.length) {
            const [r, o] = edges[and % edges.length]!;
            form = `(AND (JOIN ${r} [ ${o} ]) ${form})`;
          }
        }
        if (count) form = `(COUNT ${form})`;
        await same(ox, vt, compileForm(parseForm(form), MOVIES_NAMESPACES), form);
      }),
      { numRuns: 40, seed: 20261122 },
    );
  });
});
