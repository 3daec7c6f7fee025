/** Schema discovery on real Oxigraph stores: a typed graph (books), an untyped triple file with year entities, a graph without labels. */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LOCAL_NAME_SOURCE, packageRoot, RDFS_LABEL, type Executor, type SelectResult } from '../../../src/core';
import { openExecutor, type StoreExecutor } from '../../../src/execute';
import { assignNames, describeLabelSources, discoverLabelSources, discoverSchema, namesOf, valueKindOf } from '../../../src/synth/discover';
import type { Schema } from '../../../src/synth/types';

const root = packageRoot();
const XSD = 'http://www.w3.org/2001/XMLSchema#';
const B = 'http://example.org/books/';

describe('synth: schema discovery (Oxigraph)', function () {
  this.timeout(60000);

  describe('a typed graph with declared domains and ranges (fixtures/graphs/books.ttl)', () => {
    let ex: StoreExecutor | undefined;
    let schema: Schema;
    before(async () => {
      ex = await openExecutor(path.join(root, 'fixtures', 'graphs', 'books.ttl'));
      schema = await discoverSchema(ex);
    });
    after(() => ex?.close());

    const prop = (name: string) => {
      const p = schema.properties.find((x) => x.name === name);
      assert.ok(p, `property ${name} in ${schema.properties.map((x) => x.name).join(' ')}`);
      return p;
    };

    it('classes with instance counts, most used first', () => {
      assert.deepEqual(
        schema.classes.map((c) => [c.name, c.count, c.label]),
        [
          ['Book', 36, 'book'],
          ['Author', 10, 'author'],
          ['City', 6, 'city'],
          ['Genre', 5, 'genre'],
          ['Publisher', 4, 'publisher'],
        ],
      );
      assert.equal(schema.triples, 445);
    });

    it('properties: counts, distinct subjects/objects, domain/range, functional or not', () => {
      assert.equal(schema.properties.length, 9, 'rdf:type, rdfs:label and the schema predicates are not data properties');
      const w = prop('writtenBy');
      assert.deepEqual([w.count, w.subjects, w.objects, w.functional, w.objectKind], [42, 36, 10, false, 'entity']);
      assert.deepEqual([w.domain, w.range], [[B + 'Book'], [B + 'Author']]);
      assert.equal(w.label, 'written by');
      const p = prop('publishedBy');
      assert.equal(p.functional, true);
      assert.equal(prop('hasGenre').functional, false);
    });

    it('literal values: datatypes, value kinds and ranges (number, year, string)', () => {
      const pages = prop('pageCount');
      assert.deepEqual([pages.objectKind, pages.datatype, pages.valueKind, pages.min, pages.max], ['literal', XSD + 'integer', 'number', 120, 504]);
      const year = prop('publicationYear');
      assert.deepEqual([year.datatype, year.valueKind, year.min, year.max], [XSD + 'gYear', 'year', 1951, 2014]);
      const rating = prop('rating');
      assert.deepEqual([rating.valueKind, rating.min, rating.max], ['number', 2.5, 4.9]);
      assert.equal(prop('title').valueKind, 'string');
    });

    it('label sources and the names map', () => {
      assert.deepEqual(schema.labelPredicates, [RDFS_LABEL]);
      assert.deepEqual(schema.labelSources, [{ source: RDFS_LABEL, count: 75 }]);
      const names = namesOf(schema);
      assert.equal(names.Book, B + 'Book');
      assert.equal(names.writtenBy, B + 'writtenBy');
      assert.equal(Object.keys(names).length, 14);
    });
  });

  describe('an untyped graph whose years are entities (MetaQA-style triple file)', () => {
    let dir: string;
    let ex: StoreExecutor | undefined;
    let schema: Schema;
    before(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-discover-'));
      const lines = [
        'Heat|directed_by|Michael Mann',
        'Heat|release_year|1995',
        'Heat|starred_actors|Al Pacino',
        'Heat|starred_actors|Robert De Niro',
        'Casino|directed_by|Martin Scorsese',
        'Casino|release_year|1995',
        'Casino|starred_actors|Robert De Niro',
        'Collateral|directed_by|Michael Mann',
        'Collateral|release_year|2004',
        'Thief|directed_by|Michael Mann',
        'Thief|release_year|1981',
      ];
      fs.writeFileSync(path.join(dir, 'kb.txt'), lines.join('\n') + '\n');
      ex = await openExecutor(path.join(dir, 'kb.txt'));
      schema = await discoverSchema(ex);
    });
    after(async () => {
      await ex?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('no classes, no domains; entities whose labels are years are year values with their range', () => {
      assert.deepEqual(schema.classes, []);
      const y = schema.properties.find((p) => p.name === 'release_year')!;
      assert.deepEqual([y.objectKind, y.valueKind, y.min, y.max, y.functional, y.domain], ['entity', 'year', 1981, 2004, true, []]);
      const s = schema.properties.find((p) => p.name === 'starred_actors')!;
      assert.deepEqual([s.objectKind, s.valueKind, s.functional, s.count, s.subjects], ['entity', undefined, false, 3, 2]);
      assert.equal(s.label, 'starred actors');
    });
  });

  describe('a graph with names only in IRIs (fixtures/graphs/creatures.ttl)', () => {
    let ex: StoreExecutor | undefined;
    after(() => ex?.close());

    it('reports the IRI local names as the label source, with the number of entities they label', async () => {
      ex = await openExecutor(path.join(root, 'fixtures', 'graphs', 'creatures.ttl'));
      const schema = await discoverSchema(ex);
      assert.deepEqual(schema.labelSources, [{ source: LOCAL_NAME_SOURCE, count: 14 }]);
      const ls = await discoverLabelSources(ex);
      assert.equal(ls.localNameLabels, true);
      assert.match(describeLabelSources(ls.labelSources), /^IRI local names 14 entities$/);
      const wingspan = schema.properties.find((p) => p.name === 'wingspan')!;
      assert.deepEqual([wingspan.valueKind, wingspan.min, wingspan.max], ['number', 1, 14]);
    });
  });

  it('queries are bounded: every call carries a timeout and list queries are paged', async () => {
    const ex = await openExecutor(path.join(root, 'fixtures', 'graphs', 'books.ttl'));
    const seen: { query: string; timeoutMs?: number }[] = [];
    const spy: Pick<Executor, 'select' | 'id'> = {
      id: ex.id,
      select: (q: string, o?: { timeoutMs?: number }): Promise<SelectResult> => {
        seen.push({ query: q, timeoutMs: o?.timeoutMs });
        return ex.select(q, o);
      },
    };
    try {
      const small = await discoverSchema(spy, { pageSize: 2, timeoutMs: 5000 });
      assert.equal(small.classes.length, 5, 'paging with 2 rows a page still finds every class');
      assert.ok(seen.every((s) => s.timeoutMs !== undefined && s.timeoutMs <= 5000));
      assert.ok(seen.filter((s) => s.query.includes('GROUP BY ?c')).length >= 3, 'classes were read page by page');
      assert.ok(seen.filter((s) => s.query.includes('OFFSET')).length >= 3);
    } finally {
      await ex.close();
    }
  });

  it('an endpoint that cannot count the unlabelled entities in time: a bounded sample decides, not "assume some"', async () => {
    // a fault-injecting stand-in: the whole-graph unlabelled count times out, as on a 28M-triple Virtuoso
    const timingOut = (ex: StoreExecutor): Pick<Executor, 'select' | 'id'> => ({
      id: ex.id,
      select: (q: string, o?: { timeoutMs?: number }) => (/COUNT\(DISTINCT \?e\)[\s\S]*NOT EXISTS/i.test(q) ? Promise.reject(new Error('query exceeded its 30000 ms timeout')) : ex.select(q, o)),
    });
    const books = await openExecutor(path.join(root, 'fixtures', 'graphs', 'books.ttl'));
    try {
      const exact = await discoverSchema(books);
      assert.ok(!exact.labelSources.some((x) => x.source === LOCAL_NAME_SOURCE), 'every entity of books.ttl has a label');
      const s = await discoverSchema(timingOut(books));
      assert.deepEqual(s.labelSources, exact.labelSources, 'the sample finds every entity labelled: no local-name labels (whose index would scan the whole graph)');
      assert.ok((s as Schema & { warnings?: string[] }).warnings?.some((w) => /of \d+ sampled entities have none/.test(w)));
    } finally {
      await books.close();
    }
    const creatures = await openExecutor(path.join(root, 'fixtures', 'graphs', 'creatures.ttl'));
    try {
      const s = await discoverSchema(timingOut(creatures));
      assert.deepEqual(s.labelSources, [{ source: LOCAL_NAME_SOURCE, count: -1 }], 'unlabelled entities in the sample: local names, count unknown');
    } finally {
      await creatures.close();
    }
  });

  it('a store that refuses aggregates: discovery falls back to samples and still describes every property', async () => {
    const ex = await openExecutor(path.join(root, 'fixtures', 'graphs', 'books.ttl'));
    // a fault-injecting stand-in: the store refuses GROUP BY / COUNT(DISTINCT …) queries, as a big public endpoint may
    const refusing: Pick<Executor, 'select' | 'id'> = {
      id: ex.id,
      select: (q: string, o?: { timeoutMs?: number }) => (/GROUP BY|COUNT\(DISTINCT/i.test(q) ? Promise.reject(new Error('estimated cost too high')) : ex.select(q, o)),
    };
    try {
      const s = await discoverSchema(refusing);
      assert.equal(s.properties.length, 9);
      const w = s.properties.find((p) => p.name === 'writtenBy')!;
      assert.equal(w.count, 42, 'per-predicate counts instead of GROUP BY');
      assert.equal(w.functional, false, 'functionality from the sample');
      assert.deepEqual(w.range, [B + 'Author'], 'declared range');
      assert.ok((s as Schema & { warnings?: string[] }).warnings?.length);
    } finally {
      await ex.close();
    }
  });
});

describe('synth: names and value kinds', () => {
  it('bare names are unique tokens: colliding local names get their namespace, operator words are avoided', () => {
    const names = assignNames(['http://xmlns.com/foaf/0.1/name', 'http://schema.org/name', 'http://ex.org/v/Count', 'http://ex.org/v/has%20part', 'http://ex.org/v/1st', 'http://ex.org/a#JOIN']);
    assert.equal(names.get('http://xmlns.com/foaf/0.1/name'), 'foaf_name');
    assert.equal(names.get('http://schema.org/name'), 'schema_name');
    assert.equal(names.get('http://ex.org/v/Count'), 'Count_', 'operator words in any case');
    assert.equal(names.get('http://ex.org/v/has%20part'), 'has_part');
    assert.equal(names.get('http://ex.org/v/1st'), 'x_1st');
    assert.equal(names.get('http://ex.org/a#JOIN'), 'JOIN_');
    assert.equal(new Set(names.values()).size, 6);
  });

  it('value kinds: years need a year-like property, numbers, dates, strings', () => {
    assert.equal(valueKindOf(['1994', '2001'], undefined, 'release year'), 'year');
    assert.equal(valueKindOf(['1994', '2001'], XSD + 'integer', 'population'), 'number');
    assert.equal(valueKindOf(['4.5', '3'], undefined, 'rating'), 'number');
    assert.equal(valueKindOf(['2001-05-03', '1999-12-31'], undefined, 'opened'), 'date');
    assert.equal(valueKindOf(['x', '3'], undefined, 'code'), 'string');
    assert.equal(valueKindOf([], undefined, 'x'), undefined);
  });
});
