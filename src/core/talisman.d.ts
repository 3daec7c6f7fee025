// talisman ships no types: the one module askgraph reads
declare module 'talisman/phonetics/double-metaphone' {
  /** The primary and alternate Double Metaphone codes of a word (at most four letters each). */
  export default function doubleMetaphone(word: string): [string, string];
}
