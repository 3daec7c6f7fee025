/**
 * Label normalisation shared by the entity index, entity linking and relation matching:
 * NFKD, combining marks stripped (é → e), lower case, every non-letter/digit run → one space.
 * Apostrophes are dropped rather than spaced so "Schindler's" and "Schindlers" agree.
 */
/** Bumped whenever normalizeLabel changes: saved indexes with another version are rebuilt. */
export const NORMALIZATION_VERSION = 2;

const COMBINING = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/g;
const APOSTROPHES = /['\u2018\u2019\u02bc`´]/g;
const NON_WORD = /[^\p{L}\p{N}]+/gu;

// Letters that NFKD does not decompose but users type without the diacritic.
const FOLD: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };
const FOLD_RE = /[ßæœøłđðþı]/g;

// "8½" and "8 1/2" should agree: NFKD turns ½ into 1⁄2, so keep it apart from a preceding digit.
const VULGAR_FRACTION = /(\d)([\u00bc-\u00be\u2150-\u215e])/g;

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

/**
 * The tokens of `text` as written (case and accents kept, punctuation split the same way as
 * normalizeLabel), aligned with tokens(text) — or null in the rare case they do not align.
 */
export function surfaceTokens(text: string): string[] | null {
  const surface = text.replace(APOSTROPHES, '').split(/[^\p{L}\p{N}\p{M}]+/u).filter((t) => t !== '');
  const norm = tokens(text);
  if (surface.length !== norm.length) return null;
  for (let i = 0; i < surface.length; i++) if (normalizeLabel(surface[i]) !== norm[i]) return null;
  return surface;
}

/** Tokens of a normalised string (empty string → no tokens). */
export function tokens(text: string): string[] {
  const n = normalizeLabel(text);
  return n === '' ? [] : n.split(' ');
}

/** A relation name as words: `directed_by` / `film.film.directed_by` → "directed by" / "film film directed by". */
export function relationWords(name: string): string {
  return normalizeLabel(name.replace(/[_.\/#:]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2'));
}
