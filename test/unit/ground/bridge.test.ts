import { strict as assert } from 'node:assert';
import { compileForm } from '../../../src/compile';
import { bridgeQuery, takesQuery, BRIDGE_SCORE } from '../../../src/ground';
import { madeUpGraphFor } from '../../helpers/ground';

// A made-up graph with places inside places: shops are in towns, towns in provinces; a town has a twin town.
const B = 'http://example.org/geo/';
const REL = `${B}rel/`;
const LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';
const TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const TTL = `
<${B}p1> <${LABEL}> "Norvale" ; <${TYPE}> <${B}Province> .
<${B}p2> <${LABEL}> "Estmark" ; <${TYPE}> <${B}Province> .
<${B}t1> <${LABEL}> "Harlow Bend" ; <${REL}in_province> <${B}p1> ; <${TYPE}> <${B}Town> .
<${B}t2> <${LABEL}> "Quillby" ; <${REL}in_province> <${B}p1> ; <${TYPE}> <${B}Town> .
<${B}t3> <${LABEL}> "Sarn" ; <${REL}in_province> <${B}p2> ; <${TYPE}> <${B}Town> .
<${B}s1> <${LABEL}> "The Copper Kettle" ; <${REL}in_town> <${B}t1> .
<${B}s2> <${LABEL}> "Brindle and Co" ; <${REL}in_town> <${B}t2> .
<${B}s3> <${LABEL}> "Maple Yard" ; <${REL}in_town> <${B}t3> .
<${B}t3> <${REL}twinned_with> <${B}t1> .
<${B}r1> <${LABEL}> "Old Coach Road" ; <${REL}passes_through> <${B}t1> .
`;


describe('ground: bridging an entity to a relation it never takes (made-up graph)', function () {
  this.timeout(60000);
  const g = madeUpGraphFor(TTL, REL);

  it('the queries name each IRI in its own VALUES block', () => {
    const q = bridgeQuery(`${REL}in_town`, `${B}p1`, true, 10);
    assert.match(q, /VALUES \?e \{\s*<http:\/\/example\.org\/geo\/p1>\s*\}/);
    assert.match(q, /VALUES \?r \{\s*<http:\/\/example\.org\/geo\/rel\/in_town>\s*\}/);
    assert.match(takesQuery(`${REL}in_town`, `${B}p1`, true), /\?s \?r \?e/);
    assert.match(takesQuery(`${REL}in_town`, `${B}p1`, false), /\?e \?r \?o/);
    assert.match(bridgeQuery(`${REL}in_town`, `${B}p1`, false, 10), /\?c \?r \?o/);
  });

  it('a province is bridged to "in town" through the towns in it; a town that is in_town\'s value is not bridged', async () => {
    assert.deepEqual(await g.graph.relations.bridges(`${REL}in_town`, false, `${B}p1`), [{ iri: `${REL}in_province`, inverse: false }]);
    assert.deepEqual(await g.graph.relations.bridges(`${REL}in_town`, false, `${B}t1`), []);
  });

  it('a bridge from the entity as subject is written reversed; rdf:type and the relation itself are never bridges', async () => {
    // the shops of the town Sarn is twinned with: Sarn is the subject of twinned_with, its object a town of in_town
    assert.deepEqual(await g.graph.relations.bridges(`${REL}in_town`, false, `${B}t3`), []); // Sarn takes in_town itself
    // the shops on a road: the road is the subject of passes_through, a town (an object of in_town) its object
    assert.deepEqual(await g.graph.relations.bridges(`${REL}in_town`, false, `${B}r1`), [{ iri: `${REL}passes_through`, inverse: true }]);
    // the class Town: towns are in_town's values, linked to it only by rdf:type
    assert.deepEqual(await g.graph.relations.bridges(`${REL}in_town`, false, `${B}Town`), []);
  });

  it('grounding reads "shops in Norvale" with the hop the parser left out, after its own readings, and the bridged reading holds', async () => {
    const got = await g.attempts('(JOIN in_town [ Norvale ])', 'shops in norvale');
    const bridged = got.filter((a) => a.phase === 'bridge');
    assert.equal(bridged.length, 1);
    const b = bridged[0]!;
    assert.equal(b.text, `(JOIN <${REL}in_town> (JOIN <${REL}in_province> <${B}p1>))`);
    assert.deepEqual(b.bridges, ['in_town ← in_province → p1']);
    assert.ok(got.indexOf(b) > got.findIndex((a) => a.phase === 'exact'), 'after the parser\'s own reading');
    const own = got.find((a) => a.phase === 'exact');
    assert.ok(own && Math.abs(b.score - (own.score + Math.log(BRIDGE_SCORE))) < 1e-9, 'costs ln(BRIDGE_SCORE) for its one bridge');
    const res = await g.graph.executor.select(compileForm(b.form, { vocabularyNamespace: REL }).sparql);
    assert.deepEqual(res.rows.map((r) => Object.values(r)[0]?.value).sort(), [`${B}s1`, `${B}s2`]);
  });

  it('no bridge when the entity takes the relation: a town\'s shops are read as written', async () => {
    const got = await g.attempts('(JOIN in_town [ Quillby ])', 'shops in quillby');
    assert.equal(got.filter((a) => a.phase === 'bridge').length, 0);
    assert.equal(got[0]?.text, `(JOIN <${REL}in_town> <${B}t2>)`);
  });

  it('"X\'s r" with X lacking r is bridged only when the question names r and one more word (the hop\'s)', async () => {
    // a shop as in_province's subject: the graph lacks the fact, unless the question names the step (its town)
    assert.deepEqual(await g.graph.relations.bridges(`${REL}in_province`, true, `${B}s1`), [{ iri: `${REL}in_town`, inverse: true }]);
    const bare = await g.attempts('(JOIN (R in_province) [ The Copper Kettle ])', 'the province of the copper kettle');
    assert.equal(bare.filter((a) => a.phase === 'bridge').length, 0);
    const unnamed = await g.attempts('(JOIN (R in_province) [ The Copper Kettle ])', 'the town of the copper kettle');
    assert.equal(unnamed.filter((a) => a.phase === 'bridge').length, 0, 'the question does not name in_province');
    const noHop = await g.attempts('(JOIN (R in_province) [ The Copper Kettle ])', 'how many provinces did the copper kettle have');
    assert.equal(noHop.filter((a) => a.phase === 'bridge').length, 0, '"many" is no hop: only a word that is mostly a noun is');
    const named = await g.attempts('(JOIN (R in_province) [ The Copper Kettle ])', 'the province of the town of the copper kettle');
    const bridged = named.filter((a) => a.phase === 'bridge');
    assert.deepEqual(bridged.map((a) => a.text), [`(JOIN (R <${REL}in_province>) (JOIN (R <${REL}in_town>) <${B}s1>))`]);
    const res = await g.graph.executor.select(compileForm(bridged[0]!.form, { vocabularyNamespace: REL }).sparql);
    assert.deepEqual(res.rows.map((r) => Object.values(r)[0]?.value), [`${B}p1`]);
  });
});
