/**
 * askgraph-base's training pairs: real questions of many graphs whose forms name relations and classes by WORDS
 * and entities by the words of the question that name them.
 *
 * - A relation or a class becomes a word name ([21] Name): the words of its identifier joined by `_`
 *   (`identifierWords`, the one rule for identifiers): a dotted id (Freebase `people.person.place_of_birth`,
 *   PathQuestion-Large `__music__release_track__recording`) keeps its LAST segment (`place_of_birth`, `recording`)
 *   — the segments before it name the subject's type, which the graph asked already has; an IRI keeps its local
 *   name (`dbo:birthPlace` → `birth_place`, `dbo:City` → `city`); an opaque id (Wikidata `P19`) takes its label
 *   from the caller's table, and without one the pair is dropped; `(JOIN instance_of [ X ])` (Wikidata P31) becomes
 *   the class X, as other graphs say it.
 * - An entity becomes a bracketed label that is a span of the question (`questionSpan`: the label's words, case,
 *   accents and punctuation folded by `normalizeLabel`, found as a run of the question's words; the span is written
 *   as the question writes it), so a decoder that copies spans can write it. An entity none of whose labels is such
 *   a span drops the pair.
 * - Literals stay as they are.
 * Each source format has its reader below (`fromFreebaseSexpr`, `fromSparql`, …); the naming is the same for all.
 */
import { distance } from 'fastest-levenshtein';
import { AskgraphError, Form, Ref, fnv1a, identifierWords, iriLocalName, normalizeLabel, typoEdits } from '../../core';
import { sparqlToForm } from '../../compile';
import { mapChildren, mapRefs, parseForm, printForm } from '../../form';

export type BaseGraph = 'freebase' | 'dbpedia' | 'wikidata' | 'metaqa' | 'pathquestion' | 'wc2014';

/** One training pair of askgraph-base. `original` is the source's form or query (ids / IRIs), kept for tracing. */
export interface BasePair {
  id: string;
  source: string;
  graph: BaseGraph;
  question: string;
  form: string;
  original: string;
}

/** A converted form, or why the pair was dropped (a short, countable reason). */
export type Conversion = { ok: true; form: string } | { ok: false; reason: string };

/** How one graph names its terms: word names for relations and classes, candidate labels for entities (best first). */
export interface Naming {
  relation: (ref: Ref) => string | null;
  cls: (ref: Ref) => string | null;
  entityLabels: (ref: Ref) => string[];
  /** The relation by which the graph says "is a" where others use classes (Wikidata P31): `(JOIN it X)` becomes class X. */
  instanceOf?: (ref: Ref) => boolean;
}

/** `(JOIN instanceOf [ X ])` as the class X, everywhere in the form (see Naming.instanceOf). */
export function instanceOfAsClass(form: Form, instanceOf: (ref: Ref) => boolean): Form {
  if (form.kind === 'join' && form.relation.kind === 'rel' && instanceOf(form.relation.ref) && form.arg.kind === 'entity') return { kind: 'class', ref: form.arg.ref };
  return mapChildren(form, (c) => instanceOfAsClass(c, instanceOf));
}

/** The word name of an identifier's words: `birthPlace` → `birth_place`; null when it has no letter word to start with. */
export function wordName(identifier: string): string | null {
  const ws = identifierWords(identifier)
    .map((w) => normalizeLabel(w).replace(/[^a-z0-9]/g, ''))
    .filter((w) => w !== '');
  const name = ws.join('_');
  return /^[a-z][a-z0-9_]*$/.test(name) ? name : null;
}

/** The last segment of a dotted (`a.b.c`) or `__`-separated (`__a__b__c`) id. */
export function lastSegment(id: string): string {
  const parts = id.split(/\.|__/).filter((p) => p !== '');
  return parts[parts.length - 1] ?? id;
}

/** The word name of a dotted id: `people.person.place_of_birth` → `place_of_birth`. */
export function dottedWordName(id: string): string | null {
  return wordName(lastSegment(id));
}


/**
 * Labels of a resource whose local name spells its label (`Wilton,_Connecticut`, `John_Forbes_(British_Army_officer)`):
 * the name with `_` as spaces, then without a trailing "(…)" qualifier, then its part before the first comma.
 */
export function resourceLabels(iri: string): string[] {
  const full = iriLocalName(iri).replace(/_/g, ' ').trim();
  const out = [full];
  const bare = full.replace(/\s*\([^)]*\)\s*$/, '').trim();
  out.push(bare);
  const comma = bare.indexOf(',');
  if (comma > 0) out.push(bare.slice(0, comma).trim());
  return [...new Set(out.filter((l) => l !== ''))];
}

const QUESTION_WORD = /[\p{L}\p{N}\p{M}'\u2018\u2019\u02bc`\u00b4]+/gu;

/**
 * The span of `question` that says `label`: the label's words (normalizeLabel) as a run of the question's words,
 * returned as the question writes it ("sasha vujačić" for the label "Saša Vujačić"), with the label's leading and
 * trailing punctuation where the question has it next to the words ("chromosome 20 (human)", "jr."), or null.
 * Where no run of words is the label, a loose run is taken unless `allowLoose` is false (see `loose`: plural /
 * possessive ending, typos); a possessive "'s" the label does not have is left out of the span.
 */
export function questionSpan(question: string, label: string, allowLoose = true): string | null {
  const want = normalizeLabel(label).split(' ').filter((w) => w !== '');
  if (want.length === 0) return null;
  const words: { word: string; start: number; end: number }[] = [];
  for (const m of question.matchAll(QUESTION_WORD)) {
    const start = m.index;
    const end = start + m[0].length;
    for (const w of normalizeLabel(m[0]).split(' ')) if (w !== '') words.push({ word: w, start, end });
  }
  const exact = (i: number): boolean => want.every((w, k) => words.at(i + k)?.word === w);
  // the loose reading, where no run of words is the label: the last word with a plural / possessive ending
  // ("screenwriters", "tillingdale's"), and in a label of two words or more, with one word exact, a word of five
  // letters or more within core's typo tolerance ("ricky grevais" for Ricky Gervais)
  const loose = (i: number): boolean => {
    let same = 0;
    const ok = want.every((w, k) => {
      const q = words.at(i + k)?.word;
      if (q === undefined) return false;
      if (q === w) {
        same++;
        return true;
      }
      if (k === want.length - 1 && (q === `${w}s` || q === `${w}es`)) return true;
      return want.length >= 2 && w.length >= 5 && distance(q, w) <= typoEdits(Math.max(q.length, w.length));
    });
    return ok && (same > 0 || want.length === 1);
  };
  const at = (match: (i: number) => boolean): number => {
    for (let i = 0; i + want.length <= words.length; i++) if (match(i)) return i;
    return -1;
  };
  const found = at(exact);
  const i = found >= 0 || !allowLoose ? found : at(loose);
  const first = words.at(i);
  const last = words.at(i + want.length - 1);
  if (i < 0 || !first || !last) return null;
  // the label's own leading / trailing punctuation ("(human)", "Jr.", quotes) where the question has it there
  const label0 = label.trim();
  const lead = /^[^\p{L}\p{N}\p{M}\s]+/u.exec(label0)?.[0] ?? '';
  const trail = /[^\p{L}\p{N}\p{M}\s]+$/u.exec(label0)?.[0] ?? '';
  const start = lead !== '' && question.slice(first.start - lead.length, first.start) === lead ? first.start - lead.length : first.start;
  // a possessive ending the label does not have stays out of the span ("lautner's films" → "lautner")
  const possessive = /['\u2018\u2019\u02bc`\u00b4]s$/iu.test(question.slice(last.start, last.end)) && !want.at(-1)?.endsWith('s') ? 2 : 0;
  const end = trail !== '' && question.slice(last.end, last.end + trail.length) === trail ? last.end + trail.length : last.end - possessive;
  return question.slice(start, end);
}

class Drop extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** The form with word names and question spans (see the module comment), or the reason it cannot have them. */
export function nameForm(form: Form, question: string, naming: Naming): Conversion {
  try {
    const named = mapRefs(naming.instanceOf ? instanceOfAsClass(form, naming.instanceOf) : form, {
      relation: (ref) => {
        const name = naming.relation(ref);
        if (name === null) throw new Drop('relation without a word name');
        return { kind: 'name', name };
      },
      cls: (ref) => {
        const name = naming.cls(ref);
        if (name === null) throw new Drop('class without a word name');
        return { kind: 'name', name };
      },
      entity: (ref) => {
        const labels = ref.kind === 'label' ? [ref.label] : naming.entityLabels(ref);
        if (labels.length === 0) throw new Drop('entity without a label');
        // every label as written before any loosely
        for (const loose of [false, true])
          for (const l of labels) {
            const span = questionSpan(question, l, loose);
            if (span !== null) return { kind: 'label', label: span };
          }
        throw new Drop('entity label not in the question');
      },
    });
    const text = printForm(named);
    parseForm(text); // every written form reads back
    return { ok: true, form: text };
  } catch (e) {
    if (e instanceof Drop) return { ok: false, reason: e.reason };
    if (e instanceof AskgraphError) return { ok: false, reason: e.code };
    throw e;
  }
}

/** The form of a source S-expression named by `naming`; a form the grammar does not read is dropped as 'form syntax'. */
export function fromSexpr(sexpr: string | null | undefined, question: string, naming: Naming): Conversion {
  if (typeof sexpr !== 'string' || sexpr.trim() === '') return { ok: false, reason: 'no form in the source' };
  let form: Form;
  try {
    form = parseForm(sexpr);
  } catch {
    return { ok: false, reason: 'form syntax' };
  }
  return nameForm(form, question, naming);
}

/** The form of a SPARQL query (src/compile sparqlToForm, IRIs kept) named by `naming`; unconverted queries give sparqlToForm's reason. */
export function fromSparql(sparql: string, question: string, naming: Naming): Conversion {
  let form: Form;
  try {
    form = sparqlToForm(sparql);
  } catch (e) {
    const err = e as { code?: string; details?: { reason?: unknown } };
    const reason = err.code === 'CONVERSION_UNSUPPORTED' && typeof err.details?.reason === 'string' ? err.details.reason : (err.code ?? 'error');
    return { ok: false, reason: `SPARQL: ${reason}` };
  }
  return nameForm(form, question, naming);
}

const FREEBASE_NS = 'http://rdf.freebase.com/ns/';

/** Freebase ids (bare `a.b.c` or under the Freebase namespace): word names from the last segment; entity labels from `labels` (mid → names). */
export function freebaseNaming(labels: (mid: string) => string[]): Naming {
  const id = (ref: Ref): string | null => (ref.kind === 'name' ? ref.name : ref.kind === 'iri' ? (ref.iri.startsWith(FREEBASE_NS) ? ref.iri.slice(FREEBASE_NS.length) : ref.iri) : null);
  const named = (ref: Ref): string | null => {
    const i = id(ref);
    return i === null ? (ref.kind === 'label' ? wordName(ref.label) : null) : dottedWordName(i);
  };
  return {
    relation: named,
    cls: named,
    entityLabels: (ref) => {
      const i = id(ref);
      return i === null ? [] : labels(i);
    },
  };
}

/** IRIs whose local names are words (DBpedia): relations and classes by local name, entities by `resourceLabels`. */
export function localNameNaming(): Naming {
  const named = (ref: Ref): string | null => (ref.kind === 'iri' ? wordName(iriLocalName(ref.iri)) : ref.kind === 'name' ? wordName(ref.name) : wordName(ref.label));
  return {
    relation: named,
    cls: named,
    entityLabels: (ref) => (ref.kind === 'iri' ? resourceLabels(ref.iri) : ref.kind === 'name' ? [ref.name.replace(/_/g, ' ')] : []),
  };
}

/**
 * IRIs whose local names are opaque ids (Wikidata `P19`, `Q76`): names and labels from `label(id)`; an id without a
 * label has no name (the pair is dropped).
 */
export function labelTableNaming(label: (id: string) => string | undefined, instanceOf?: (ref: Ref) => boolean): Naming {
  const text = (ref: Ref): string | undefined => (ref.kind === 'iri' ? label(iriLocalName(ref.iri)) : ref.kind === 'name' ? label(ref.name) : ref.label);
  const named = (ref: Ref): string | null => {
    const t = text(ref);
    return t === undefined ? null : wordName(t);
  };
  return {
    relation: named,
    cls: named,
    entityLabels: (ref) => {
      const t = text(ref);
      return t === undefined ? [] : [t];
    },
    ...(instanceOf ? { instanceOf } : {}),
  };
}

/** Names that are already words (MetaQA `directed_by`, WC2014 `plays_in_club`); entity labels are the data's own. */
export function wordNaming(): Naming {
  const named = (ref: Ref): string | null => (ref.kind === 'name' ? dottedWordName(ref.name) : ref.kind === 'iri' ? wordName(iriLocalName(ref.iri)) : wordName(ref.label));
  return { relation: named, cls: named, entityLabels: (ref) => (ref.kind === 'name' ? [ref.name] : []) };
}

/** LC-QuAD 1.0 writes `SELECT DISTINCT COUNT(?uri) WHERE`, which is not SPARQL: the standard aggregate it means. */
export function standardCount(sparql: string): string {
  return sparql.replace(/SELECT\s+DISTINCT\s+COUNT\s*\(\s*(\?\w+)\s*\)/i, 'SELECT (COUNT(DISTINCT $1) AS ?count)').replace(/SELECT\s+COUNT\s*\(\s*(\?\w+)\s*\)/i, 'SELECT (COUNT($1) AS ?count)');
}


/**
 * The split of a pair: one in `every` forms goes to validation, by the hash of its source and named form, so the
 * paraphrases of one form (GrailQA asks each form several times) are never split between train and valid.
 */
export function splitOf(source: string, form: string, every = 20): 'train' | 'valid' {
  return fnv1a(`${source}\t${form}`) % every === 0 ? 'valid' : 'train';
}
