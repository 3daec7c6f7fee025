/**
 * How words sound, for questions a speech recogniser wrote: Double Metaphone (talisman) codes, and `soundsAlike`, the
 * one test of "this word may be a mishearing of that one" (the abstention's known words, abstain.ts; the noise
 * measurement, scripts/measure-noise.ts).
 */
import { distance } from 'fastest-levenshtein';
import doubleMetaphone from 'talisman/phonetics/double-metaphone';

/** A word's Double Metaphone codes (primary first; one when both are the same). */
export function soundCodes(word: string): string[] {
  const [a, b] = doubleMetaphone(word.toLowerCase());
  return a === b ? [a] : [a, b];
}

/**
 * Whether `heard` may be a mishearing of `word`: another word of three letters or more, with a Double Metaphone code
 * in common, one edit away, or two when either has five letters or more ("rider" for "writer", "shore" for "share",
 * "white" for "what"; not "paid" for "bad": four letters and two edits).
 */
export function soundsAlike(heard: string, word: string): boolean {
  const a = heard.toLowerCase();
  const b = word.toLowerCase();
  if (a === b || a.length < 3 || b.length < 3 || distance(a, b) > (Math.max(a.length, b.length) >= 5 ? 2 : 1)) return false;
  const codes = soundCodes(b);
  return soundCodes(a).some((c) => c !== '' && codes.includes(c));
}
