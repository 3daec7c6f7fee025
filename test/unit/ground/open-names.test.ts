/**
 * Grounding names the graph lacks (issue 20: an open-name parser writes relations and classes in its own words):
 * over the real Oxigraph store of fixtures/graphs/books.ttl, a class name is read as a store class and a relation of
 * a form without an entity as one of the store's relations, by the phrase ranking (rankPhrase).
 */
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { packageRoot, type Executor } from '../../../src/core';
import { openExecutor } from '../../../src/execute';
import { buildStoreIndex, groundCandidates, RelationRetriever, type EntityIndex, type GroundContext } from '../../../src/ground';
import { beam, collect } from '../../helpers/ground';

const B = 'http://example.org/books/';
const NS = 'http://askgraph.dev/books/relation/';
const LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';

describe('ground: names the graph lacks (books.ttl, real Oxigraph store)', function () {
  this.timeout(60000);
  let executor: Executor | undefined;
  let index: EntityIndex;
  let ctx: GroundContext;

  before(async () => {
    executor = await openExecutor(path.join(packageRoot(), 'fixtures', 'graphs', 'books.ttl'));
    index = await buildStoreIndex(executor, {});
    const vocabulary = new Set((index.meta.relations as { iri: string }[]).map((r) => r.iri));
    // the pack's names of two relations only: Author and pageCount are not names of this "pack"
    ctx = { index, relations: new RelationRetriever(executor, { exclude: [LABEL] }), vocabulary, vocabularyNamespace: NS, names: { bornIn: B + 'bornIn', Book: B + 'Book' } };
  });
  after(async () => {
    await executor?.close();
  });

  it('a bare class name is read as the store class its words rank best (writer → Author), in every phase, with its similarity', async () => {
    const attempts = await collect(groundCandidates(beam(['writer', -0.1], ['(JOIN (R bornIn) writer)', -2]), { ...ctx, question: 'list every writer' }));
    const first = attempts[0];
    assert.ok(first);
    assert.deepEqual(first.form, { kind: 'class', ref: { kind: 'iri', iri: B + 'Author' } });
    assert.equal(first.phase, 'exact');
    assert.match(first.classReadings?.[0] ?? '', /^Author /);
    assert.ok(first.score < -0.1, 'the reading costs its similarity');
    assert.ok(attempts.some((a) => a.text === `(JOIN (R <${B}bornIn>) @<${B}Author>)`), attempts.map((a) => a.text).join('\n'));
    // a pack name stays as written (nothing asked of the store for it)
    const own = await collect(groundCandidates(beam(['Book', -0.1]), ctx));
    const book = own.at(0);
    assert.ok(book);
    assert.deepEqual(book.form, { kind: 'class', ref: { kind: 'name', name: 'Book' } });
    assert.equal(book.classReadings, undefined);
  });

  it('a relation the graph lacks in a form without an entity is read among the store\'s relations (number_of_pages → pageCount)', async () => {
    const attempts = await collect(groundCandidates(beam(['(GT number_of_pages 300)', -0.5]), { ...ctx, question: 'books with more than 300 pages' }));
    const read = attempts.find((a) => a.phase === 'relation');
    assert.ok(read, attempts.map((a) => a.text).join('\n'));
    assert.equal(read.text, `(GT <${B}pageCount> 300)`);
    assert.match(read.relationReadings?.[0] ?? '', /^pageCount /);
    // one the graph has stays (no relation phase for it)
    const kept = await collect(groundCandidates(beam(['(GT bornIn 300)', -0.5]), ctx));
    assert.ok(!kept.some((a) => a.phase === 'relation'));
  });
});
