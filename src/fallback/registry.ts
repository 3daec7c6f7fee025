/** Named readers and the default chain order. */
import { unknownReader } from './chain';
import { PathReader, type PathReaderOptions } from './readers/paths';
import type { Reader } from './types';

export const READER_NAMES = ['paths'] as const;

export interface ReaderOptions {
  paths?: PathReaderOptions;
  env?: Record<string, string | undefined>;
}

export function defaultReaders(opts: ReaderOptions = {}): Reader[] {
  return [new PathReader(opts.paths)];
}

/** Readers by name, in the order given (AskOptions.fallback / `--fallback a,b`). Unknown names: BAD_REQUEST. */
export function readersByName(names: string[], opts: ReaderOptions = {}): Reader[] {
  return names.map((n) => {
    switch (n) {
      case 'paths':
        return new PathReader(opts.paths);
      default:
        throw unknownReader(n, [...READER_NAMES]);
    }
  });
}
