import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { parseForm, printForm } from '../../../src/form';
import { GrammarConstraint, nameTrie, openNameText, openNameToken, TargetVocabulary, tokensToFormText } from '../../../src/generate';

// A synthetic open-name model config (config.json names: open): 0 unk, 1 bos, 2 eos, 3 pad, then pieces; the
// operators and the name end `</n>` as symbols, no relation / class / literal symbols.
const PIECES = ['<unk>', '<s>', '</s>', '<pad>', '▁place', '▁of', '▁birth', '▁1', '9', '▁2010', '-', '05', '▁Tom', '▁Hanks', '.', '▁é', '▁', 'x', '▁2nd', '▁author', 'Place'];
const S = PIECES.length;
const OPS = ['(', ')', '[', ']', 'JOIN', 'R', 'AND', 'COUNT', 'ARGMAX', 'ARGMIN', 'GT', 'GE', 'LT', 'LE', 'TC', 'ASK', 'DIFF', 'OR', 'AVG', 'SUM', 'MAX', 'MIN', 'RATIO', 'PERCENT', 'MOSTCOMMON', 'LEASTCOMMON', 'ARGMAXCOUNT', 'ARGMINCOUNT', 'HAS', 'ABSDIFF', 'TABLE', 'MINUS', 'GROUPCOUNT', 'GROUPSUM', 'GROUPAVG', 'GROUPMAX', 'GROUPMIN', 'HAVING', 'ASC', 'DESC', 'LIMIT', 'OFFSET', 'MORE', 'LESS', 'CONTAINS'];
const vocab: TargetVocabulary = { pieces: S, symbols: [...OPS, '</n>'], relations: [], classes: [], eos: 2, special: [1, 2, 3], unk: 0, names: { end: '</n>', pieces: PIECES } };
// the question "Tom Hanks 1" as source pieces
const SRC = [12, 13, 7];
const decode = (ids: number[]): string => ids.map((i) => PIECES[i] ?? '').join('').replace(/▁/g, ' ').trim();
const tok = (w: string): number => {
  if (w === '<eos>') return vocab.eos;
  const p = PIECES.indexOf(w);
  if (p >= 4) return p;
  const i = vocab.symbols.indexOf(w);
  assert.ok(i >= 0, w);
  return S + i;
};
const toks = (text: string): number[] => text.split(' ').filter(Boolean).map(tok);
const show = (ids: number[]): string[] => ids.map((t) => (t === vocab.eos ? '<eos>' : t >= S ? vocab.symbols[t - S]! : PIECES[t]!)).sort();
const END = tok('</n>');

/** Random walks through the automaton (budget-limited), each finished sequence returned. */
function walks(c: GrammarConstraint, seeds: number[], maxLength = 30): number[][] {
  const out: number[][] = [];
  for (const seed of seeds) {
    let x = seed;
    const rand = (n: number): number => {
      x = (x * 1103515245 + 12345) % 2147483648;
      return x % n;
    };
    let s = c.initial();
    const seq: number[] = [];
    for (let step = 0; step < maxLength && !s.done; step++) {
      const allowed = c.allowed(s, maxLength - step);
      assert.ok(allowed.length > 0, `dead end after ${seq.map((t) => (t >= S ? vocab.symbols[t - S]! : PIECES[t]!)).join(' ')} (budget ${maxLength - step})`);
      const t = allowed[rand(allowed.length)]!;
      if (t === c.eos) break;
      seq.push(t);
      s = c.advance(s, t);
    }
    out.push(seq);
  }
  return out;
}

describe('generate/open names: open-name models decode names as pieces + </n> (issue 20)', () => {
  const c = new GrammarConstraint(vocab, SRC);

  it('a relation slot takes any name: pieces (never unk / bos / eos / pad), then </n> after at least one', () => {
    const atRel = c.allowed(c.run(toks('( JOIN')));
    assert.ok(atRel.includes(tok('▁place')) && atRel.includes(tok('▁author')) && atRel.includes(tok('(')));
    for (const special of [0, 1, 2, 3]) assert.ok(!atRel.includes(special), `special ${special}`);
    assert.ok(!atRel.includes(END), 'no empty name');
    // a name must make a form name: no digit before its first letter, no non-ASCII letter
    assert.ok(!atRel.includes(tok('▁2nd')) && !atRel.includes(tok('▁é')));
    const inName = c.allowed(c.run(toks('( JOIN ( R ▁place ▁of')));
    assert.ok(inName.includes(END) && inName.includes(tok('▁birth')) && inName.includes(tok('▁2nd')));
    const text = tokensToFormText(toks('( JOIN ( R ▁place ▁of ▁birth </n> ) [ ▁Tom ▁Hanks ] )'), vocab, decode);
    assert.equal(text, '(JOIN (R place_of_birth) [ Tom Hanks ])');
    // camel case in pieces reads as words too: "birth" "Place" → birth_place
    assert.equal(tokensToFormText(toks('( JOIN ▁birth Place </n> [ ▁Tom ] )'), vocab, decode), '(JOIN birth_place [ Tom ])');
  });

  it('a literal slot takes a number or date: </n> only when the text is one, a letter never', () => {
    const lit = c.run(toks('( TC [ ▁Tom ] ▁place </n>'));
    assert.deepEqual(show(c.allowed(lit)), ['-', '05', '9', '▁', '▁1', '▁2010'].sort());
    assert.throws(() => c.advance(lit, tok('▁place')), /not allowed/);
    assert.throws(() => c.advance(lit, END), /not allowed/);
    const year = c.run(toks('( TC [ ▁Tom ] ▁place </n> ▁2010 -'));
    assert.ok(!c.allowed(year).includes(END), '"2010-" is no date yet');
    assert.ok(c.allowed(year).includes(tok('05')));
    assert.ok(c.allowed(c.run(toks('( TC [ ▁Tom ] ▁place </n> ▁2010 - 05'))).includes(END));
    // "1 9" (a space inside) is no number: after "1" a new word "▁1" is refused, "9" is taken
    const one = c.run(toks('( TC [ ▁Tom ] ▁place </n> ▁1'));
    assert.ok(c.allowed(one).includes(tok('9')) && !c.allowed(one).includes(tok('▁1')));
    assert.equal(tokensToFormText(toks('( TC [ ▁Tom ] ▁place </n> ▁1 9 . 05 </n> )'), vocab, decode), '(TC [ Tom ] place 19.05)');
    // after GT r: a literal or a relation, told apart by the words
    assert.equal(printForm(parseForm(tokensToFormText(toks('( GT ▁place </n> ▁2010 </n> )'), vocab, decode))), '(GT place 2010)');
    assert.equal(printForm(parseForm(tokensToFormText(toks('( GT ▁place </n> ▁author </n> )'), vocab, decode))), '(GT place author)');
  });

  it('a class name stands where a form is expected, and LIMIT takes a row count', () => {
    assert.ok(c.allowed(c.initial()).includes(tok('▁author')));
    assert.equal(tokensToFormText(toks('▁author </n>'), vocab, decode), 'author');
    assert.ok(c.isComplete(c.run(toks('▁author </n>'))));
    assert.ok(!c.isComplete(c.run(toks('▁author'))), 'a name open is no finished form');
    const limit = c.run(toks('( LIMIT'));
    assert.deepEqual(show(c.allowed(limit)), ['05', '9', '▁', '▁1', '▁2010'].sort());
  });

  it('every finished random walk is a form parseForm reads (free names)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 2 ** 30 }), { minLength: 20, maxLength: 20 }), (seeds) => {
        for (const seq of walks(c, seeds)) {
          const s = c.run(seq);
          if (!c.isComplete(s)) continue; // ran out of length: never a finished hypothesis
          const text = tokensToFormText(seq, vocab, decode);
          assert.doesNotThrow(() => parseForm(text), text);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('graph-restricted: relation and class slots follow a trie of the given names only', () => {
    // relations "place of birth" and "author", no class
    const r = new GrammarConstraint(vocab, SRC, { nameTries: { relations: nameTrie([toks('▁place ▁of ▁birth'), toks('▁author')]), classes: nameTrie([]) } });
    assert.deepEqual(show(r.allowed(r.run(toks('( JOIN')))), ['(', '▁author', '▁place'].sort());
    assert.deepEqual(show(r.allowed(r.run(toks('( JOIN ▁place')))), ['▁of']);
    assert.throws(() => r.run(toks('( JOIN ▁place </n>')), /not allowed/);
    assert.deepEqual(show(r.allowed(r.run(toks('( JOIN ▁author')))), ['</n>']);
    // no class names: a form starts with [ or ( only
    assert.deepEqual(show(r.allowed(r.initial())), ['(', '[']);
    const seen = new Set<string>();
    const names = (f: unknown): void => {
      if (f && typeof f === 'object') {
        const o = f as Record<string, unknown>;
        if (o.kind === 'rel' && (o.ref as { kind: string }).kind === 'name') seen.add((o.ref as { name: string }).name);
        if (o.kind === 'class') seen.add('class:' + JSON.stringify(o.ref));
        for (const v of Object.values(o)) names(v);
      }
    };
    for (let round = 0; round < 10; round++) {
      for (const seq of walks(r, Array.from({ length: 30 }, (_, i) => round * 1000 + i + 1))) {
        if (!r.isComplete(r.run(seq))) continue;
        names(parseForm(tokensToFormText(seq, vocab, decode)));
      }
    }
    assert.ok(seen.size > 0);
    for (const n of seen) assert.ok(n === 'place_of_birth' || n === 'author', n);
  });

  it('names ⇄ words as the trainer writes them (train/askgraph_data.py open_text / open_token)', () => {
    assert.equal(openNameText('birthPlace'), 'birth place');
    assert.equal(openNameText('place_of_birth'), 'place of birth');
    assert.equal(openNameText('1990'), '1990');
    assert.equal(openNameText('"1.5"^^<http://www.w3.org/2001/XMLSchema#float>'), '1.5');
    assert.equal(openNameText('"Paris"@en'), undefined);
    // as the trainer's open_text: a digit-first (a dateTime value) or non-ASCII name is not a form name
    assert.equal(openNameText('1986-01-01T00:00:00Z'), undefined);
    assert.equal(openNameText('acteur_principal_é'), undefined);
    assert.equal(openNameToken(' place  of birth '), 'place_of_birth');
    assert.equal(openNameToken('2010-05'), '2010-05');
  });
});
