import { strict as assert } from 'node:assert';
import { compileForm } from '../../../src/compile';
import { FLIP_SCORE, isAQuery, type GroundAttempt } from '../../../src/ground';
import { madeUpGraphFor } from '../../helpers/ground';

// A made-up graph of divisions (a budget, a head) and people (a manager, an employer).
const B = 'http://example.org/org/';
const REL = `${B}rel/`;
const LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';
const TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const TTL = `
<${B}d1> <${LABEL}> "Harbour" ; <${TYPE}> <${REL}Division> ; <${REL}budget> 5000 ; <${REL}headed_by> <${B}p1> .
<${B}d2> <${LABEL}> "Quarry" ; <${TYPE}> <${REL}Division> ; <${REL}budget> 7000 ; <${REL}headed_by> <${B}p2> .
<${B}p1> <${LABEL}> "Ada Brook" ; <${TYPE}> <${REL}Person> ; <${REL}works_in> <${B}d1> .
<${B}p2> <${LABEL}> "Tom Vale" ; <${TYPE}> <${REL}Person> ; <${REL}works_in> <${B}d2> ; <${REL}manager> <${B}p1> .
<${B}p3> <${LABEL}> "Mia Lund" ; <${TYPE}> <${REL}Person> ; <${REL}works_in> <${B}d1> .
`;


describe('ground: a join read the other way round where the entity takes the relation that way (made-up graph)', function () {
  this.timeout(60000);
  const g = madeUpGraphFor(TTL, REL);

  async function answers(a: GroundAttempt): Promise<string[]> {
    const res = await g.graph.executor.select(compileForm(a.form, { vocabularyNamespace: REL }).sparql);
    return res.rows.map((r) => Object.values(r)[0]?.value ?? '').sort();
  }

  it('takes and isA ask the store (each IRI in its own VALUES block)', async () => {
    assert.equal(await g.graph.relations.takes(`${REL}budget`, `${B}d1`, false), true, 'Harbour has a budget');
    assert.equal(await g.graph.relations.takes(`${REL}budget`, `${B}d1`, true), false, 'Harbour is no budget');
    assert.equal(await g.graph.relations.isA(`${B}d1`, `${REL}Division`), true);
    assert.equal(await g.graph.relations.isA(`${B}d1`, `${REL}Person`), false);
    assert.match(isAQuery(`${B}d1`, `${REL}Division`), /VALUES \?c \{\s*<http:\/\/example\.org\/org\/rel\/Division>\s*\}/);
  });

  it('"the budget of Harbour" written backwards, with Harbour\'s own class as the answer\'s, is read as Harbour\'s budget', async () => {
    const got = await g.attempts('(AND Division (JOIN budget [ Harbour ]))', 'what is the budget of the harbour division');
    const own = got.find((a) => a.phase === 'exact');
    const flips = got.filter((a) => a.phase === 'flip');
    assert.equal(flips.length, 1);
    const f = flips[0]!;
    assert.equal(f.text, `(JOIN (R <${REL}budget>) <${B}d1>)`);
    assert.deepEqual(f.flips, ['budget of d1 read the other way round, without its own class Division']);
    assert.ok(own && got.indexOf(f) > got.indexOf(own), "after the parser's own reading");
    assert.ok(Math.abs(f.score - (own.score + Math.log(FLIP_SCORE))) < 1e-9, 'costs ln(FLIP_SCORE)');
    assert.deepEqual(await answers(f), ['5000']);
  });

  it('a class that is not the entity\'s own stays: (AND Person (JOIN headed_by [ Harbour ])) is the people heading Harbour', async () => {
    const got = await g.attempts('(AND Person (JOIN headed_by [ Harbour ]))', 'which person heads harbour');
    const flips = got.filter((a) => a.phase === 'flip');
    assert.deepEqual(flips.map((a) => a.text), [`(AND Person (JOIN (R <${REL}headed_by>) <${B}d1>))`]);
    assert.deepEqual(await answers(flips[0]!), [`${B}p1`]);
  });

  it('"X\'s r" ((JOIN (R r) X)) with X lacking r is never turned into "what has r X": a fact the graph lacks', async () => {
    // Ada Brook heads Harbour but has no head: "who heads Ada Brook" is not "what does Ada Brook head"
    const got = await g.attempts('(JOIN (R headed_by) [ Ada Brook ])', 'who heads ada brook');
    assert.equal(got.filter((a) => a.phase === 'flip').length, 0);
  });

  it('no flip where the entity takes the relation as written, or takes it neither way', async () => {
    const asWritten = await g.attempts('(JOIN works_in [ Harbour ])', 'who works in harbour');
    assert.equal(asWritten.filter((a) => a.phase === 'flip').length, 0);
    assert.equal(asWritten[0]?.text, `(JOIN <${REL}works_in> <${B}d1>)`);
    // only the whole answer is turned round: inside a ranking or a count the parser's set is another one
    const ranked = await g.attempts('(ARGMAX (JOIN headed_by [ Harbour ]) budget)', 'the biggest budget headed by harbour');
    assert.equal(ranked.filter((a) => a.phase === 'flip').length, 0);
    const counted = await g.attempts('(COUNT (JOIN headed_by [ Harbour ]))', 'how many does harbour head');
    assert.equal(counted.filter((a) => a.phase === 'flip').length, 0);
    // Mia Lund is neither a manager nor managed: nothing to turn round
    const neither = await g.attempts('(JOIN manager [ Mia Lund ])', 'who is managed by mia lund');
    assert.equal(neither.filter((a) => a.phase === 'flip').length, 0);
  });
});
