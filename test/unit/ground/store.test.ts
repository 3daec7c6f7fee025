import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { packageRoot, RDF_TYPE, type Executor } from '../../../src/core';
import { openExecutor } from '../../../src/execute';
import {
  buildStoreIndex,
  fetchLabels,
  groundCandidates,
  locateInQuestion,
  neighbours2Query,
  permute,
  RelationRetriever,
  relationSimilarity,
  type EntityIndex,
} from '../../../src/ground';
import { beam, collect } from '../../helpers/ground';

const NS = 'http://askgraph.dev/movies/relation/';
const ENT = 'http://askgraph.dev/movies/entity/';
const LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';

describe('ground: over the real Oxigraph store (fixtures/graphs/movies-small.ttl)', function () {
  this.timeout(60000);
  let executor: Executor | undefined;
  let index: EntityIndex;
  let relations: RelationRetriever;
  let vocabulary: Set<string>;

  before(async () => {
    executor = await openExecutor(path.join(packageRoot(), 'fixtures', 'graphs', 'movies-small.ttl'));
    index = await buildStoreIndex(executor, { excludeNamespaces: [NS] });
    relations = new RelationRetriever(executor, { exclude: [LABEL] });
    vocabulary = new Set((index.meta.relations as { iri: string }[]).map((r) => r.iri));
  });
  after(async () => {
    await executor?.close();
  });

  it('fetches labels page by page (same set as one page) and skips the vocabulary namespace', async () => {
    const paged = await fetchLabels(executor!, { pageSize: 7, excludeNamespaces: [NS] });
    const whole = await fetchLabels(executor!, { pageSize: 100000, excludeNamespaces: [NS] });
    assert.ok(whole.length > 20);
    assert.deepEqual(new Set(paged.map((e) => e.iri + '|' + e.label)), new Set(whole.map((e) => e.iri + '|' + e.label)));
    assert.ok(!whole.some((e) => e.iri.startsWith(NS)));
    assert.ok(whole.some((e) => e.iri === ENT + 'Forrest%20Gump' && e.label === 'Forrest Gump'));
  });

  it('alias predicates (skos:altLabel) are indexed next to rdfs:label', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-alias-'));
    const file = path.join(dir, 'alias.ttl');
    fs.writeFileSync(
      file,
      [
        '@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .',
        '@prefix skos: <http://www.w3.org/2004/02/skos/core#> .',
        '<http://example.org/e/1> rdfs:label "The Godfather Part II" ; skos:altLabel "Godfather 2"@en .',
        '<http://example.org/e/2> rdfs:label "Heat" .',
      ].join('\n'),
    );
    const ex = await openExecutor(file);
    try {
      const idx = await buildStoreIndex(ex, { aliasPredicates: ['http://www.w3.org/2004/02/skos/core#altLabel'] });
      assert.equal(idx.search('Godfather 2')[0]?.iri, 'http://example.org/e/1');
      const plain = await buildStoreIndex(ex);
      assert.notEqual(plain.search('Godfather 2')[0]?.score, 1, 'without the alias predicate there is no exact hit');
    } finally {
      await ex.close();
    }
  });

  it('relation vocabulary comes from the store, without the label predicate', () => {
    assert.ok(vocabulary.has(NS + 'directed_by'));
    assert.ok(vocabulary.has(NS + 'starred_actors'));
    assert.ok(!vocabulary.has(LABEL));
  });

  it('relation retrieval: neighbourhood of an entity (1 and 2 hops) and ranking by name similarity', async () => {
    const one = (await relations.neighbourhood([ENT + 'Robert%20Zemeckis'], 1)).map((r) => r.name);
    assert.ok(one.includes('directed_by'));
    assert.ok(!one.includes('label'));
    const two = (await relations.neighbourhood([ENT + 'Robert%20Zemeckis'], 2)).map((r) => r.name);
    assert.ok(two.includes('starred_actors'), '2 hops: relations of the films he directed');
    const around = await relations.neighbourhood([ENT + 'Forrest%20Gump'], 1);
    assert.equal(relations.rank('directed_by', around)[0]!.name, 'directed_by');
    assert.equal(relations.rank('director', around)[0]!.name, 'directed_by');
    assert.equal(relations.rank('actors', around)[0]!.name, 'starred_actors');
    assert.deepEqual(relations.rank('zzzz', around, 3, 0.5), []);
    assert.equal(relationSimilarity('directed_by', { iri: NS + 'directed_by', name: 'directed_by' }), 1);
    assert.ok(relationSimilarity('film.directed_by', { iri: NS + 'directed_by', name: 'directed_by' }) > 0.7);
  });

  it('relation retrieval, 2 hops: the same predicates as the sampled query, asked without isIRI on a subject when the sample is every neighbour', async () => {
    // a recording executor over the real store: which queries the retriever sends
    const sent: string[] = [];
    const inner = executor!;
    const recording = new Proxy(inner, {
      get: (target, key) => (key === 'select' ? (q: string, o?: Parameters<Executor['select']>[1]) => (sent.push(q), target.select(q, o)) : Reflect.get(target, key)) as unknown,
    });
    const predicates = async (e: string, sample: number) => {
      const rows = (await executor!.select(neighbours2Query([e], sample, 500))).rows;
      return new Set(rows.flatMap((r) => (r.p?.type === 'uri' && r.p.value !== LABEL && r.p.value !== RDF_TYPE ? [r.p.value] : [])));
    };
    const zemeckis = ENT + 'Robert%20Zemeckis';
    // few neighbours (at most the sample of 50): every neighbour is in the sample, the predicates are the same set
    const few = new RelationRetriever(recording, { exclude: [LABEL] });
    const got = new Set((await few.neighbourhood([zemeckis], 2)).map((r) => r.iri));
    assert.deepEqual(got, new Set([...(await few.neighbourhood([zemeckis], 1)).map((r) => r.iri), ...(await predicates(zemeckis, 50))]));
    assert.ok(got.has(NS + 'starred_actors'));
    // Virtuoso scans the whole graph for isIRI(?m) on a subject (2.8 s on 28M triples): no query sent says it
    assert.ok(sent.length >= 3, sent.join('\n'));
    assert.ok(!sent.some((q) => /isIRI\(\?m\)/i.test(q)), sent.join('\n'));
    // more neighbours than the sample: which are sampled is the store's choice, so the sampled query itself is sent
    sent.length = 0;
    const small = new RelationRetriever(recording, { exclude: [LABEL], sample: 1 });
    const some = new Set((await small.neighbourhood([zemeckis], 2)).map((r) => r.iri));
    assert.ok(sent.includes(neighbours2Query([zemeckis], 1, 500)), sent.join('\n'));
    for (const p of await predicates(zemeckis, 1)) assert.ok(some.has(p), p);
  });

  it('relation retrieval, 2 hops: a class among the neighbours is asked apart once and kept across questions, the predicates the same as one query', async () => {
    const books = await openExecutor(path.join(packageRoot(), 'fixtures', 'graphs', 'books.ttl'));
    try {
      const B = 'http://example.org/books/';
      const sent: string[] = [];
      const recording = new Proxy(books, {
        get: (target, key) => (key === 'select' ? (q: string, o?: Parameters<Executor['select']>[1]) => (sent.push(q), target.select(q, o)) : Reflect.get(target, key)) as unknown,
      });
      const retriever = new RelationRetriever(recording, { exclude: [LABEL] });
      // the reference: the predicates around every neighbour, asked as one query (what was sent before)
      const oneQuery = async (e: string) => {
        const near = (await books.select(`SELECT DISTINCT ?m WHERE { { <${e}> ?q ?m } UNION { ?m ?q <${e}> } FILTER(isIRI(?m)) }`)).rows.flatMap((r) => (r.m ? [r.m.value] : []));
        assert.ok(near.includes(B + 'Author'), 'the author\'s class is among its neighbours');
        const first = (await books.select(`SELECT DISTINCT ?p WHERE { <${e}> ?p ?o } `)).rows.concat((await books.select(`SELECT DISTINCT ?p WHERE { ?o ?p <${e}> }`)).rows);
        const second = (await books.select(`SELECT DISTINCT ?p WHERE { VALUES ?e { ${near.map((m) => `<${m}>`).join(' ')} } { ?e ?p ?o } UNION { ?o ?p ?e } }`)).rows;
        return new Set([...first, ...second].flatMap((r) => (r.p && r.p.value !== LABEL && r.p.value !== RDF_TYPE ? [r.p.value] : [])));
      };
      const alone = (q: string) => /VALUES \?e \{\s*<http:\/\/example\.org\/books\/Author>\s*\}/.test(q);
      for (const author of ['Ada_Marsh', 'Bruno_Kell']) {
        const got = new Set((await retriever.neighbourhood([B + author], 2)).map((r) => r.iri));
        assert.deepEqual(got, await oneQuery(B + author), author);
      }
      assert.equal(sent.filter(alone).length, 1, `the class is asked alone once, for the first author only:\n${sent.join('\n')}`);
    } finally {
      await books.close();
    }
  });

  it('locates a (cut) copied label in the question', () => {
    assert.deepEqual(locateInQuestion('Forrest Gump', 'who directed Forrest Gump'), { start: 2, end: 4 });
    assert.deepEqual(locateInQuestion('Forre', 'who directed Forrest Gump'), { start: 2, end: 3 });
    assert.deepEqual(locateInQuestion('rest Gu', 'who directed Forrest Gump'), { start: 2, end: 4 });
    assert.equal(locateInQuestion('Titanic', 'who directed Forrest Gump'), undefined);
  });

  it('permute keeps the best products first', () => {
    const p = permute([[{ score: 1 }, { score: 0.5 }], [{ score: 0.9 }, { score: 0.8 }]], 3);
    assert.deepEqual(p.map((x) => Number(x.score.toFixed(2))), [0.9, 0.8, 0.45]);
  });

  it('Algorithm 1 ordering (fixed-beam generator): exact beam forms in beam order, then entity, then relation retrieval', async () => {
    const cands = beam(
      ['(JOIN (R written_by) [ Forrest Gump ])', -0.1],
      ['(JOIN (R directed_by) [ Forest Gump ])', -0.5],
      ['(JOIN (R director) [ Cast Away ])', -1.5],
      ['(JOIN (R has_genre) [ Forrest Gump ])', -2.0],
    );
    const attempts = await collect(groundCandidates(cands, { index, relations, vocabulary, vocabularyNamespace: NS }));
    const phases = attempts.map((a) => a.phase);
    // exact: beams 0 and 3 (beam 1 misspelt, beam 2 has a relation not in the vocabulary)
    assert.deepEqual(attempts.slice(0, 2).map((a) => [a.phase, a.candidate.rank]), [['exact', 0], ['exact', 3]]);
    assert.equal(attempts[0]?.text, `(JOIN (R <${NS}written_by>) <${ENT}Forrest%20Gump>)`);
    assert.equal(attempts[0].score, -0.1);
    // phases never go back
    const order = ['exact', 'entity', 'relation'];
    for (let i = 1; i < phases.length; i++) assert.ok(order.indexOf(phases[i]!) >= order.indexOf(phases[i - 1]!), phases.join(','));
    // no grounded form twice
    assert.equal(new Set(attempts.map((a) => a.text)).size, attempts.length);
    // the misspelt beam 1 grounds to Forrest Gump in the entity phase with a combined score < its log-prob
    const fixed = attempts.find((a) => a.phase === 'entity' && a.candidate.rank === 1 && a.text.includes('Forrest%20Gump'));
    assert.ok(fixed, 'entity retrieval repairs the misspelt label');
    assert.ok(fixed.score < -0.5 && fixed.score > -0.8);
    // within a phase, attempts are ordered by combined score
    for (const ph of ['entity', 'relation']) {
      const s = attempts.filter((a) => a.phase === ph).map((a) => a.score);
      assert.deepEqual(s, [...s].sort((a, b) => b - a), ph);
    }
    // relation retrieval maps the unknown relation "director" to directed_by
    const rel = attempts.find((a) => a.phase === 'relation' && a.candidate.rank === 2);
    assert.ok(rel, 'relation phase reached for beam 2');
    assert.equal(rel.text, `(JOIN (R <${NS}directed_by>) <${ENT}Cast%20Away>)`);
    assert.equal(attempts.find((a) => a.phase === 'relation'), rel, 'the best relation variant comes first: ' + attempts.filter((a) => a.phase === 'relation').map((a) => a.text.replace(/<[^>]*\//g, '<') + ' ' + a.score.toFixed(3)).join(' ; '));
  });

  it('Algorithm 1 with the question: a cut copy ("Forre") grounds to the linked span (fixed-beam generator)', async () => {
    const cands = beam(['(JOIN (R directed_by) [ Forre ])', -0.2]);
    const attempts = await collect(groundCandidates(cands, { index, relations, vocabulary, vocabularyNamespace: NS, question: 'who directed Forrest Gump' }));
    assert.equal(attempts[0]?.phase, 'entity');
    assert.ok(attempts[0].text.includes('Forrest%20Gump'), attempts[0].text);
  });

  it('ablations (fixed-beam generator): without entity retrieval the beam forms come as generated; without relation retrieval no relation phase', async () => {
    const cands = beam(['(JOIN (R director) [ Forest Gump ])', -0.1]);
    const noEnt = await collect(groundCandidates(cands, { index, relations, vocabulary, vocabularyNamespace: NS }, { entityRetrieval: false, relationRetrieval: false }));
    assert.deepEqual(noEnt.map((a) => a.phase), ['beam']);
    assert.ok(noEnt[0]?.text.includes('[ Forest Gump ]'));
    const noRel = await collect(groundCandidates(cands, { index, relations, vocabulary, vocabularyNamespace: NS }, { relationRetrieval: false }));
    assert.ok(noRel.length > 0 && noRel.every((a) => a.phase === 'entity'));
  });
});
