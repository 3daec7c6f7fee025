/**
 * Value semantics on the real movies pack, where years are entities labelled "1994" (MetaQA): comparisons,
 * ranges, ARGMAX / ARGMIN and the aggregates read them by their label. Expected answers are computed
 * directly from store/movies/kb.txt (head|relation|tail) for directors drawn by fast-check (fixed seed).
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { packageRoot, type Executor } from '../../../src/core';
import { compileForm } from '../../../src/compile';
import { openExecutor, runCompiled } from '../../../src/execute';
import { parseForm } from '../../../src/form';
import { MOVIES_NAMESPACES } from '../../helpers/movies';

interface Kb {
  films: Map<string, string[]>; // director → films
  years: Map<string, number[]>; // film → years
}

function readKb(): Kb {
  const films = new Map<string, string[]>();
  const years = new Map<string, number[]>();
  for (const line of fs.readFileSync(path.join(packageRoot(), 'store', 'movies', 'kb.txt'), 'utf8').split('\n')) {
    const [h, r, t] = line.split('|');
    if (!h || !t) continue;
    if (r === 'directed_by') films.set(t, [...(films.get(t) ?? []), h]);
    if (r === 'release_year' && /^\d{4}$/.test(t)) years.set(h, [...(years.get(h) ?? []), Number(t)]);
  }
  return { films, years };
}

describe('compile: values of entity objects (MetaQA years are entities labelled "1994", embedded movies pack)', function () {
  this.timeout(120_000);
  let ex: Executor | undefined;
  let kb: Kb;
  let directors: string[];
  before(async () => {
    ex = await openExecutor();
    kb = readKb();
    // directors with 3–30 films that all have a year, names that stay one bracketed label
    directors = [...kb.films.entries()]
      .filter(([d, fs]) => fs.length >= 3 && fs.length <= 30 && fs.every((f) => kb.years.has(f)) && !/[[\]()\\]/.test(d) && d.trim() === d)
      .map(([d]) => d)
      .sort();
    assert.ok(directors.length > 100, `${directors.length} directors`);
  });
  after(() => ex?.close());

  const answers = async (form: string): Promise<string[]> => {
    const out = await runCompiled(ex!, compileForm(parseForm(form), { ...MOVIES_NAMESPACES, excludeTopic: 'every-hop' }), { timeoutMs: 30_000 });
    assert.ok(out.status === 'answers' || out.status === 'empty', `${form}: ${out.status} ${JSON.stringify(out.error)}`);
    return out.answers.map((a) => a.label ?? a.value).sort();
  };
  const uniq = (xs: string[]) => [...new Set(xs)].sort();

  it('GT / LE, a range (one value in it), ARGMAX / ARGMIN and MAX / MIN / COUNT agree with the triples', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.integer({ min: 1940, max: 2010 }), async (i, y) => {
        const d = directors[i % directors.length]!;
        const films = uniq(kb.films.get(d)!.filter((f) => f !== d));
        const ys = (f: string) => kb.years.get(f)!;
        const D = `(JOIN directed_by [ ${d} ])`;
        assert.deepEqual(await answers(`(AND ${D} (GT release_year ${y}))`), films.filter((f) => ys(f).some((v) => v > y)), `GT ${d} ${y}`);
        assert.deepEqual(await answers(`(AND ${D} (LE release_year ${y}))`), films.filter((f) => ys(f).some((v) => v <= y)), `LE ${d} ${y}`);
        assert.deepEqual(
          await answers(`(AND ${D} (AND (GE release_year ${y}) (LT release_year ${y + 10})))`),
          films.filter((f) => ys(f).some((v) => v >= y && v < y + 10)),
          `range ${d} ${y}`,
        );
        const all = films.flatMap(ys);
        const max = Math.max(...all);
        const min = Math.min(...all);
        assert.deepEqual(await answers(`(ARGMAX ${D} release_year)`), films.filter((f) => ys(f).includes(max)), `ARGMAX ${d}`);
        assert.deepEqual(await answers(`(ARGMIN ${D} release_year)`), films.filter((f) => ys(f).includes(min)), `ARGMIN ${d}`);
        assert.deepEqual(await answers(`(MAX (JOIN (R release_year) ${D}))`), [String(max)]);
        assert.deepEqual(await answers(`(MIN (JOIN (R release_year) ${D}))`), [String(min)]);
        assert.deepEqual(await answers(`(COUNT (AND ${D} (GT release_year ${y})))`), [String(films.filter((f) => ys(f).some((v) => v > y)).length)]);
      }),
      { numRuns: 12, seed: 20261123 },
    );
  });

  it('AVG / SUM count every (film, year) pair of the set, by the labels', async () => {
    const d = directors[0]!;
    const films = uniq(kb.films.get(d)!);
    const pairs = films.flatMap((f) => uniq(kb.years.get(f)!.map(String)).map(Number));
    const sum = pairs.reduce((a, b) => a + b, 0);
    assert.deepEqual(await answers(`(SUM (JOIN (R release_year) (JOIN directed_by [ ${d} ])))`), [String(sum)]);
    const [avg] = await answers(`(AVG (JOIN (R release_year) (JOIN directed_by [ ${d} ])))`);
    assert.ok(Math.abs(Number(avg) - sum / pairs.length) < 1e-6, `${avg} vs ${sum / pairs.length}`);
  });

  it('ABSDIFF of two films\' years (entities labelled "1994"): |a − b| when each has one year, no answer when one has two', async () => {
    const films = [...kb.years.keys()].filter((f) => !/[[\]()\\]/.test(f) && f.trim() === f).sort();
    const years = (f: string) => uniq(kb.years.get(f)!.map(String)).map(Number);
    const twoYears = films.filter((f) => years(f).length > 1);
    assert.ok(twoYears.length > 0, 'MetaQA has films with two years');
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.nat(), fc.boolean(), async (i, j, merged) => {
        const a = merged ? twoYears[i % twoYears.length]! : films[i % films.length]!;
        const b = films[j % films.length]!;
        const [ya, yb] = [years(a), years(b)];
        const expected = ya.length === 1 && yb.length === 1 ? [String(Math.abs(ya[0]! - yb[0]!))] : [];
        assert.deepEqual(await answers(`(ABSDIFF (JOIN (R release_year) [ ${a} ]) (JOIN (R release_year) [ ${b} ]))`), expected, `${a} ${ya.join(',')} / ${b} ${yb.join(',')}`);
      }),
      { numRuns: 16, seed: 20261123 },
    );
  });
});
