/**
 * The one RDF terms module: the vocabulary IRIs every stage uses and the RDF/JS data factory
 * (rdf-data-factory) that builds the terms of sparqljs ASTs — no hand-made term objects.
 */
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'rdf-data-factory';

export const XSD = 'http://www.w3.org/2001/XMLSchema#';
export const XSD_STRING = XSD + 'string';
export const RDF_NS = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
export const RDF_TYPE = RDF_NS + 'type';
export const RDF_LANG_STRING = RDF_NS + 'langString';
export const RDFS_NS = 'http://www.w3.org/2000/01/rdf-schema#';
export const RDFS_LABEL = RDFS_NS + 'label';
export const RDFS_DOMAIN = RDFS_NS + 'domain';
export const RDFS_RANGE = RDFS_NS + 'range';
const OWL_NS = 'http://www.w3.org/2002/07/owl#';

/**
 * Predicates that describe a graph's properties (their domain, range, super-property, inverse): their subjects are
 * properties, never the things a question asks about — relation retrieval leaves them out (a rating is no "range").
 */
export const PROPERTY_SCHEMA_PREDICATES: readonly string[] = [RDFS_DOMAIN, RDFS_RANGE, RDFS_NS + 'subPropertyOf', OWL_NS + 'inverseOf', OWL_NS + 'equivalentProperty'];

/** The shared RDF/JS data factory. */
export const DF = new DataFactory();

export function namedNode(value: string): RDF.NamedNode {
  return DF.namedNode(value);
}

export function variable(name: string): RDF.Variable {
  return DF.variable(name);
}

/** A literal: language-tagged when `lang` is given, else typed (default xsd:string). */
export function literal(value: string, datatype?: string, lang?: string): RDF.Literal {
  return lang ? DF.literal(value, lang) : DF.literal(value, DF.namedNode(datatype ?? XSD_STRING));
}
