import { strict as assert } from 'node:assert';
import { iriLocalName, nameInNamespace } from '../../../src/core';
import { relationSimilarity } from '../../../src/ground';

/** One rule for an IRI's local name (src/core/labels.ts iriLocalName), used by the grounder, the readers and the inspector. */
describe('IRI local name (one rule)', () => {
  it('takes what follows the last # or /, the segment before a trailing one, %-decoded; urn: after the last colon', () => {
    assert.equal(iriLocalName('http://ex.org/vocab#birthPlace'), 'birthPlace');
    assert.equal(iriLocalName('http://ex.org/vocab/birth%20place'), 'birth place');
    assert.equal(iriLocalName('http://ex.org/vocab/birthPlace/'), 'birthPlace');
    assert.equal(iriLocalName('http://ex.org/vocab/bad%zz'), 'bad%zz');
    assert.equal(iriLocalName('urn:ex:rel:birthPlace'), 'birthPlace');
  });

  it('the grounder compares a generated relation IRI by that local name (a trailing slash used to leave nothing to compare)', () => {
    const candidate = { iri: 'http://ex.org/vocab/placeOfBirth', name: 'placeOfBirth' };
    const other = { iri: 'http://ex.org/vocab/spouse', name: 'spouse' };
    const g = 'http://ex.org/other/place_of_birth/';
    assert.equal(relationSimilarity(g, candidate), 1);
    assert.ok(relationSimilarity(g, other) < 0.5);
  });

  it('a name inside a namespace is the %-decoded rest; outside it, the namespace itself or a bad escape: none', () => {
    const ns = 'http://ex.org/relation/';
    assert.equal(nameInNamespace(ns + 'directed%20by', ns), 'directed by');
    assert.equal(nameInNamespace('http://other.org/relation/x', ns), undefined);
    assert.equal(nameInNamespace(ns, ns), undefined);
    assert.equal(nameInNamespace(ns + 'bad%zz', ns), undefined); // the gateway's copy threw URIError here
    assert.equal(nameInNamespace(ns + 'x', undefined), undefined);
  });
});
