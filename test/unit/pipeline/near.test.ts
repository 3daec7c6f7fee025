import { strict as assert } from 'node:assert';
import { CountedWords, heardAgainAs, NEAR_THRESHOLD, NearGraph, nothingNearReason, REHEAR_RATIO } from '../../../src/pipeline/abstain';
import { nothingNear, wordNotRead, type CheckContext, type Reading } from '../../../src/pipeline/checks';
import { unreadInEvidence } from '../../../src/pipeline/fallback-step';
import { reheard, respelled, type GatewayContext } from '../../../src/pipeline/context';

// A made-up graph of paintings (no data set's): its relations and the words its parser was trained on.
const relations = ['painted_by', 'exhibited_in', 'creation_year', 'has_style'].map((name) => ({ iri: `http://example.org/art/${name}`, name }));
const words = ['who', 'painted', 'paintings', 'painter', 'artist', 'museum', 'exhibited', 'shown', 'year', 'created', 'style', 'movement', 'works', 'which', 'what'];

describe('abstention without a closed vocabulary (abstain.ts NearGraph, checks.ts nothingNear)', function () {
  this.timeout(120000);
  const graph = new NearGraph({ words, relations });

  it('a word the parser was never shown but that the graph has something near is not far (WordNet / GloVe)', () => {
    // none of these is in the parser's words
    for (const w of ['artwork', 'gallery', 'sculptor']) {
      const n = graph.nearest(w);
      assert.ok(n.score >= NEAR_THRESHOLD, `${w}: nearest ${n.word} ${n.score.toFixed(2)}`);
    }
    assert.deepEqual(graph.far(['artwork', 'gallery']), []);
  });

  it('a word nothing of the graph is near is far, with the closest relation named', () => {
    const far = graph.far(['salary', 'painted', 'population']);
    assert.deepEqual(far.map((f) => f.word), ['salary', 'population']);
    for (const f of far) {
      assert.ok(f.score < NEAR_THRESHOLD);
      assert.ok(relations.some((r) => r.name.replace(/_/g, ' ') === f.closest), `closest: ${f.closest}`);
    }
    assert.match(nothingNearReason(far), /^nothing in this graph is near "salary", "population"; closest: [a-z ]+$/);
  });

  it('a word of no dictionary that is a typo of a word of the graph is that word; a real word one letter off is not', () => {
    assert.deepEqual(graph.nearest('paintter'), { word: 'painter', score: 1 }, 'a typo: as the closed vocabulary reads it');
    assert.deepEqual(graph.far(['museeum', 'exhibitted']), []);
    assert.notEqual(graph.nearest('painted').word, undefined);
    // "planter" is a word of the language, one edit from "painter": read by its meaning, not as a typo
    assert.ok(graph.nearest('planter').score < 1, JSON.stringify(graph.nearest('planter')));
  });

  it('typoFor: a word of no dictionary one letter off a word of the graph is that word; a word of the language, a known word or a word near nothing is not', () => {
    assert.equal(graph.typoFor('musseum'), 'museum');
    assert.equal(graph.typoFor('exhibitted'), 'exhibited');
    // two neighbouring letters swapped are one slip (two Levenshtein edits, more than a six-letter word is allowed)
    assert.equal(graph.typoFor('musuem'), 'museum');
    // a word of the language ("planter"), a known word, and a word near nothing are read as they are
    for (const w of ['planter', 'painter', 'zqxvbnm']) assert.equal(graph.typoFor(w), undefined, w);
    // a word of four or five letters: the one word one edit from it, or the one of several that keeps its first letter
    const short = new NearGraph({ words: ['nation', 'latin', 'mile', 'mole'], relations });
    assert.equal(short.typoFor('natin'), 'nation');
    assert.equal(short.typoFor('mxle'), undefined, 'two words keep the first letter: no reading');
  });

  it('soundFor: a word of the language that sounds like a word of the graph is a mishearing of it; a known word, a no-word or a word that sounds like none is not', () => {
    // a speech recogniser's words: the same Double Metaphone code, one or two letters off
    assert.equal(graph.soundFor('pointed'), 'painted');
    assert.equal(graph.soundFor('stile'), 'style');
    assert.equal(graph.soundFor('ear'), 'year');
    // only a word that says a relation (or a function word) is meant: a name the parser knows is grounding's business
    assert.equal(new NearGraph({ words: [...words, 'aaron'], relations }).soundFor('earn'), undefined);
    // a known word is as it is; a word of no dictionary is typoFor's; a word that sounds like nothing of the graph is as it is
    for (const w of ['painter', 'paintter', 'salary', 'gallery']) assert.equal(graph.soundFor(w), undefined, w);
    // a word that reads clearly as a relation is that relation, not a mishearing ("mom" is parents, not "mam")
    const kin = new NearGraph({ words: ['who', 'what', 'is', 'the', 'of', 'mam'], relations: ['parents', 'children', 'spouse', 'nationality'].map((name) => ({ iri: `http://example.org/kin/${name}`, name })) });
    assert.equal(kin.soundFor('mom'), undefined);
  });

  it('respelled: the question the parser reads has its typos and misheard words respelt, names and short words as written', () => {
    const hasWord = (w: string) => ['vermeer', 'delft'].includes(w.toLowerCase());
    const gw = { knownWords: new Set(words), index: { hasWord, meta: { relations } }, pack: { dir: '', config: {} } } as unknown as GatewayContext;
    assert.deepEqual(respelled(gw, 'which musseum exhibited the View of Delft?'), { question: 'which museum exhibited the View of Delft?', respelt: [{ from: 'musseum', to: 'museum' }] });
    // a misheard word of the language: the word of the graph it sounds like
    assert.deepEqual(respelled(gw, 'who pointed the View of Delft?'), { question: 'who painted the View of Delft?', respelt: [{ from: 'pointed', to: 'painted' }] });
    // a short typo: the one word of the graph one edit from it
    assert.deepEqual(respelled(gw, 'what yeer was Blue Hour painted').respelt, [{ from: 'yeer', to: 'year' }]);
    // a capitalised word is a name ("Musseum"), a word of a label is one ("vermeer" though no dictionary has it), a
    // word of no language under four letters is too near others to respell ("yxr"), a known word is as it is
    for (const q of ['who painted Musseum Piece', 'which paintings did vermeer paint', 'what yxr was Blue Hour painted', 'which painter painted Blue Hour']) {
      assert.deepEqual(respelled(gw, q), { question: q, respelt: [] }, q);
    }
    // a parser without words (no words.json) reads the question as asked
    const none = { ...gw, knownWords: undefined } as GatewayContext;
    assert.deepEqual(respelled(none, 'which musseum exhibited it').respelt, []);
  });

  it('heardAgainAs: a word is heard again as the sound-alike the parser\'s questions use far more often, never the other way', () => {
    const counted = new CountedWords(new Map([['what', 900], ['the', 5000], ['they', 30], ['painted', 40], ['pointed', 2], ['style', 25]]));
    // a word of the language the parser knows ("they") or not ("white"): the far commoner sound-alike
    assert.equal(heardAgainAs('they', counted), 'the');
    assert.equal(heardAgainAs('white', counted), 'what');
    assert.equal(heardAgainAs('pointed', counted), 'painted');
    // a two-letter word heard as three
    assert.equal(heardAgainAs('buy', new CountedWords(new Map([['by', 300], ['buy', 1]]))), 'by');
    // the commoner word is never heard as the rarer one, nor a word as itself; a word that sounds like nothing known
    for (const w of ['the', 'what', 'painted', 'style', 'gallery']) assert.equal(heardAgainAs(w, counted), undefined, w);
    // not far enough apart: used REHEAR_RATIO times as often, not fewer
    const close = new CountedWords(new Map([['painted', 2 * REHEAR_RATIO - 1], ['pointed', 2]]));
    assert.equal(heardAgainAs('pointed', close), undefined);
    // a word list without counts hears nothing again
    assert.equal(heardAgainAs('white', new Set(['what'])), undefined);
  });

  it('nearSoundFor: a word nothing of the graph is near is heard again as a common sound-alike the graph has something near', () => {
    assert.equal(graph.far(['stiles']).length, 1);
    assert.equal(graph.nearSoundFor('stiles'), 'styles');
    assert.equal(graph.nearSoundFor('ear'), 'year');
    // a word near the graph as it is, a word whose sound-alikes are all far, a word of no language: not heard again
    for (const w of ['gallery', 'salary', 'xqzt']) assert.equal(graph.nearSoundFor(w), undefined, w);
  });

  it('reheard: lower-case words outside identifiers are heard again; names, identifiers\' words and a list without counts as written', () => {
    const counted = new CountedWords(new Map([['what', 900], ['the', 5000], ['they', 30], ['is', 800]]));
    const gw = { knownWords: counted, index: { hasWord: () => false, meta: { relations } }, pack: { dir: '', config: {} } } as unknown as GatewayContext;
    assert.deepEqual(reheard(gw, 'white is they style of jan_white_1632 ?'), { question: 'what is the style of jan_white_1632 ?', respelt: [{ from: 'white', to: 'what' }, { from: 'they', to: 'the' }] });
    for (const q of ['what is the style of White Hour', 'what is the style of white_hour']) assert.deepEqual(reheard(gw, q), { question: q, respelt: [] }, q);
    assert.deepEqual(reheard({ ...gw, knownWords: new Set(['what', 'the']) }, 'white is they style').respelt, []);
  });

  it('words used everywhere are no targets of nearness ("population" is not near "people" for the graph)', () => {
    const g = new NearGraph({ words: [...words, 'people', 'part', 'one'], relations });
    assert.notEqual(g.nearest('population').word, 'people');
    assert.ok(g.far(['population']).length === 1);
  });

  it('a word that reads clearly as one relation is not far, though its only link is a hypernym ("mom" is a kind of parent)', () => {
    const kin = new NearGraph({ words: ['who', 'what', 'is', 'the', 'of'], relations: ['parents', 'children', 'spouse', 'nationality'].map((name) => ({ iri: `http://example.org/kin/${name}`, name })) });
    assert.ok(kin.nearest('mom').score < NEAR_THRESHOLD, 'a hypernym alone is too weak a link for nearness');
    assert.equal(kin.clearRelation('mom')?.name, 'parents');
    assert.deepEqual(kin.far(['mom']), []);
    assert.deepEqual(kin.far(['salary', 'mom']).map((f) => f.word), ['salary']);
  });

  it('the fallback answers through a word it was never shown only when its evidence holds the relation the word reads as', () => {
    const P = 'http://example.org/kin/';
    const read = new Map([['mom', { iri: `${P}parents` }], ['often', undefined]]);
    const triple = (p: string) => ({ s: { value: `${P}ada`, label: 'Ada', type: 'uri' as const }, p: { value: P + p, label: p, type: 'uri' as const }, o: { value: `${P}bo`, label: 'Bo', type: 'uri' as const } });
    assert.deepEqual(unreadInEvidence(read, [{ triples: [triple('parents'), triple('nationality')] }]), []);
    assert.deepEqual(unreadInEvidence(read, [{ triples: [triple('nationality')] }]), ['mom']);
    // every answer's path must hold it: one path through parents does not speak for another that has none
    assert.deepEqual(unreadInEvidence(read, [{ triples: [triple('parents')] }, { triples: [triple('nationality')] }]), ['mom']);
  });

  describe('nothingNear (NOTHING_NEAR)', () => {
    const reading: Reading = { form: '(JOIN (R painted_by) [ Blue Hour ])', mentions: [{ text: 'Blue Hour', label: 'Blue Hour', match: 'exact' }] };
    const ctx = (question: string, far: boolean): CheckContext => ({
      question,
      beam: [],
      knownWords: new Set(words),
      ...(far ? { farWords: (ws: string[]) => graph.far(ws) } : {}),
    });

    it('an unseen word near the graph passes (the closed-vocabulary rule refused it)', () => {
      const v = nothingNear(reading, ctx('which artist made the artwork Blue Hour', true));
      assert.equal(v.pass, true, v.reason);
      // without nearness (the old rule): refused for the words the parser never saw
      const old = nothingNear(reading, ctx('which artist made the artwork Blue Hour', false));
      assert.deepEqual([old.pass, old.code], [false, 'UNEXPLAINED_WORDS']);
    });

    it('an unseen word nothing is near is refused with the word and the closest relation', () => {
      const v = nothingNear(reading, ctx('what salary did the painter of Blue Hour earn', true));
      assert.deepEqual([v.pass, v.code, v.check], [false, 'NOTHING_NEAR', 'nothingNear']);
      assert.ok(v.words?.includes('salary'));
      assert.match(v.reason!, /nothing in this graph is near "salary".*; closest: /);
    });

    it('a name the graph lacks stays NAMED_NOTHING', () => {
      const r: Reading = { form: '(JOIN (R painted_by) [ Blue Hour Tide ])', mentions: [{ text: 'Blue Hour Tide', label: 'Blue Hour', match: 'fuzzy' }] };
      const v = nothingNear(r, { ...ctx('who painted Blue Hour Tide', true), near: () => ['Blue Hour'] });
      assert.equal(v.code, 'NAMED_NOTHING');
    });
  });

  describe('wordNotRead (WORD_NOT_READ)', () => {
    const ctx = (question: string): CheckContext => ({
      question,
      beam: [],
      knownWords: new Set(words),
      farWords: (ws: string[]) => graph.far(ws),
      clearRelation: (w: string) => graph.clearRelation(w),
    });
    const reading = (form: string): Reading => ({ form, mentions: [{ text: 'Blue Hour', label: 'Blue Hour', match: 'exact' }] });

    it('an unseen word that clearly reads as a relation passes on a reading that uses it', () => {
      // "exhibition" is no word of the parser's; it reads as exhibited_in (WordNet: exhibit)
      assert.equal(graph.clearRelation('exhibition')?.name, 'exhibited_in');
      assert.equal(wordNotRead(reading('(JOIN (R exhibited_in) [ Blue Hour ])'), ctx('which exhibition had Blue Hour')).pass, true);
    });

    it('and is set aside on a reading that does not, naming the relation', () => {
      const v = wordNotRead(reading('(JOIN (R painted_by) [ Blue Hour ])'), ctx('which exhibition had Blue Hour'));
      assert.deepEqual([v.pass, v.code, v.relation], [false, 'WORD_NOT_READ', 'exhibited_in']);
      assert.match(v.reason!, /"exhibition" reads as exhibited in \(0\.\d\d\), which the reading .* does not use/);
    });

    it('an unseen word near the graph that reads as no relation clearly keeps the closed-vocabulary rule', () => {
      const w = 'artwork';
      assert.equal(graph.clearRelation(w), undefined);
      const v = wordNotRead(reading('(JOIN (R painted_by) [ Blue Hour ])'), ctx(`who painted the ${w} Blue Hour`));
      assert.deepEqual([v.pass, v.code, v.relation], [false, 'WORD_NOT_READ', undefined]);
    });
  });
});
