/**
 * A pack's lexicon file (`<pack>/lexicon.json`): how a graph's classes and properties are said in English. Built by
 * src/synth (buildLexicon, from the schema alone) and edited by users; read here so that every stage reads it one way
 * — the synthesiser, and the pipeline's typed readings (a property's superlatives: "top rated", "earliest").
 */
import * as fs from 'node:fs';
import { AskgraphError } from './errors';
import type { VerbForms } from './morph';

export const LEXICON_FORMAT = 'askgraph-lexicon/1';
/** The lexicon's file name in a pack: <pack>/lexicon.json. */
export const LEXICON_FILE = 'lexicon.json';

export type Wh = 'who' | 'what' | 'where' | 'when';

export interface NounEntry {
  singular: string[];
  plural: string[];
  /** A thing one can go to (a building, a place): "where is a …", "where can I find …". */
  place?: boolean;
}

export interface ClassLexicon extends NounEntry {
  label: string;
  wh?: Wh;
}

export interface PropertyLexicon {
  label: string;
  /** How the label reads: passive "directed by", verb "plays in club", prep "in city", noun "release year", nounOf "capital of". */
  shape: 'passive' | 'verb' | 'prep' | 'noun' | 'nounOf';
  subject: NounEntry;
  object: NounEntry;
  /** wh-word for the object and for the subject. */
  wh: Wh;
  swh: Wh;
  verb?: VerbForms & { particle?: string; agent: 'subject' | 'object' };
  prep?: string;
  /** At most one object per subject ("the director of X" vs "the actors of X"). */
  functional?: boolean;
  /** Values are numbers / years / dates: comparisons and aggregates apply. */
  valueKind?: string;
  /** Words for "more" / "less" of this value ("higher"/"lower", "later"/"earlier"). */
  more?: string[];
  less?: string[];
  /**
   * A rating-like scale (a small decimal range): "good" / "bad" are comparisons with `threshold`, "best" /
   * "worst" superlatives ("good thai bakeries", "the best bakery in X"). Editable.
   */
  scale?: { threshold: number; good: string[]; bad: string[]; best: string[]; worst: string[] };
  /** Superlatives: "highest", "latest", "most recent" / "lowest", "earliest". */
  most?: string[];
  least?: string[];
  subjects: string[];
  subjectQ: string[];
  objects: string[];
  objectQ: string[];
  ask: string[];
}

export interface Lexicon {
  format: typeof LEXICON_FORMAT;
  /** Nouns for things of unknown kind (subjects of an untyped graph). */
  thing: NounEntry;
  classes: Record<string, ClassLexicon>;
  properties: Record<string, PropertyLexicon>;
}

/** A JSON object (not an array, not null). */
export function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** Checks a (possibly partial) lexicon: the shapes a reader relies on, else DATA_FORMAT naming where. */
export function checkLexicon(lex: unknown, where: string): asserts lex is Lexicon {
  const fail = (msg: string): never => {
    throw new AskgraphError('DATA_FORMAT', `${where}: ${msg}`);
  };
  if (!isObject(lex)) fail('not a JSON object');
  const l = lex as Record<string, unknown>;
  if (l.format !== undefined && l.format !== LEXICON_FORMAT) fail(`format must be "${LEXICON_FORMAT}"`);
  for (const key of ['classes', 'properties'] as const) if (l[key] !== undefined && !isObject(l[key])) fail(`${key} must be an object`);
  const props = (l.properties ?? {}) as Record<string, unknown>;
  for (const [name, p] of Object.entries(props)) {
    if (!isObject(p)) fail(`properties.${name} must be an object`);
    for (const [k, v] of Object.entries(p as Record<string, unknown>)) {
      if (['subjects', 'subjectQ', 'objects', 'objectQ', 'ask', 'more', 'less', 'most', 'least'].includes(k)) {
        if (!Array.isArray(v) || v.some((t) => typeof t !== 'string')) fail(`properties.${name}.${k} must be an array of strings`);
      }
    }
  }
}

/** Reads a (possibly partial, user-edited) lexicon file; checked, with DATA_FORMAT / NOT_FOUND errors. */
export function readLexicon(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new AskgraphError('NOT_FOUND', `no lexicon file ${file}`, { cause: e });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new AskgraphError('DATA_FORMAT', `${file}: ${(e as Error).message}`, { cause: e });
  }
  checkLexicon(json, file);
  return json;
}

export function writeLexicon(file: string, lex: Lexicon): void {
  fs.writeFileSync(file, JSON.stringify(lex, null, 2) + '\n');
}
