import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as oxigraph from 'oxigraph';
import { buildStore, detectFormat, loadText, mintEntity, mintRelation, tripleFileToNTriples } from '../../../src/execute';
import { isAskgraphError } from '../../../src/core';

const LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';
const BASE = 'http://askgraph.dev/movies/';
const nn = oxigraph.namedNode;

function tmpdir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-exec-'));
}

function has(store: oxigraph.Store, s: string, p: string, o: oxigraph.NamedNode | oxigraph.Literal): boolean {
  return store.match(nn(s), nn(p), o, null).length > 0;
}

describe('execute: minting rule', () => {
  it('entity and relation IRIs are baseIri + entity|relation/ + encodeURIComponent(text)', () => {
    assert.equal(mintEntity(BASE, 'Forrest Gump'), 'http://askgraph.dev/movies/entity/Forrest%20Gump');
    assert.equal(mintEntity(BASE, 'Bob "x" } ; DROP ALL'), BASE + 'entity/' + encodeURIComponent('Bob "x" } ; DROP ALL'));
    assert.equal(mintEntity(BASE, 'Amélie/1?#'), BASE + 'entity/Am%C3%A9lie%2F1%3F%23');
    assert.equal(mintRelation(BASE, 'directed_by'), 'http://askgraph.dev/movies/relation/directed_by');
  });

  it('MetaQA head|relation|tail lines: every entity (tails too) and relation gets its rdfs:label', () => {
    const store = new oxigraph.Store();
    loadText(store, 'Forrest Gump|directed_by|Robert Zemeckis\nForrest Gump|release_year|1994\n', 'triples', BASE);
    const fg = mintEntity(BASE, 'Forrest Gump');
    assert.ok(has(store, fg, mintRelation(BASE, 'directed_by'), nn(mintEntity(BASE, 'Robert Zemeckis'))));
    assert.ok(has(store, mintEntity(BASE, '1994'), LABEL, oxigraph.literal('1994')));
    assert.ok(has(store, fg, LABEL, oxigraph.literal('Forrest Gump')));
    assert.ok(has(store, mintRelation(BASE, 'release_year'), LABEL, oxigraph.literal('release_year')));
    // 2 data triples + labels of 3 entities + 2 relations
    assert.equal(store.size, 2 + 3 + 2);
  });

  it('tab-separated subj rel obj lines (PathQuestion / WC2014), fields trimmed, CRLF tolerated', () => {
    const store = new oxigraph.Store();
    loadText(store, 'ludwig_ii_of_bavaria\tparents\tmaximilian_ii_of_bavaria\r\n\nEngland\tplays_for_country_inverse\tFrank_LAMPARD \r\n', 'triples', 'http://x.test/pq/');
    assert.ok(has(store, 'http://x.test/pq/entity/England', 'http://x.test/pq/relation/plays_for_country_inverse', nn('http://x.test/pq/entity/Frank_LAMPARD')));
    assert.ok(has(store, 'http://x.test/pq/entity/Frank_LAMPARD', LABEL, oxigraph.literal('Frank_LAMPARD')));
    assert.equal(store.size, 2 + 4 + 2);
  });

  it('labels with quotes, backslashes and pipes-free text survive N-Triples escaping', () => {
    const { chunks, triples } = tripleFileToNTriples('Say "Hi" \\ there|rel|x\n', BASE);
    assert.equal(triples, 1);
    const store = new oxigraph.Store();
    store.load(chunks, { format: 'application/n-triples' });
    assert.ok(has(store, mintEntity(BASE, 'Say "Hi" \\ there'), LABEL, oxigraph.literal('Say "Hi" \\ there')));
  });

  it('a line without three fields is DATA_FORMAT with its line number', () => {
    assert.throws(
      () => tripleFileToNTriples('a|b|c\na|b\n', BASE, 'kb.txt'),
      (e: unknown) => isAskgraphError(e) && e.code === 'DATA_FORMAT' && e.details?.line === 2 && e.message.includes('kb.txt:2'),
    );
  });
});

describe('execute: RDF syntaxes through Oxigraph', () => {
  const s = 'http://ex.test/s';
  const p = 'http://ex.test/p';
  it('N-Triples', () => {
    const store = new oxigraph.Store();
    loadText(store, `<${s}> <${p}> "a" .\n<${s}> <${p}> <http://ex.test/o> .\n`, 'nt', BASE);
    assert.equal(store.size, 2);
  });
  it('Turtle (prefixes, relative IRIs against the base)', () => {
    const store = new oxigraph.Store();
    loadText(store, '@prefix ex: <http://ex.test/> .\nex:s ex:p "a"@en, <o> .\n', 'ttl', 'http://ex.test/');
    assert.ok(has(store, s, p, oxigraph.literal('a', 'en')));
    assert.ok(has(store, s, p, nn('http://ex.test/o')));
  });
  it('N-Quads (named graphs kept)', () => {
    const store = new oxigraph.Store();
    loadText(store, `<${s}> <${p}> "a" <http://ex.test/g> .\n<${s}> <${p}> "b" .\n`, 'nq', BASE);
    assert.equal(store.size, 2);
    assert.equal(store.match(null, null, null, nn('http://ex.test/g')).length, 1);
  });
  it('RDF/XML', () => {
    const store = new oxigraph.Store();
    const xml = `<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://ex.test/">
  <rdf:Description rdf:about="http://ex.test/s"><ex:p>a</ex:p><ex:p rdf:resource="http://ex.test/o"/></rdf:Description>
</rdf:RDF>`;
    loadText(store, xml, 'rdfxml', BASE);
    assert.ok(has(store, s, p, oxigraph.literal('a')));
    assert.ok(has(store, s, p, nn('http://ex.test/o')));
  });
  it('broken syntax is DATA_FORMAT; an unknown extension too', () => {
    assert.throws(() => loadText(new oxigraph.Store(), '<a> <b> .', 'nt', BASE), (e: unknown) => isAskgraphError(e) && e.code === 'DATA_FORMAT');
    assert.throws(() => detectFormat('x.docx'), (e: unknown) => isAskgraphError(e) && e.code === 'DATA_FORMAT');
    assert.equal(detectFormat('KB.TXT'), 'triples');
    assert.equal(detectFormat('a.owl'), 'rdfxml');
  });
});

describe('execute: snapshot round trip', () => {
  it('dump + reopen keeps every triple (count and samples), and the second build reads the snapshot', () => {
    const dir = tmpdir();
    const kb = path.join(dir, 'kb.txt');
    const ttl = path.join(dir, 'extra.ttl');
    fs.writeFileSync(kb, 'Forrest Gump|directed_by|Robert Zemeckis\nForrest Gump|has_tags|tom hanks\nBig|starred_actors|Tom Hanks\nÉté "x"|in_language|Français\n');
    fs.writeFileSync(ttl, '@prefix ex: <http://ex.test/> .\nex:s ex:p "typed"^^<http://www.w3.org/2001/XMLSchema#gYear>, "fr"@fr-CA, _:b .\n_:b ex:p "blank" .\n');
    const source = { files: [kb, ttl], baseIri: BASE, cacheDir: path.join(dir, '.cache') };
    const first = buildStore(source);
    assert.equal(first.info.from, 'sources');
    assert.ok(first.info.snapshotWritten && fs.existsSync(first.info.snapshotWritten));
    const second = buildStore(source);
    assert.equal(second.info.from, 'snapshot');
    assert.equal(second.store.size, first.store.size);
    const all = (st: oxigraph.Store) => new Set(st.match(null, null, null, null).filter((q) => q.subject.termType !== 'BlankNode' && q.object.termType !== 'BlankNode').map((q) => q.toString()));
    assert.deepEqual(all(second.store), all(first.store));
    for (const [s0, p0, o0] of [
      [mintEntity(BASE, 'Été "x"'), LABEL, oxigraph.literal('Été "x"')],
      [mintEntity(BASE, 'Forrest Gump'), mintRelation(BASE, 'has_tags'), nn(mintEntity(BASE, 'tom hanks'))],
      ['http://ex.test/s', 'http://ex.test/p', oxigraph.literal('typed', nn('http://www.w3.org/2001/XMLSchema#gYear'))],
      ['http://ex.test/s', 'http://ex.test/p', oxigraph.literal('fr', 'fr-ca')],
    ] as const) {
      assert.ok(has(second.store, s0, p0, o0), `missing after reopen: ${s0} ${p0} ${o0.value}`);
    }
    // the blank node structure survives too (one blank object with one "blank" literal)
    const blanks = second.store.match(nn('http://ex.test/s'), nn('http://ex.test/p'), null, null).filter((q) => q.object.termType === 'BlankNode');
    assert.equal(blanks.length, 1);
    assert.equal(second.store.match(blanks[0]!.object as oxigraph.BlankNode, null, null, null)[0]!.object.value, 'blank');
  });

  it('a changed source file invalidates the snapshot', () => {
    const dir = tmpdir();
    const kb = path.join(dir, 'kb.txt');
    fs.writeFileSync(kb, 'a|r|b\n');
    const source = { files: [kb], baseIri: BASE, cacheDir: path.join(dir, '.cache') };
    assert.equal(buildStore(source).info.from, 'sources');
    fs.writeFileSync(kb, 'a|r|b\nc|r|d\n');
    const again = buildStore(source);
    assert.equal(again.info.from, 'sources');
    assert.equal(again.store.size, 2 + 4 + 1);
    assert.equal(buildStore(source).info.from, 'snapshot');
  });
});
