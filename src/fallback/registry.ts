/** Named readers and the default chain order. */
import { unknownReader } from './chain';
import { PathReader, type PathReaderOptions } from './readers/paths';
import { TripleReader, type TripleReaderOptions } from './readers/triples';
import { ExploreReader, type ExploreReaderOptions } from './readers/explore';
import { LlmReader, llmOptionsFromEnv, type LlmReaderOptions } from './readers/llm';
import type { Reader } from './types';

export const READER_NAMES = ['paths', 'triples', 'explore', 'llm'] as const;

export interface ReaderOptions {
  paths?: PathReaderOptions;
  triples?: TripleReaderOptions;
  explore?: ExploreReaderOptions;
  /** LLM reader options; merged over ASKGRAPH_LLM_URL / _MODEL / _KEY from env. */
  llm?: LlmReaderOptions;
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
    case 'llm':
      return new LlmReader({ ...llmOptionsFromEnv(opts.env ?? process.env), ...opts.llm });
    default:
      throw unknownReader(name, [...READER_NAMES]);
  }
}

/** The default chain: relation paths, then triple scoring, then exploration (then the LLM reader if configured). */
export function defaultReaders(opts: ReaderOptions = {}): Reader[] {
  const llm = { ...llmOptionsFromEnv(opts.env ?? process.env), ...opts.llm };
  return READER_NAMES.filter((n) => n !== 'llm' || llm.url).map((n) => make(n, opts));
}

/** Readers by name, in the order given (AskOptions.fallback / `--fallback a,b`). Unknown names: BAD_REQUEST. */
export function readersByName(names: string[], opts: ReaderOptions = {}): Reader[] {
  return names.map((n) => make(n, opts));
}
