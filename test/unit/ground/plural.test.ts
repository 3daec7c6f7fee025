import { strict as assert } from 'node:assert';
import { EntityIndex, singularCandidates } from '../../../src/ground/entity-index';

describe('plural mentions of singular labels', () => {
  const index = EntityIndex.build([
    { iri: 'urn:g:western', label: 'Western' },
    { iri: 'urn:g:comedy', label: 'Comedy' },
    { iri: 'urn:f:dogs', label: 'Dogs' },
    { iri: 'urn:f:dog', label: 'Dog' },
  ]);

  it('inflects the last word: WordNet noun suffixes (longest first), then compromise (irregular plurals)', () => {
    assert.deepEqual([...singularCandidates('comedies')], ['comedy', 'comedie']);
    assert.deepEqual([...singularCandidates('horror movies')], ['horror movy', 'horror movie']);
    assert.deepEqual([...singularCandidates('lost children')], ['lost child']);
    assert.deepEqual([...singularCandidates('Heat')], []);
  });

  it('a plural mention finds the singular label exactly', () => {
    assert.equal(index.search('westerns')[0]?.iri, 'urn:g:western');
    assert.equal(index.search('comedies')[0]?.iri, 'urn:g:comedy');
    assert.equal(index.search('westerns')[0]?.exact, true);
    assert.equal(index.search('westerns')[0]?.match, 'inflected');
    assert.ok(index.search('westerns')[0]!.score < 1, 'an inflected reading costs a little');
  });

  it('a label that is itself plural wins over its singular', () => {
    assert.equal(index.search('Dogs')[0]?.iri, 'urn:f:dogs');
  });
});
