import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { classRefs, parseForm, relationRefs } from '../../../src/form';
import { clearParserCache, loadParser, openNameForm } from '../../../src/generate';
import { validateModel } from '../../../src/train/validate';

// fixtures/open-model: a tiny open-name model (config.json names: open) trained on made-up questions
// (fixtures/open-model/make-train.py) whose relations are written place_of_birth / author / publisher and whose
// class is writer — names of no graph here.
const MODEL = path.resolve(__dirname, '../../../../fixtures/open-model');
const refNames = (text: string): string[] => {
  const f = parseForm(text);
  return [...relationRefs(f), ...classRefs(f)].map((r) => (r.kind === 'name' ? r.name : r.kind));
};

describe('generate/open-model: decoding and scoring an open-name model (fixtures/open-model)', function () {
  this.timeout(120_000);
  after(() => clearParserCache());

  it('decodes relation and class names from pieces + </n>: the forms parse and read as the model was trained', async () => {
    const p = await loadParser(MODEL, { labels: 'none' });
    assert.equal(p.open, true);
    const born = await p.generate('where was Hugo Brandt born', { beam: 4 });
    assert.ok(born.candidates.length >= 2);
    assert.equal(born.dropped, 0);
    assert.equal(born.candidates[0]?.text, '(JOIN (R place_of_birth) [ Hugo Brandt ])');
    const writers = await p.generate('list every writer', { beam: 4 });
    assert.equal(writers.candidates[0]?.text, 'writer');
  });

  it('the tokenizer gives the piece strings of every id (what the grammar reads names by), as encodePieces writes them', async () => {
    const p = await loadParser(MODEL, { labels: 'none' });
    const pieces = p.tokenizer.pieceStrings(p.config.pieces);
    assert.equal(pieces.length, p.config.pieces);
    for (let id = 4; id < pieces.length; id++) assert.equal(p.tokenizer.pieceToId(pieces[id] ?? ''), id, `piece ${id} ${pieces[id]}`);
    const text = 'where was Hugo Brandt born in 1951';
    assert.deepEqual(p.tokenizer.encode(text).map((id) => pieces[id]), p.tokenizer.encodePieces(text));
  });

  it('score() writes a form\'s names as the trainer does (their words\' pieces + </n>): a beam form scores its beam log-prob', async () => {
    const p = await loadParser(MODEL, { labels: 'none' });
    const q = 'who published The Lost Harbor';
    const top = (await p.generate(q, { beam: 3 })).candidates[0];
    assert.ok(top);
    assert.equal(top.text, '(JOIN (R publisher) [ The Lost Harbor ])');
    const [same, camel, str, other] = await p.score(q, [top.text, '(JOIN (R Publisher) [ The Lost Harbor ])', '(GT number_of_pages "many")', '(GT number_of_pages 300)']);
    assert.ok(Math.abs((same ?? NaN) - top.logProb) < 1e-3, `${same} vs ${top.logProb}`);
    // a name is its words: "Publisher" is written as "publisher"
    assert.ok(Math.abs((camel ?? NaN) - top.logProb) < 1e-3);
    // a string literal cannot be written by an open-name model; a number can
    assert.equal(str, -Infinity);
    assert.ok(Number.isFinite(other));
  });

  it('graph-restricted decoding writes only the given names, back as the graph spells them; free decoding is the default', async () => {
    const p = await loadParser(MODEL, { labels: 'none' });
    const names = { relations: ['bornIn', 'written by'], classes: ['Author'] };
    for (const q of ['where was Hugo Brandt born', 'list every writer', 'who published The Lost Harbor']) {
      const r = await p.generate(q, { beam: 5, names });
      assert.ok(r.candidates.length > 0, q);
      // an identifier comes back as itself (bornIn, Author); a name given in words as the model writes it
      for (const c of r.candidates) for (const n of refNames(c.text)) assert.ok(['bornIn', 'written_by', 'Author'].includes(n), `${q}: ${c.text}`);
    }
    // the same restriction given to the parser
    const restricted = await loadParser(MODEL, { labels: 'none', names });
    const own = (await restricted.generate('list every writer', { beam: 5 })).candidates;
    for (const c of own) for (const n of refNames(c.text)) assert.ok(['bornIn', 'written_by', 'Author'].includes(n), c.text);
    // a graph name scores as the words the model wrote
    const top = own.find((c) => refNames(c.text).length > 0);
    assert.ok(top);
    const [score] = await restricted.score('list every writer', [top.text]);
    assert.ok(Math.abs((score ?? NaN) - top.logProb) < 1e-3, `${score} vs ${top.logProb} for ${top.text}`);
    const free = await p.generate('list every writer', { beam: 5 });
    assert.ok(free.candidates.some((c) => refNames(c.text).includes('writer')));
  });

  it('validate.js compares an open-name model with gold forms written as it writes them (names as words)', async () => {
    assert.equal(openNameForm('(JOIN (R placeOfBirth) [ Hugo Brandt ])'), '(JOIN (R place_of_birth) [ Hugo Brandt ])');
    assert.equal(openNameForm('(GT pageCount "300"^^xsd:integer)'), '(GT page_count 300)');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-open-valid-'));
    const file = path.join(dir, 'valid.jsonl');
    const rows = [
      { question: 'where was Hugo Brandt born', form: '(JOIN (R placeOfBirth) [ Hugo Brandt ])' },
      { question: 'who published The Lost Harbor', form: '(JOIN (R Publisher) [ The Lost Harbor ])' },
      { question: 'list every writer', form: 'Writer' },
    ];
    fs.writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    try {
      const v = await validateModel(MODEL, file, { beam: 3 });
      assert.equal(v.n, 3);
      assert.equal(v.em, 1);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
