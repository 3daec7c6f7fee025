/**
 * MetaQA → examples. The qtype path gives the gold form, in the direction the triples go:
 * `movie_to_director` from a movie is (JOIN (R directed_by) x); `director_to_movie` is (JOIN directed_by x).
 * The question keeps its bracketed version in meta.bracketed; `question` is the bracket-free one users type.
 * Split rule (src/core/README.md, "Data splits"): 0-based line number in its hop file % 20 == 7 → valid.
 */
import * as path from 'node:path';
import { AskgraphError } from '../../core';
import { readText, splitLines } from '../jsonl';
import type { Example } from '../types';

/** (from type, to type) → relation step. */
export const METAQA_STEPS: Record<string, string> = {
  'movie>director': '(R directed_by)',
  'director>movie': 'directed_by',
  'movie>writer': '(R written_by)',
  'writer>movie': 'written_by',
  'movie>actor': '(R starred_actors)',
  'actor>movie': 'starred_actors',
  'movie>year': '(R release_year)',
  'movie>language': '(R in_language)',
  'movie>genre': '(R has_genre)',
  'movie>tags': '(R has_tags)',
  'tag>movie': 'has_tags',
  'movie>imdbrating': '(R has_imdb_rating)',
  'movie>imdbvotes': '(R has_imdb_votes)',
};

export function metaqaForm(qtype: string, entity: string): string {
  const parts = qtype.split('_to_');
  let form = `[ ${entity} ]`;
  for (let i = 0; i + 1 < parts.length; i++) {
    const step = METAQA_STEPS[`${parts[i]}>${parts[i + 1]}`];
    if (!step) throw new AskgraphError('DATA_FORMAT', `unknown MetaQA qtype step ${parts[i]}_to_${parts[i + 1]} in ${qtype}`);
    form = `(JOIN ${step} ${form})`;
  }
  return form;
}

export interface MetaqaLineOptions {
  hop?: number;
  idPrefix?: string;
}

/**
 * One MetaQA file: `question<TAB>a|b|c` lines (topic in brackets or not), with the optional parallel qtype lines.
 * Without brackets there is no topic and no form; with brackets the question is returned bracket-free.
 */
export function importMetaqaLines(qaText: string, qtypeText: string | undefined, opts: MetaqaLineOptions = {}): Example[] {
  const qs = splitLines(qaText);
  const ts = qtypeText === undefined ? undefined : splitLines(qtypeText);
  if (ts && ts.length !== qs.length) {
    throw new AskgraphError('DATA_FORMAT', `MetaQA: ${qs.length} questions but ${ts.length} qtype lines`);
  }
  const prefix = opts.idPrefix ?? (opts.hop ? `metaqa-${opts.hop}hop` : 'metaqa');
  return qs.map((line, i) => {
    const [q, ans, ...more] = line.split('\t');
    if (q === undefined || ans === undefined || more.length > 0) throw new AskgraphError('DATA_FORMAT', `MetaQA line ${i + 1}: expected question<TAB>answers`, { details: { line: i + 1 } });
    const entity = /\[([^\]]+)\]/.exec(q)?.[1];
    const qtype = ts?.[i];
    const hop = opts.hop ?? (qtype ? qtype.split('_to_').length - 1 : undefined);
    const ex: Example = {
      id: `${prefix}-${i}`,
      question: q.replace(/\[/g, '').replace(/\]/g, ''),
      form: entity !== undefined && qtype ? metaqaForm(qtype, entity) : undefined,
      answers: ans.split('|'),
      topic: entity !== undefined ? [entity] : undefined,
      meta: { dataset: 'metaqa', hop, qtype, bracketed: q },
    };
    return ex;
  });
}

/** The committed train / valid split from the MetaQA folder (`<dir>/{1,2,3}-hop/qa_dev{,_qtype}.txt`). */
export function importMetaqaSplit(dir: string): { train: Example[]; valid: Example[] } {
  const train: Example[] = [];
  const valid: Example[] = [];
  for (const hop of [1, 2, 3]) {
    const qa = readText(path.join(dir, `${hop}-hop`, 'qa_dev.txt'));
    const qt = readText(path.join(dir, `${hop}-hop`, 'qa_dev_qtype.txt'));
    importMetaqaLines(qa, qt, { hop }).forEach((ex, i) => (i % 20 === 7 ? valid : train).push(ex));
  }
  return { train, valid };
}

/**
 * `--format metaqa` on one file: reads the parallel `<name>_qtype.txt` when it exists next to it
 * (then forms and hops are known), and takes the hop from an `N-hop` folder name.
 */
export function readMetaqaFile(file: string, exists: (f: string) => boolean): Example[] {
  const qtypeFile = file.replace(/\.txt$/, '_qtype.txt');
  const hopMatch = /(\d)-hop/.exec(path.basename(path.dirname(file)));
  return importMetaqaLines(readText(file), qtypeFile !== file && exists(qtypeFile) ? readText(qtypeFile) : undefined, {
    hop: hopMatch ? Number(hopMatch[1]) : undefined,
  });
}
