import { itemAt } from './checked';
import { AskgraphError } from './errors';

/**
 * The one reader of plain triple files (MetaQA's `head|relation|tail`, PathQuestion's and WC2014's
 * `subject<TAB>relation<TAB>object`), used by the loader (src/execute/loaders.ts), the parser's label
 * sets (src/generate), the data-set importers (src/eval) and — through the shared cases in
 * fixtures/text/cases.json — the Python trainer's `read_kb`. The rules:
 * - one line = one triple; `\r\n` line ends are accepted; blank lines are skipped;
 * - the separator is the tab when the first non-blank line holds a tab, else `|` — for the whole file;
 * - fields are trimmed; a line without exactly three non-empty fields is an error (DATA_FORMAT, with
 *   the file name and line number), never skipped.
 */

export type TripleFields = [head: string, relation: string, tail: string];

export type TripleSeparator = '\t' | '|';

/** The separator of a triple file, decided by its first non-blank line (undefined when all lines are blank). */
function tripleSeparator(text: string): TripleSeparator | undefined {
  for (const raw of text.split('\n')) {
    if (raw.trim() === '') continue;
    return raw.includes('\t') ? '\t' : '|';
  }
  return undefined;
}

/** Every triple of a triple file's text with its 1-based line number, in file order. */
export function* readTriples(text: string, name = 'triples'): Generator<{ triple: TripleFields; line: number }> {
  const lines = text.split('\n');
  const separator = tripleSeparator(text);
  if (separator === undefined) return; // every line is blank
  for (let i = 0; i < lines.length; i++) {
    const line = itemAt(lines, i).replace(/\r$/, '');
    if (line.trim() === '') continue;
    const fields = line.split(separator).map((f) => f.trim());
    if (fields.length !== 3 || fields.some((f) => f === '')) {
      throw new AskgraphError('DATA_FORMAT', `${name}:${i + 1}: expected 3 non-empty fields separated by ${separator === '\t' ? 'tabs' : '|'}`, {
        details: { file: name, line: i + 1, excerpt: line.slice(0, 120) },
      });
    }
    yield { triple: fields as TripleFields, line: i + 1 };
  }
}

/** Does the text read as a triple file (its first non-blank line splits into three non-empty fields)? */
export function looksLikeTriples(text: string): boolean {
  const separator = tripleSeparator(text);
  if (separator === undefined) return false;
  const first = (text.split('\n').find((l) => l.trim() !== '') ?? '').replace(/\r$/, '');
  const fields = first.split(separator).map((f) => f.trim());
  return fields.length === 3 && fields.every((f) => f !== '');
}
