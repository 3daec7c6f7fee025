/** Schemas of the synth fixtures (fixtures/synth/museums.ttl, fixtures/graphs/movies-small.ttl), as discovery writes them. */
import * as path from 'node:path';
import { packageRoot, type Executor } from '../../../src/core';
import { openExecutor } from '../../../src/execute';
import type { Schema, SchemaProperty } from '../../../src/synth';

export const MUSEUMS = 'http://askgraph.dev/museums/';
export const MOVIES = 'http://askgraph.dev/movies/relation/';
export const XSD = 'http://www.w3.org/2001/XMLSchema#';
export const LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';

export function prop(iri: string, name: string, label: string, extra: Partial<SchemaProperty>): SchemaProperty {
  return { iri, name, label, count: 40, subjects: 40, objects: 12, domain: [], range: [], objectKind: 'entity', functional: false, ...extra };
}

/** A schema as discovery writes it for a test graph of `triples` triples, `entities` of them labelled. */
function schemaOf(triples: number, entities: number, parts: Pick<Schema, 'classes' | 'properties'>): Schema {
  return {
    store: 'test',
    createdAt: '2026-11-23T00:00:00Z',
    triples,
    entities,
    typePredicate: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type',
    labelPredicates: [LABEL],
    labelSources: [{ source: LABEL, count: entities }],
    ...parts,
  };
}

/** The schema discovery would write for fixtures/synth/museums.ttl. */
export function museumSchema(): Schema {
  const c = (n: string) => MUSEUMS + n;
  return schemaOf(409, 70, {
    classes: [
      { iri: c('Museum'), name: 'Museum', label: 'museum', count: 40 },
      { iri: c('City'), name: 'City', label: 'city', count: 12 },
      { iri: c('Country'), name: 'Country', label: 'country', count: 4 },
      { iri: c('Collection'), name: 'Collection', label: 'collection', count: 8 },
    ],
    properties: [
      prop(c('locatedIn'), 'locatedIn', 'located in', { domain: [c('Museum')], range: [c('City')], functional: true }),
      prop(c('inCountry'), 'inCountry', 'in country', { domain: [c('City')], range: [c('Country')], functional: true, count: 12, subjects: 12, objects: 4 }),
      prop(c('hasCollection'), 'hasCollection', 'has collection', { domain: [c('Museum')], range: [c('Collection')], count: 80, objects: 8 }),
      prop(c('visitorRating'), 'visitorRating', 'visitor rating', { domain: [c('Museum')], objectKind: 'literal', datatype: XSD + 'decimal', valueKind: 'number', functional: true, min: 2, max: 5 }),
      prop(c('openingYear'), 'openingYear', 'opening year', { domain: [c('Museum')], objectKind: 'literal', datatype: XSD + 'integer', valueKind: 'year', functional: true, min: 1850, max: 2020 }),
      prop(c('population'), 'population', 'population', { domain: [c('City')], objectKind: 'literal', datatype: XSD + 'integer', valueKind: 'number', functional: true, count: 12, subjects: 12, min: 20000, max: 900000 }),
      prop(c('foundedBy'), 'foundedBy', 'founded by', { domain: [c('Museum')], count: 14, subjects: 14, objects: 6 }),
    ],
  });
}

/** The untyped movies fixture (fixtures/graphs/movies-small.ttl): no classes, years as integer literals. */
export function moviesSchema(): Schema {
  const r = (n: string) => MOVIES + n;
  return schemaOf(247, 60, {
    classes: [],
    properties: [
      prop(r('directed_by'), 'directed_by', 'directed by', { count: 14, subjects: 14, objects: 8 }),
      prop(r('written_by'), 'written_by', 'written by', { count: 25, subjects: 14, objects: 20 }),
      prop(r('starred_actors'), 'starred_actors', 'starred actors', { count: 40, subjects: 14, objects: 25 }),
      prop(r('has_genre'), 'has_genre', 'has genre', { count: 20, subjects: 14, objects: 8 }),
      prop(r('release_year'), 'release_year', 'release year', { objectKind: 'literal', datatype: XSD + 'integer', valueKind: 'year', functional: true, count: 14, subjects: 14, min: 1984, max: 2000 }),
    ],
  });
}

/** The two fixture stores on embedded Oxigraph, opened before the suite's tests and closed after them. */
export function fixtureStores(): { museums: () => Executor; movies: () => Executor } {
  let museums: Executor | undefined;
  let movies: Executor | undefined;
  before(async () => {
    museums = await openExecutor(path.join(packageRoot(), 'fixtures/synth/museums.ttl'));
    movies = await openExecutor(path.join(packageRoot(), 'fixtures/graphs/movies-small.ttl'), { baseIri: 'http://askgraph.dev/movies/' });
  });
  after(async () => {
    await museums?.close();
    await movies?.close();
  });
  return { museums: () => museums!, movies: () => movies! };
}
