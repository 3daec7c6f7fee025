/**
 * The one place text is normalised for comparison. Three keys, each with one meaning:
 * - `foldCase`: Unicode compatibility form (NFKC), lower case, whitespace runs → one space, trimmed. How
 *   answers are compared by the evaluation and how the parser's copy spans are looked up in a label set.
 * - `normalizeLabel`: the matching key of entity labels (entity index, entity linking, relation words):
 *   accents stripped (é → e), a few letters folded (ß → ss), apostrophes dropped ("Schindler's" =
 *   "Schindlers"), every other non-letter/digit run → one space.
 * - `words`: the letter/digit words of `foldCase(text)` (the fallback readers' tokens); `letterWords`: the
 *   letters-only words the trainer writes to words.json (train/askgraph_data.py `question_words`).
 * fixtures/text/cases.json pins these rules (and the triple-file reader's) for both the TypeScript and the
 * Python side (test/unit/core/text.test.ts, train/test_askgraph_data.py).
 */

/** Bumped whenever normalizeLabel changes: saved entity indexes with another version are rebuilt. */
export const NORMALIZATION_VERSION = 2;

/** NFKC, lower case, single spaces, trimmed. */
export function foldCase(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

const COMBINING = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/g;
const APOSTROPHES = /['\u2018\u2019\u02bc`´]/g;
const NON_WORD = /[^\p{L}\p{N}]+/gu;

// Letters that NFKD does not decompose but users type without the diacritic.
const FOLD: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };
const FOLD_RE = /[ßæœøłđðþı]/g;

// "8½" and "8 1/2" should agree: NFKD turns ½ into 1⁄2, so keep it apart from a preceding digit.
const VULGAR_FRACTION = /(\d)([\u00bc-\u00be\u2150-\u215e])/g;

/** The matching key of a label (see the module comment). */
export function normalizeLabel(text: string): string {
  return text
    .replace(VULGAR_FRACTION, '$1 $2')
    .normalize('NFKD')
    .replace(COMBINING, '')
    .toLowerCase()
    .replace(FOLD_RE, (c) => FOLD[c] ?? c)
    .replace(APOSTROPHES, '')
    .replace(NON_WORD, ' ')
    .trim();
}

/** Tokens of the label key (empty string → no tokens). */
export function labelTokens(text: string): string[] {
  const n = normalizeLabel(text);
  return n === '' ? [] : n.split(' ');
}

/**
 * The tokens of `text` as written (case and accents kept, punctuation split the same way as
 * normalizeLabel), aligned with labelTokens(text) — or null in the rare case they do not align.
 */
export function surfaceTokens(text: string): string[] | null {
  const surface = text.replace(APOSTROPHES, '').split(/[^\p{L}\p{N}\p{M}]+/u).filter((t) => t !== '');
  const norm = labelTokens(text);
  if (surface.length !== norm.length) return null;
  for (const [i, s] of surface.entries()) if (normalizeLabel(s) !== norm[i]) return null;
  return surface;
}

const UPPER = /^\p{Lu}$/u;
const LOWER = /^\p{Ll}$/u;
const LETTER = /^\p{L}$/u;
const DIGIT = /^\p{N}$/u;

/**
 * Spaces at the word boundaries inside an identifier, case and punctuation kept: lower → upper
 * ("birthPlace"), the end of an acronym before a capitalised word of two or more lower-case letters
 * ("HTMLParser" → "HTML Parser"; "IMDb", "URLs" and "IDs" stay whole), and with `digits`, letter ↔ digit
 * ("ISBN13" → "ISBN 13"). train/askgraph_data.py `identifier_boundaries` is the same rule.
 */
export function identifierBoundaries(name: string, digits: boolean): string {
  const cs = Array.from(name);
  let out = '';
  for (const [i, c] of cs.entries()) {
    const prev = cs[i - 1];
    if (prev !== undefined) {
      const camel = LOWER.test(prev) && UPPER.test(c);
      const acronymEnd = UPPER.test(prev) && UPPER.test(c) && LOWER.test(cs[i + 1] ?? '') && LOWER.test(cs[i + 2] ?? '');
      const digit = digits && ((LETTER.test(prev) && DIGIT.test(c)) || (DIGIT.test(prev) && LETTER.test(c)));
      if (camel || acronymEnd || digit) out += ' ';
    }
    out += c;
  }
  return out;
}

/**
 * The words of an identifier (a relation or class name, an IRI local name): `has_imdb_rating`,
 * `hasIMDbRating` → [has, imdb, rating]; `ISBN13` → [isbn, 13]; `foaf:name` → [foaf, name]; `C++` → [c].
 * Apostrophes are dropped (as normalizeLabel does); every other non-letter/digit (`_ - + # : . /`) splits,
 * as `words` splits a question, so each word can match a word of a question. The one rule for the
 * grounder, the readers and schema verbalisation; fixtures/text/cases.json `identifierWords` pins it for
 * both sides (train/askgraph_data.py `identifier_words`).
 */
export function identifierWords(name: string): string[] {
  return words(identifierBoundaries(name.replace(APOSTROPHES, ''), true));
}

/** The label key of an identifier's words (`identifierWords` joined, then `normalizeLabel`): "birthPlace" → "birth place". */
export function relationWords(name: string): string {
  return normalizeLabel(identifierWords(name).join(' '));
}

/** Letter/digit words of foldCase(text) (underscores and punctuation split). */
export function words(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFKC')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0);
}

const LETTERS = /\p{L}+/gu;

/** Lower-cased letters-only words (digits and punctuation split and dropped), as the trainer's words.json. */
export function letterWords(text: string): string[] {
  return text.toLowerCase().match(LETTERS) ?? [];
}

/**
 * The one typo tolerance: how many edits (Levenshtein) a word of this many letters may be from the word it is
 * read as — none below 4 letters ("cat" is not "car"), one from 4, two from 7 ("stephen" for "steven"). Used by
 * the entity index's typo neighbours (src/ground/token-index.ts) and the abstention's reading of mention and
 * question words (src/pipeline/abstain.ts); for a pair of words, pass the longer length.
 */
export function typoEdits(letters: number): number {
  return letters >= 7 ? 2 : letters >= 4 ? 1 : 0;
}

/** Whether `a` is `b` with two neighbouring letters swapped ("spuose" for "spouse"): one slip of the hand, two Levenshtein edits. */
export function swappedLetters(a: string, b: string): boolean {
  if (a.length !== b.length || a === b) return false;
  let i = 0;
  while (a[i] === b[i]) i++;
  return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
}

/**
 * Light suffix stemming, enough to match "directed/director/directors" and "written/writer" but
 * deliberately conservative (stems keep ≥ 3 letters). Irregular forms are learned by the vocabulary.
 */
export function stem(w: string): string {
  if (w.length <= 3 || /^\p{N}+$/u.test(w)) return w;
  let s = w;
  const rules: [RegExp, string][] = [
    [/ies$/, 'i'],
    [/(ss)es$/, '$1'],
    [/ings?$/, ''],
    [/ers?$/, ''],
    [/ors?$/, ''],
    [/ed$/, ''],
    [/es$/, ''],
    [/s$/, ''],
  ];
  for (const [re, rep] of rules) {
    const t = s.replace(re, rep);
    if (t !== s && t.length >= 3) {
      s = t;
      break;
    }
  }
  if (s.length > 3 && s.endsWith('e')) s = s.slice(0, -1);
  if (s.length > 3 && s.endsWith('y')) s = s.slice(0, -1) + 'i'; // country/countries
  if (s.length > 3 && /([b-df-hj-np-tv-z])\1$/.test(s)) s = s.slice(0, -1); // starr → star
  return s;
}

/**
 * Function words of English questions: never the topic of a question on their own, and no evidence for
 * a relation. One list for entity linking (src/ground/link.ts) and the readers' content terms
 * (src/fallback/text.ts). Graph-specific words ("movie", "director") do not belong here (a pack lists
 * them as `nonTopicWords`), nor words that are also common titles alone ("her", "may", "yes", "no", "if").
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  ('a an the of in on at to for by with from into about as than then so and or ' +
    'is are was were be been being do does did have has had got can could would should will shall might ' +
    'what which who whom whose when where why how that this these those there here it its ' +
    'i me my you your he she they them their ' +
    'also same other any some all every each please give tell list name names show find s ?').split(/\s+/),
);

export function isStopword(w: string): boolean {
  return STOP_WORDS.has(w);
}

/** FNV-1a 32-bit hash: a deterministic key (the fallback readers' sample order, the base corpus's train/valid split). */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
