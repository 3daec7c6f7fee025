/** Named readers and the default chain order. */
import { unknownReader } from './chain';
import { PathReader, type PathReaderOptions } from './readers/paths';
import { TripleReader, type TripleReaderOptions } from './readers/triples';
import { ExploreReader, type ExploreReaderOptions } from './readers/explore';
import type { Reader } from './types';

export const READER_NAMES = ['paths', 'triples', 'explore'] as const;

export interface ReaderOptions {
  paths?: PathReaderOptions;
  triples?: TripleReaderOptions;
  explore?: ExploreReaderOptions;
  env?: Record<string, string | undefined>;
}

function make(name: string, opts: ReaderOptions): Reader {
  switch (name) {
    case 'paths':
      return new PathReader(opts.paths);
    case 'triples':
      return new TripleReader(opts.triples);
    case 'explore':
      return new ExploreReader(opts.explore);
    default:
      throw unknownReader(name, [...READER_NAMES]);
  }
}

/** The default chain: relation paths, then triple scoring, then exploration (then the LLM reader if configured). */
export function defaultReaders(opts: ReaderOptions = {}): Reader[] {
  return READER_NAMES.map((n) => make(n, opts));
}

/** Readers by name, in the order given (AskOptions.fallback / `--fallback a,b`). Unknown names: BAD_REQUEST. */
export function readersByName(names: string[], opts: ReaderOptions = {}): Reader[] {
  return names.map((n) => make(n, opts));
}
