export * from './errors';
export * from './form';
export * from './types';
export * from './paths';
export * from './answer';
export * from './text';
export * from './triples';
export * from './rdf';
