import { strict as assert } from 'node:assert';
import { linkEntities, PARTIAL_UNIQUE_SCORE } from '../../../src/ground';
import { madeUpGraphFor } from '../../helpers/ground';

// A made-up graph: one famous painter and two namesakes, a unique first name, and a plural genre.
const B = 'http://example.org/art/';
const REL = `${B}rel/`;
const LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';
const works = Array.from({ length: 8 }, (_, i) => `<${B}w${i}> <${REL}painted_by> <${B}Zorbalt> ; <${LABEL}> "Canvas ${i}" .`).join('\n');
const TTL = `
<${B}Zorbalt> <${LABEL}> "Ingmara Zorbalt" .
<${B}Zorbalt2> <${LABEL}> "Pell Zorbalt" .
<${B}Zorbalt3> <${LABEL}> "Zorbalt Quine" .
<${B}w9> <${REL}painted_by> <${B}Zorbalt2> ; <${LABEL}> "Lone Study" .
<${B}Vessaly> <${LABEL}> "Trudo Vessaly" .
<${B}w0> <${REL}painted_by> <${B}Vessaly> .
<${B}Nocturne> <${LABEL}> "Nocturne" .
<${B}w1> <${REL}has_style> <${B}Nocturne> .
<${B}Umbrel> <${LABEL}> "Umbrel Kettering" .
<${B}Umbrel2> <${LABEL}> "Umbrel Fasso" .
<${B}w2> <${REL}painted_by> <${B}Umbrel> .
<${B}w3> <${REL}painted_by> <${B}Umbrel2> .
<${B}Weather> <${LABEL}> "Stormy Weather" .
<${B}w4> <${REL}has_style> <${B}Weather> .
<${B}Kessoway> <${LABEL}> "Ostrin Kessoway" .
<${B}KessowayTag> <${LABEL}> "kessoway" .
<${B}w5> <${REL}has_style> <${B}KessowayTag> .
${Array.from({ length: 6 }, (_, i) => `<${B}k${i}> <${REL}painted_by> <${B}Kessoway> .`).join('\n')}
${works}
`;


describe('ground: partial names and plural mentions (made-up graph)', function () {
  this.timeout(60000);
  const g = madeUpGraphFor(TTL, REL, { relationRetrieval: false });

  it('a first name alone that starts one label grounds to it, marked partial and scored below an exact match', () => {
    const [hit] = g.graph.index.search('trudo');
    assert.equal(hit?.iri, `${B}Vessaly`);
    assert.equal(hit.match, 'partial');
    assert.equal(hit.score, PARTIAL_UNIQUE_SCORE * 0.99);
  });

  it('a surname alone takes the same path ("vessaly" → Trudo Vessaly)', () => {
    assert.equal(g.graph.index.search('vessaly')[0]?.iri, `${B}Vessaly`);
    assert.equal(g.graph.index.search('vessaly')[0]?.match, 'partial');
  });

  it('an ambiguous surname grounds to the namesake that dominates by graph degree, and says so', async () => {
    const got = await g.attempts('(JOIN painted_by [ zorbalt ])', 'paintings by zorbalt');
    assert.ok(got.length > 0);
    assert.equal(got[0]?.text, `(JOIN <${REL}painted_by> <${B}Zorbalt>)`);
    assert.deepEqual(got[0].entityMatches, ['partial']);
    assert.ok(got[0].entityScores[0]! < PARTIAL_UNIQUE_SCORE);
  });

  it('an ambiguous name with no dominant namesake stays ungrounded', async () => {
    const got = await g.attempts('(JOIN painted_by [ umbrel ])', 'paintings by umbrel');
    assert.deepEqual(got, []);
  });

  it('a misspelt surname reads through its typo correction ("vesaly" → Trudo Vessaly)', async () => {
    const got = await g.attempts('(JOIN painted_by [ vesaly ])', 'paintings by vesaly');
    assert.equal(got[0]?.text, `(JOIN <${REL}painted_by> <${B}Vessaly>)`);
  });

  it('a plural mention grounds to the singular label ("nocturnes" → Nocturne)', async () => {
    const got = await g.attempts('(JOIN has_style [ nocturnes ])', 'show me nocturnes');
    assert.equal(got[0]?.text, `(JOIN <${REL}has_style> <${B}Nocturne>)`);
    assert.deepEqual(got[0].entityMatches, ['inflected']);
  });

  it('a common noun is no partial name, and an unrelated word grounds to nothing', async () => {
    assert.deepEqual(g.graph.index.partialNames('weather'), []);
    assert.deepEqual(await g.attempts('(JOIN has_style [ weather ])', 'what is the weather'), []);
    assert.deepEqual(await g.attempts('(JOIN painted_by [ tomorrow ])', 'paintings by tomorrow'), []);
    assert.deepEqual(g.graph.index.search('lunch'), []);
  });

  it('a word a label spells exactly ("kessoway", a style) is read first as that label, then as the dominant name it ends', async () => {
    const got = await g.attempts('(JOIN painted_by [ kessoway ])', 'how many paintings by kessoway');
    const texts = got.map((a) => a.text);
    assert.equal(texts[0], `(JOIN <${REL}painted_by> <${B}KessowayTag>)`);
    const i = texts.indexOf(`(JOIN <${REL}painted_by> <${B}Kessoway>)`);
    assert.ok(i > 0, texts.join('\n'));
    assert.deepEqual(got[i]?.entityMatches, ['partial']);
    // a name that does not dominate the spelt entity is no second reading
    const small = await g.attempts('(JOIN painted_by [ nocturne ])', 'paintings by nocturne');
    assert.ok(small.every((a) => a.entityMatches?.[0] !== 'partial'));
  });

  it('free entity linking never takes a partial name for a free word', () => {
    assert.ok(!linkEntities('what did trudo paint', g.graph.index).some((l) => l.iri === `${B}Vessaly`));
  });
});
