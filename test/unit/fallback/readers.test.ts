import * as assert from 'node:assert/strict';
import type { TopicExclusion } from '../../../src/core';
import { ExploreReader, isFailure, PathReader, runChain, TripleReader, type ReaderSuccess } from '../../../src/fallback';
import { existsQuery, iri } from '../../../src/fallback/sparql';
import { ctx, ManualClock, MOVIES, moviesStore, PQ, pqStore, SlowExecutorStandIn, topic } from './helpers';

function ok(r: unknown): ReaderSuccess {
  assert.ok(!isFailure(r as never), `reader failed: ${JSON.stringify(r)}`);
  return r as ReaderSuccess;
}
const labels = (r: ReaderSuccess) => r.answers.map((a) => a.label);

/** Every answer occurs in the store and in the reader's own evidence. */
async function assertGroundedInStore(r: ReaderSuccess): Promise<void> {
  const nodes = new Set(r.evidence.flatMap((e) => e.triples.flatMap((t) => [t.s.value, t.o.value])));
  for (const a of r.answers) {
    assert.ok(nodes.has(a.value), `answer ${a.value} not in evidence`);
    assert.equal(await moviesStore().ask(existsQuery(iri(a.value))), true, `answer ${a.value} not in the store`);
  }
}

describe('fallback readers on a real Oxigraph store (MetaQA subset)', function () {
  this.timeout(30000);

  describe('relation-path reader (GSR)', () => {
    it('answers a 1-hop question by the best relation chain and shows the path', async () => {
      const r = ok(await new PathReader().read(ctx('who directed Cast Away', [topic(MOVIES, 'Cast Away')])));
      assert.deepEqual(labels(r), ['Robert Zemeckis']);
      assert.equal(r.evidence[0]?.triples[0]?.p.label, 'directed_by');
      assert.equal(r.evidence[0].triples[0].s.label, 'Cast Away');
      assert.ok(r.confidence > 0 && r.confidence <= 0.6);
      await assertGroundedInStore(r);
    });

    it('answers a 2-hop question (movies sharing the director) and excludes the topic', async () => {
      const r = ok(await new PathReader().read(ctx('which movies share the same director of Cast Away', [topic(MOVIES, 'Cast Away')])));
      assert.ok(labels(r).includes('Back to the Future'), labels(r).join(';'));
      assert.ok(!labels(r).includes('Cast Away'));
      assert.equal(r.evidence[0]?.triples.length, 2);
      await assertGroundedInStore(r);
    });

    it('answers a 3-hop question', async () => {
      const r = ok(await new PathReader().read(ctx('who acted in the films directed by the director of Chinatown', [topic(MOVIES, 'Chinatown')])));
      // Polanski directed The Pianist (Adrien Brody) and Rosemary's Baby (Ruth Gordon).
      assert.ok(labels(r).includes('Adrien Brody'), labels(r).slice(0, 10).join(';'));
      assert.ok(r.evidence.every((e) => e.triples.length === 3));
      assert.match(r.note ?? '', /\(JOIN \(R starred_actors\) \(JOIN directed_by \(JOIN \(R directed_by\) \[ Chinatown \]\)\)\)/);
    });

    it('uses the model scorer when given (mock scorer: the chain form it prefers wins)', async () => {
      const seen: string[][] = [];
      const scorer = (_q: string, forms: string[]) => {
        seen.push(forms);
        return Promise.resolve(forms.map((f) => (f === '(JOIN (R release_year) [ Cast Away ])' ? 0 : -50)));
      };
      const r = ok(await new PathReader().read(ctx('tell me about Cast Away', [topic(MOVIES, 'Cast Away')], { scorer })));
      assert.ok(seen[0]!.length > 1);
      assert.deepEqual(labels(r), ['2000']);
    });

    it('works without a vocabulary from relation labels alone (PathQuestion KB, no bracketed entity)', async () => {
      const q = "what is the nationality of frederica_of_mecklenburg-strelitz 's spouse ?";
      const r = ok(
        await new PathReader().read(
          ctx(q, [topic(PQ, 'frederica_of_mecklenburg-strelitz')], { executor: pqStore(), relationVocabulary: undefined, excludeTopics: false }),
        ),
      );
      assert.equal(labels(r)[0], 'united_kingdom');
      assert.deepEqual(r.evidence[0]?.triples.map((t) => t.p.label), ['spouse', 'nationality']);
    });

    it("keeps the topic out as the pack's excludeTopic says: 'retraced' only where a pair of hops goes back along one relation", async () => {
      const q = 'which movies share the same director of Cast Away';
      for (const excludeTopics of ['retraced', 'every-hop'] as const) {
        const r = ok(await new PathReader().read(ctx(q, [topic(MOVIES, 'Cast Away')], { excludeTopics })));
        assert.ok(labels(r).includes('Back to the Future') && !labels(r).includes('Cast Away'), `${excludeTopics}: ${labels(r).join(';')}`);
      }
      const kept = ok(await new PathReader().read(ctx(q, [topic(MOVIES, 'Cast Away')], { excludeTopics: false })));
      assert.ok(labels(kept).includes('Cast Away'), labels(kept).join(';'));
      // the spouse of a spouse is not a retraced pair (the same relation, the same direction): the topic answers it
      const spouses = async (excludeTopics: TopicExclusion) => {
        const r = ok(await new PathReader().read(ctx('what is the spouse of the spouse of alexander_darcy ?', [topic(PQ, 'alexander_darcy')], { executor: pqStore(), relationVocabulary: undefined, excludeTopics })));
        return labels(r);
      };
      assert.ok((await spouses('retraced')).includes('alexander_darcy'));
      assert.ok(!(await spouses(true)).includes('alexander_darcy'));
    });

    it('says it cannot read without topic entities', async () => {
      assert.deepEqual(await new PathReader().test(ctx('who directed it', [])), { reason: 'no topic entities were grounded' });
    });
  });

  describe('triple-scoring reader (SubgraphRAG)', () => {
    it('answers a 1-hop question from the top-K triples', async () => {
      const r = ok(await new TripleReader().read(ctx('what year was Forrest Gump released', [topic(MOVIES, 'Forrest Gump')])));
      assert.deepEqual(labels(r), ['1994']);
      const subgraph = r.evidence[r.evidence.length - 1]!;
      assert.match(subgraph.note ?? '', /^top-\d+ of \d+ scored triples$/);
      assert.ok(subgraph.triples.length <= 100);
      await assertGroundedInStore(r);
    });

    it('answers a 2-hop question by the best-explained relation sequence inside the top-K', async () => {
      const r = ok(await new TripleReader().read(ctx('who directed the movies written by Robert Towne', [topic(MOVIES, 'Robert Towne')])));
      assert.ok(labels(r).includes('Roman Polanski'), labels(r).join(';'));
      assert.match(r.note ?? '', /^path written_by< directed_by>;/);
      await assertGroundedInStore(r);
    });

    it('keeps topK triples only', async () => {
      const r = ok(await new TripleReader({ topK: 5 }).read(ctx('what genre is The Pianist', [topic(MOVIES, 'The Pianist')])));
      assert.equal(r.evidence[r.evidence.length - 1]?.triples.length, 5);
      assert.ok(labels(r).includes('Drama') || labels(r).includes('War'));
    });
  });

  describe('exploration reader (ToG with BM25 pruning)', () => {
    it('answers a 1-hop question and stops when the relation words are used up', async () => {
      const r = ok(await new ExploreReader().read(ctx('who starred in Forrest Gump', [topic(MOVIES, 'Forrest Gump')])));
      assert.ok(labels(r).includes('Tom Hanks'));
      assert.match(r.note ?? '', /^beam starred_actors> /);
      await assertGroundedInStore(r);
    });

    it('answers a 2-hop question over two explored relations', async () => {
      const r = ok(await new ExploreReader().read(ctx('when were the movies directed by Roman Polanski released', [topic(MOVIES, 'Roman Polanski')])));
      assert.ok(labels(r).includes('1974'), labels(r).join(';'));
      assert.match(r.note ?? '', /^beam directed_by< release_year> /);
    });

    it('prunes entities per relation to the configured count', async () => {
      const r = ok(await new ExploreReader({ entitiesPerRelation: 2 }).read(ctx('which movies did Tom Hanks star in', [topic(MOVIES, 'Tom Hanks')])));
      assert.equal(r.answers.length, 2);
    });
  });

  it('samples hub entities instead of expanding them whole (deterministically)', async () => {
    // "Drama" is a hub of this graph; with hubDegree 5 only five of its movies are fetched.
    const c = ctx('which movies have the genre Drama', [topic(MOVIES, 'Drama')]);
    const a = ok(await new ExploreReader({ hubDegree: 5, depth: 1 }).read(c));
    const b = ok(await new ExploreReader({ hubDegree: 5, depth: 1 }).read(c));
    assert.equal(a.answers.length, 5);
    assert.deepEqual(labels(a), labels(b));
    const whole = ok(await new ExploreReader({ hubDegree: 1000, depth: 1 }).read(c));
    assert.ok(whole.answers.length > 20, String(whole.answers.length));
  });

  it('a hub\'s sample is asked of the store once: the same answers, queries and rows counted the next time', async () => {
    // a recording executor over the real store (a new one: samples are kept per store)
    const sent: string[] = [];
    const store = moviesStore();
    const recording = new Proxy(store, {
      get: (target, key) => (key === 'select' ? (q: string, o?: Parameters<typeof store.select>[1]) => (sent.push(q), target.select(q, o)) : Reflect.get(target, key)) as unknown,
    });
    const c = ctx('which movies have the genre Drama', [topic(MOVIES, 'Drama')], { executor: recording });
    const first = ok(await new PathReader({ hubDegree: 5 }).read(c));
    const sampled = sent.filter((q) => /ORDER BY \(?MD5/i.test(q));
    assert.ok(sampled.length > 0, sent.join('\n'));
    sent.length = 0;
    const again = ok(await new PathReader({ hubDegree: 5 }).read(c));
    assert.deepEqual(sent.filter((q) => /ORDER BY \(?MD5/i.test(q)), []);
    assert.deepEqual(again.answers, first.answers);
    assert.deepEqual(again.evidence, first.evidence);
    assert.equal(again.note, first.note);
    assert.equal(again.stats.queries, first.stats.queries);
    assert.equal(again.stats.triples, first.stats.triples);
  });

  it('reports budget exhaustion as a failure value (queries)', async () => {
    const r = await new PathReader().read(ctx('who directed Cast Away', [topic(MOVIES, 'Cast Away')], { budget: { timeMs: 5000, maxQueries: 2, maxTriples: 100000 } }));
    assert.ok(isFailure(r));
    assert.equal(r.exhausted, 'queries');
    assert.equal(r.stats?.queries, 2);
  });

  it('reports budget exhaustion as a failure value (triples)', async () => {
    const r = await new TripleReader().read(ctx('who directed Cast Away', [topic(MOVIES, 'Cast Away')], { budget: { timeMs: 5000, maxQueries: 100, maxTriples: 10 } }));
    assert.ok(isFailure(r));
    assert.equal(r.exhausted, 'triples');
  });

  it('the chain reports the reader that ran out of time and stops there (the next reader does not answer in its place)', async () => {
    // every query costs 30 ms of a 50 ms budget on an injected clock: the reader runs out after its second query
    const clock = new ManualClock();
    const slow = new SlowExecutorStandIn(moviesStore(), clock, 30);
    const res = await runChain(
      [new TripleReader(), new PathReader()],
      ctx('who directed Cast Away', [topic(MOVIES, 'Cast Away')], { executor: slow, clock: clock.now, budget: { timeMs: 50, maxQueries: 100, maxTriples: 100000 } }),
    );
    assert.equal(res.result, undefined);
    assert.deepEqual(res.failures.map((f) => [f.reader, f.exhausted]), [['triples', 'time']]);
    assert.equal(res.stopped?.code, 'QUERY_TIMEOUT');
  });
});

describe('relation-path reader with a failing model scorer (mock scorer)', () => {
  it('falls back to the lexical ranking and says so', async () => {
    const scorer = () => Promise.reject(new Error('model not loaded'));
    const r = await new PathReader().read(ctx('who directed Cast Away', [topic(MOVIES, 'Cast Away')], { scorer }));
    assert.ok(!isFailure(r));
    assert.deepEqual(r.answers.map((a) => a.label), ['Robert Zemeckis']);
    assert.match(r.note ?? '', /model scorer failed: model not loaded/);
  });
});
