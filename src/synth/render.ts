/**
 * Questions for sampled forms, written the way people type them: wh-questions, "list / show me / give
 * me", bare noun phrases ("thai bakeries in harlow bend"), possessives ("heat's director"), yes/no,
 * superlatives, "how many", "most common", two-entity comparisons — from the lexicon's templates and
 * variants — plus user noise: lower case, typos and partial names in entity mentions (surname only,
 * first name only, a dropped leading article), dropped function words, "?" or none.
 *
 * Every entity of the form is written in the output form as `[ mention ]`, the exact substring of the
 * question that names it (the parser copies spans; grounding maps "spielberg" to Steven Spielberg).
 */
import type { Lexicon, NounEntry, PropertyLexicon } from './lexicon';
import type { Mentions, SForm, SRel } from './forms';
import { entitiesOf } from './forms';
import type { Rng } from '../core';
import { article, defined, itemAt, plural, wordNet } from '../core';

export interface Rendered {
  question: string;
  mentions: Mentions;
  template: string;
  noise: string[];
}

/** Placeholder for entity i in a question under construction (never typed by users, never in templates). */
const ph = (i: number) => `\u27e6${i}\u27e7`;
const PH_RE = /\u27e6(\d+)\u27e7/g;

interface Noun {
  sg: string;
  pl: string;
  place?: boolean;
}

interface Mod {
  kind: 'pre' | 'post' | 'poss';
  text: string;
}

interface NP {
  noun?: Noun;
  mods: Mod[];
  /** A wh-word for the members. */
  wh: string;
}

/** `preFirst`: the next entity modifier is said before the noun if the relation allows ("Scorsese films with X"). */
interface Ctx {
  lex: Lexicon;
  rng: Rng;
  ents: Map<string, number>;
  tags: string[];
  preFirst?: boolean;
  preTaken?: boolean;
}

function nounOf(rng: Rng, e: NounEntry | undefined): Noun | undefined {
  if (!e?.singular.length) return undefined;
  const i = rng.int(e.singular.length);
  const sg = itemAt(e.singular, i, 'singular nouns');
  return { sg, pl: e.plural[i] ?? sg, ...(e.place ? { place: true } : {}) };
}

function lexOf(ctx: Ctx, r: SRel): PropertyLexicon {
  const p = ctx.lex.properties[r.prop];
  if (!p) throw new Error(`no lexicon entry for ${r.prop}`);
  return p;
}

function fill(t: string, slots: Record<string, string | undefined>): string | undefined {
  let missing = 0;
  const out = t.replace(/\{(\w+)\}/g, (_m, k: string) => {
    const v = slots[k];
    if (v === undefined) missing++;
    return v ?? '';
  });
  return missing === 0 ? out.replace(/\s+/g, ' ').trim() : undefined;
}

/** Picks one template that fills (all slots known), trying them in random order. */
function pickFill(ctx: Ctx, templates: string[], slots: Record<string, string | undefined>, filter?: (t: string) => boolean): { text: string; t: string } | undefined {
  for (const t of ctx.rng.shuffle([...templates])) {
    if (filter && !filter(t)) continue;
    const text = fill(t, slots);
    if (text !== undefined) return { text, t };
  }
  return undefined;
}

function entText(ctx: Ctx, f: SForm): string | undefined {
  return f.op === 'ent' ? ph(defined(ctx.ents.get(f.iri), 'entity number')) : undefined;
}

/** The subject / object noun of one end of a relation. */
function endNoun(ctx: Ctx, r: SRel, answerSide: boolean): Noun | undefined {
  const p = lexOf(ctx, r);
  // answer of (JOIN r x): subjects when not inverted, objects when inverted
  const objects = r.inv === answerSide;
  return nounOf(ctx.rng, objects ? p.object : p.subject) ?? nounOf(ctx.rng, ctx.lex.thing);
}

function endWh(ctx: Ctx, r: SRel): string {
  const p = lexOf(ctx, r);
  return r.inv ? p.wh : p.swh;
}

/** A modifier for "members m with (m r x)": from the property's noun-phrase templates. */
function joinMod(ctx: Ctx, r: SRel, x: string, nested: boolean, onlyPost = false, plain = false): Mod | undefined {
  const p = lexOf(ctx, r);
  const templates = r.inv ? p.objects : p.subjects;
  const slot = r.inv ? '{O}' : '{S}';
  const o = nounOf(ctx.rng, p.object);
  const sN = nounOf(ctx.rng, p.subject) ?? nounOf(ctx.rng, ctx.lex.thing);
  let order = ctx.rng.shuffle([...templates]);
  const preTaken = ctx.preTaken;
  if (ctx.preFirst && !nested && !onlyPost) {
    ctx.preFirst = false;
    ctx.preTaken = true;
    const before = (t: string) => t === `{x} ${slot}` || t === `{x}'s ${slot}`;
    order = [...order.filter(before), ...order.filter((t) => !before(t))];
  }
  for (const t of order) {
    let kind: Mod['kind'];
    let rest: string;
    if (t.startsWith(slot + ' ')) {
      kind = 'post';
      rest = t.slice(slot.length + 1);
    } else if (t === `{x}'s ${slot}`) {
      kind = 'poss';
      rest = "{x}'s";
    } else if (t === `{x} ${slot}`) {
      kind = 'pre';
      rest = '{x}';
    } else continue;
    if (nested && (kind !== 'post' || !rest.endsWith('{x}'))) continue;
    if ((onlyPost || preTaken) && kind !== 'post') continue;
    // plain: a modifier that can be negated or used as a predicate ("not directed by X"), not "that X directed" / "X was in"
    if (plain && (rest.startsWith('that ') || rest.startsWith('{x}'))) continue;
    const text = fill(rest, { x, wh: p.wh, swh: p.swh, o: o?.sg, O: o?.pl, s: sN?.sg, S: sN?.pl });
    if (text !== undefined) return { kind, text };
  }
  return undefined;
}

/** The participle of "{S} released in {x}" ("released"), for "was X released before …". */
function participleOf(p: PropertyLexicon): string | undefined {
  return p.subjects.map((t) => /^\{S\} (\w+) in \{x\}$/.exec(t)?.[1]).find((x) => !!x);
}

/** How a value relation is talked about in comparisons: dated or not, its participle, a noun for its value. */
function valueWords(ctx: Ctx, r: SRel): { p: PropertyLexicon; dated: boolean; participle: string | undefined; n: string } {
  const p = lexOf(ctx, r);
  return { p, dated: p.valueKind === 'year' || p.valueKind === 'date', participle: participleOf(p), n: valueNoun(ctx, r) };
}

function valueNoun(ctx: Ctx, r: SRel): string {
  const p = lexOf(ctx, r);
  return ctx.rng.pick(p.object.singular.length ? p.object.singular : [p.label]);
}

/** A number as people write it: 25000, 25,000 or 25k (years are never formatted). */
function fmtNum(rng: Rng, v: string): string {
  const n = Number(v);
  if (!Number.isInteger(n) || Math.abs(n) < 10000) return v;
  const r = rng.next();
  if (r < 0.25) return n.toLocaleString('en-US');
  if (r < 0.35 && n % 1000 === 0) return n % 1000000 === 0 ? `${n / 1000000} million` : `${n / 1000}k`;
  return v;
}

/** A post-modifier for a comparison: "after 1990", "with rating above 4", "released before 2000". */
function cmpMod(ctx: Ctx, f: Extract<SForm, { op: 'cmp' }>): Mod {
  const p = lexOf(ctx, f.rel);
  const dated = p.valueKind === 'year' || p.valueKind === 'date';
  const up = f.cmp === 'GT' || f.cmp === 'GE';
  const rng = ctx.rng;
  const v = dated ? f.value.value : fmtNum(rng, f.value.value);
  if (dated) {
    // "from 1994" alone is the year itself ("movies from 1994"): a lower bound says "since", "from 1994 on"
    const words = up ? (f.cmp === 'GE' ? ['since', 'since', 'in or after', 'starting from', 'from {v} on', 'from {v} onwards'] : ['after', 'later than']) : f.cmp === 'LT' ? ['before', 'earlier than', 'prior to'] : ['until', 'up to', 'in or before'];
    const participle = participleOf(p);
    const w = rng.pick(words);
    const text = w.includes('{v}') ? w.replace('{v}', v) : `${w} ${v}`;
    if (participle && rng.chance(0.5)) return { kind: 'post', text: `${participle} ${text}` };
    return { kind: 'post', text };
  }
  if (Number(f.value.value) === p.scale?.threshold && (f.cmp === 'GT' || f.cmp === 'LT') && rng.chance(0.7)) {
    return { kind: 'pre', text: rng.pick(f.cmp === 'GT' ? p.scale.good : p.scale.bad) }; // "good thai bakeries"
  }
  const n = valueNoun(ctx, f.rel);
  const words = up ? (f.cmp === 'GE' ? ['at least', 'of at least', 'above', 'over'] : ['above', 'over', 'more than', 'greater than', 'higher than']) : f.cmp === 'LE' ? ['at most', 'up to', 'below'] : ['below', 'under', 'less than', 'lower than'];
  const w = rng.pick(words);
  return rng.pick([
    { kind: 'post' as const, text: `with ${n} ${w} ${v}` },
    { kind: 'post' as const, text: `with a ${n} ${w} ${v}` },
    { kind: 'post' as const, text: `whose ${n} is ${w} ${v}` },
    { kind: 'post' as const, text: `${n} ${w} ${v}` },
  ]);
}

function rangeMod(ctx: Ctx, lo: Extract<SForm, { op: 'cmp' }>, hi: Extract<SForm, { op: 'cmp' }>): Mod {
  const p = lexOf(ctx, lo.rel);
  const a = Number(lo.value.value);
  const b = Number(hi.value.value);
  const rng = ctx.rng;
  if ((p.valueKind === 'year' || p.valueKind === 'date') && b - a === 10 && a % 10 === 0) {
    const short = `${String(a).slice(-2)}s`;
    const participle = participleOf(p);
    const opts = [`from the ${short}`, `in the ${short}`, `from the ${a}s`, `in the ${a}s`, `between ${a} and ${b - 1}`, `of the ${short}`];
    const base = rng.pick(opts);
    if (rng.chance(0.2)) return { kind: 'pre', text: rng.pick([short, `${a}s`]) };
    return { kind: 'post', text: participle && rng.chance(0.4) ? `${participle} ${base}` : base };
  }
  const n = valueNoun(ctx, lo.rel);
  return rng.pick([
    { kind: 'post' as const, text: `with ${n} between ${a} and ${b}` },
    { kind: 'post' as const, text: `with a ${n} from ${a} to ${b}` },
    { kind: 'post' as const, text: `whose ${n} is between ${a} and ${b}` },
  ]);
}

function isRange(f: SForm): f is { op: 'and'; a: Extract<SForm, { op: 'cmp' }>; b: Extract<SForm, { op: 'cmp' }> } {
  return f.op === 'and' && f.a.op === 'cmp' && f.b.op === 'cmp';
}

/** A set-valued form as a noun phrase (noun + modifiers), or undefined when it cannot be said that way. */
function npOf(ctx: Ctx, f: SForm): NP | undefined {
  switch (f.op) {
    case 'cls': {
      const c = ctx.lex.classes[f.name];
      return { noun: nounOf(ctx.rng, c), mods: [], wh: c?.wh ?? 'what' };
    }
    case 'join':
      return joinNP(ctx, f, false);
    case 'and': {
      const parts: SForm[] = [];
      const flat = (g: SForm): void => {
        if (g.op === 'and' && !isRange(g)) {
          flat(g.a);
          flat(g.b);
        } else parts.push(g);
      };
      flat(f);
      const cls = parts.find((g) => g.op === 'cls');
      const np: NP = { mods: [], wh: 'what' };
      if (cls?.op === 'cls') {
        const c = ctx.lex.classes[cls.name];
        np.noun = nounOf(ctx.rng, c);
        np.wh = c?.wh ?? 'what';
      }
      // "actors of both Heat and Ronin", "movies starring Tom Hanks and Meg Ryan": one relation, two entities
      const joins = parts.filter((g): g is Extract<SForm, { op: 'join' }> => g.op === 'join' && g.arg.op === 'ent');
      const [j0, j1] = joins;
      if (j0 && j1 && joins.length === 2 && parts.length === joins.length + (cls ? 1 : 0) && j0.rel.prop === j1.rel.prop && j0.rel.inv === j1.rel.inv && (j0.rel.inv || ctx.rng.chance(0.8))) {
        const [x0, x1] = joins.map((j) => defined(entText(ctx, j.arg), 'entity text'));
        const x = ctx.rng.pick([`${x0} and ${x1}`, `both ${x0} and ${x1}`, `${x0} and also ${x1}`]);
        const mod = joinMod(ctx, j0.rel, x, false, true);
        if (!mod) return undefined;
        if (!np.noun) {
          np.noun = endNoun(ctx, j0.rel, true);
          np.wh = endWh(ctx, j0.rel);
        }
        np.mods.push(mod);
        return np;
      }
      // a person or kind before the noun now and then, the other constraints after it: "Scorsese films with X"
      ctx.preFirst = ctx.rng.chance(0.3);
      for (const g of parts) {
        if (g === cls) continue;
        if (g.op === 'cmp') np.mods.push(cmpMod(ctx, g));
        else if (g.op === 'attrcmp') np.mods.push(attrMod(ctx, g));
        else if (g.op === 'contains') np.mods.push(containsMod(ctx, g));
        else if (isRange(g)) np.mods.push(rangeMod(ctx, g.a, g.b));
        else {
          const sub = g.op === 'join' && g.rel.inv && g.arg.op === 'ent' ? joinNP(ctx, g, true) : npOf(ctx, g);
          if (!sub) return undefined;
          if (!np.noun && sub.noun) {
            np.noun = sub.noun;
            np.wh = sub.wh;
          }
          np.mods.push(...sub.mods);
        }
      }
      ctx.preFirst = ctx.preTaken = false;
      const pres = np.mods.filter((m) => m.kind === 'pre' && m.text.includes('\u27e6'));
      if (pres.length === 2 && np.noun && !np.mods.some((m) => m.kind === 'poss')) {
        // a person and a kind before the noun read when the kind is next to it: "Tom Hanks comedy movies" (→ "… comedies")
        const noun = np.noun;
        const kind = parts.find((g) => g.op === 'join' && g.arg.op === 'ent' && /^\p{L}{4,}$/u.test(g.arg.label) && sameKind(g.arg.label, noun.pl));
        const at = kind?.op === 'join' ? ph(ctx.ents.get((kind.arg as { iri: string }).iri) ?? -1) : undefined;
        const mod = pres.find((m) => m.text === at);
        if (mod) {
          np.mods = [...np.mods.filter((m) => m !== mod), mod];
          return np;
        }
      }
      if (np.mods.filter((m) => m.kind === 'pre' && m.text.includes('\u27e6')).length > 1 || np.mods.filter((m) => m.kind === 'poss').length > 1) {
        // "x's y's movies" does not read: make all but one post-modifiers where possible
        return ctx.tags.includes('retry') ? undefined : (ctx.tags.push('retry'), npOf(ctx, f));
      }
      return np;
    }
    default:
      return undefined;
  }
}

function joinNP(ctx: Ctx, f: Extract<SForm, { op: 'join' }>, onlyPost: boolean, plain = false): NP | undefined {
  const inner = f.arg;
  if (inner.op === 'join' && inner.arg.op === 'ent' && !f.rel.inv && !inner.rel.inv && ctx.rng.chance(0.6)) {
    // containment chains say the outer place only: shops in (towns in) the province Norvale → "shops in norvale"
    const po = lexOf(ctx, f.rel);
    const pi = lexOf(ctx, inner.rel);
    const x = defined(entText(ctx, inner.arg), 'entity text');
    const place = ctx.rng.chance(0.4) ? `the ${x}` : x;
    if (po.shape === 'prep' && pi.shape === 'prep' && po.prep === pi.prep) {
      const mod = joinMod(ctx, f.rel, place, false, onlyPost, plain);
      if (mod) return { noun: endNoun(ctx, f.rel, true), mods: [mod], wh: endWh(ctx, f.rel) };
    }
    if (po.shape === 'noun' && pi.shape === 'prep' && pi.prep) {
      // "shops whose address town is in norvale"
      const o = nounOf(ctx.rng, po.object)?.sg ?? po.label;
      const text = ctx.rng.pick([`whose ${o} is ${pi.prep} ${place}`, `with ${o} ${pi.prep} ${place}`, `with a ${o} ${pi.prep} ${place}`]);
      return { noun: endNoun(ctx, f.rel, true), mods: [{ kind: 'post', text }], wh: endWh(ctx, f.rel) };
    }
  }
  if (inner.op === 'join' && inner.arg.op === 'ent' && inner.rel.prop === f.rel.prop && inner.rel.inv && !f.rel.inv) {
    // (JOIN p (JOIN (R p) X)): "movies with the same director as X", "restaurants with the same food type as X"
    const p = lexOf(ctx, f.rel);
    const n = nounOf(ctx.rng, p.object) ?? nounOf(ctx.rng, ctx.lex.thing);
    if (!n) return undefined;
    const x = defined(entText(ctx, inner.arg), 'entity text');
    const text = ctx.rng.pick([`with the same ${n.sg} as ${x}`, `sharing a ${n.sg} with ${x}`, `that share ${n.pl} with ${x}`, `with ${x}'s ${n.sg}`]);
    return { noun: endNoun(ctx, f.rel, true), mods: [{ kind: 'post', text }], wh: endWh(ctx, f.rel) };
  }
  const x = entText(ctx, f.arg) ?? innerText(ctx, f.arg);
  if (x === undefined) return undefined;
  const mod = joinMod(ctx, f.rel, x, f.arg.op !== 'ent', onlyPost, plain);
  if (!mod) return undefined;
  return { noun: endNoun(ctx, f.rel, true), mods: [mod], wh: endWh(ctx, f.rel) };
}

/** A nested set as text for {x}: "movies directed by ⟦0⟧". */
function innerText(ctx: Ctx, f: SForm): string | undefined {
  const np = npOf(ctx, f);
  if (!np) return undefined;
  if (np.mods.some((m) => m.kind === 'pre' && m.text.includes('\u27e6'))) return undefined;
  // "the city of X" for a functional hop from one entity, "movies directed by X" otherwise
  const one = f.op === 'join' && f.arg.op === 'ent' && f.rel.inv && lexOf(ctx, f.rel).functional;
  return npText(ctx, np, !one, one === true || ctx.rng.chance(0.3));
}

function npText(ctx: Ctx, np: NP, pluralForm: boolean, article = false, adjective?: string): string | undefined {
  const noun = np.noun ?? nounOf(ctx.rng, ctx.lex.thing);
  if (!noun) return undefined;
  const poss = np.mods.filter((m) => m.kind === 'poss').map((m) => m.text);
  // "good sushi bars": adjectives before the entity modifiers
  const pre = np.mods.filter((m) => m.kind === 'pre').sort((a, b) => Number(a.text.includes('\u27e6')) - Number(b.text.includes('\u27e6'))).map((m) => m.text);
  const post = np.mods.filter((m) => m.kind === 'post').map((m) => m.text);
  const head = [...poss, ...(adjective ? [adjective] : []), ...pre, pluralForm ? noun.pl : noun.sg].join(' ');
  // comparisons follow without "and": "movies starring X released after 2000"
  const cmpLike = (t: string) => /^(\w+ )?(after|before|since|until|from|in the|between|of the|earlier|later|prior|up to|with (a )?\S+ (above|over|below|under|at|more|less|greater|higher|lower|between|from))/.test(t);
  let tail = post[0] ?? '';
  for (const m of post.slice(1)) tail += (cmpLike(m) ? ctx.rng.pick([' ', ', ']) : ctx.rng.pick([' and ', ' ', ', '])) + m;
  const text = (head + (tail ? ' ' + tail : '')).trim();
  return article && !poss.length ? 'the ' + text : text;
}

const LIST = ['{np}', '{np}', 'list {np}', 'show me {np}', 'give me {np}', 'what are the {np}', 'which are the {np}', 'find {np}', 'name the {np}', 'all {np}', 'list all {np}', 'what {np} are there', 'show {np}', 'i want {np}', 'any {np}'];
const LIST_WHO = ['who are the {np}', 'who are {np}'];
const LIST_SG = ['a {sg}', 'give me a {sg}', 'find a {sg}', 'what is a {sg}', 'i need a {sg}', 'suggest a {sg}', 'any {sg}', 'give me some {np}', 'some {np}', 'can you list {np}', 'tell me {np}', "i'm looking for a {sg}", 'what {np} do you know'];
const LIST_WHERE = ['where is a {sg}', 'where can i find a {sg}', 'where are {np}', 'where can i find {np}', 'where is there a {sg}', 'where are the {np}'];
const COUNT = ['how many {np}', 'how many {np} are there', 'number of {np}', 'count the {np}', 'what is the number of {np}', 'count {np}', 'total number of {np}', 'how many {np} exist'];

/** A question whose answer is the set f: direct templates for one hop, else a frame around its noun phrase. */
function setQuestion(ctx: Ctx, f: SForm): { text: string; t: string } | undefined {
  if (twoRoles(f) && ctx.rng.chance(0.85)) {
    const q = twoRolesQuestion(ctx, f);
    if (q) return q;
  }
  if (bothChains(f) && ctx.rng.chance(0.8)) {
    const q = bothChainsQuestion(ctx, f);
    if (q) return q;
  }
  if (ctx.rng.chance(0.35)) {
    const q = workedWithQuestion(ctx, f);
    if (q) return q;
  }
  // subjects nobody named (an untyped graph, the default "thing"): mostly "what did X direct", not "things X directed"
  const unnamed = f.op === 'join' && !f.rel.inv && !lexOf(ctx, f.rel).subject.singular.length && ctx.lex.thing.singular[0] === 'thing';
  if (f.op === 'join' && f.arg.op === 'ent' && ctx.rng.chance(unnamed ? 0.85 : 0.6)) {
    const p = lexOf(ctx, f.rel);
    const S = nounOf(ctx.rng, p.subject) ?? nounOf(ctx.rng, ctx.lex.thing);
    const O = nounOf(ctx.rng, p.object);
    const slots = { x: entText(ctx, f.arg), S: S?.pl, s: S?.sg, O: O?.pl, o: O?.sg, wh: p.wh, swh: p.swh };
    const q = pickFill(ctx, f.rel.inv ? p.objectQ : p.subjectQ, slots, unnamed ? (t) => !/\{[Ss]\}/.test(t) : undefined) ?? pickFill(ctx, f.rel.inv ? p.objectQ : p.subjectQ, slots);
    if (q) return { text: q.text, t: `${f.rel.inv ? 'objectQ' : 'subjectQ'}:${q.t}` };
  }
  if (f.op === 'join' && f.arg.op !== 'ent' && ctx.rng.chance(0.45)) {
    // a wh-question around a nested set: "who directed the movies Boris Karloff starred in"
    const p = lexOf(ctx, f.rel);
    const inner = innerText(ctx, f.arg);
    const S = nounOf(ctx.rng, p.subject) ?? nounOf(ctx.rng, ctx.lex.thing);
    const O = nounOf(ctx.rng, p.object);
    const x = inner && (inner.startsWith('the ') || /\u27e6\d+\u27e7's/.test(inner) ? inner : ctx.rng.chance(0.6) ? `the ${inner}` : inner);
    const q = x && pickFill(ctx, f.rel.inv ? p.objectQ : p.subjectQ, { x, S: S?.pl, s: S?.sg, O: O?.pl, o: O?.sg, wh: p.wh, swh: p.swh }, (t) => t.endsWith('{x}') && !t.includes("{x}'s") && !/^(?!where).* (is|was) \{x\}$/.test(t) && /^(who|what|which|when|where)\b/.test(t));
    if (q) return { text: q.text, t: `nested:${q.t}` };
  }
  const np = npOf(ctx, f);
  if (!np) return undefined;
  if (f.op === 'join' && f.arg.op === 'ent' && f.rel.inv && lexOf(ctx, f.rel).functional) {
    // one value: "X's rating", "what is the city of X"
    const sg = npText(ctx, np, false);
    if (!sg) return undefined;
    const frame = ctx.rng.pick(['{np}', 'what is the {np}', "what's the {np}", 'the {np}', 'tell me the {np}', ...(np.wh === 'who' ? ['who is the {np}'] : [])]);
    return { text: frame.replace('{np}', sg), t: `value:${frame}` };
  }
  const text = npText(ctx, np, true);
  const sg = npText(ctx, np, false);
  if (!text || !sg) return undefined;
  const r = ctx.rng.next();
  // "a good thai bakery in X": things to pick among, not the values of something ("a city of …")
  const pickable = !(f.op === 'join' && f.rel.inv);
  const frames = r < 0.2 && pickable ? LIST_SG : r < 0.3 && pickable && np.noun?.place ? LIST_WHERE : np.wh === 'who' ? [...LIST, ...LIST_WHO] : LIST;
  const frame = ctx.rng.pick(frames);
  return { text: frame.replace('{np}', text).replace('{sg}', sg), t: `list:${frame}` };
}

function countQuestion(ctx: Ctx, f: SForm): { text: string; t: string } | undefined {
  if (f.op === 'join' && f.arg.op === 'ent' && ctx.rng.chance(0.5)) {
    // "which {S} did {x} direct" → "how many {S} did {x} direct"
    const p = lexOf(ctx, f.rel);
    const S = nounOf(ctx.rng, f.rel.inv ? p.object : p.subject) ?? nounOf(ctx.rng, ctx.lex.thing);
    const templates = (f.rel.inv ? p.objectQ : p.subjectQ).filter((t) => /^(which|what) \{[SO]\} /.test(t)).map((t) => t.replace(/^(which|what) \{[SO]\}/, 'how many {N}'));
    const q = pickFill(ctx, templates, { x: entText(ctx, f.arg), N: S?.pl, s: nounOf(ctx.rng, p.subject)?.sg, o: nounOf(ctx.rng, p.object)?.sg, wh: p.wh, swh: p.swh });
    if (q) return { text: q.text, t: `count:${q.t}` };
  }
  const np = npOf(ctx, f);
  const text = np && npText(ctx, np, true);
  if (!text) return undefined;
  const frame = ctx.rng.pick(COUNT);
  return { text: frame.replace('{np}', text), t: `count:${frame}` };
}

function superlatives(ctx: Ctx, r: SRel, max: boolean): string[] {
  const p = lexOf(ctx, r);
  return (max ? p.most : p.least) ?? [];
}

function argQuestion(ctx: Ctx, f: Extract<SForm, { op: 'arg' }>): { text: string; t: string } | undefined {
  const rng = ctx.rng;
  if (f.arg.op === 'or') {
    const a = entText(ctx, f.arg.a);
    const b = entText(ctx, f.arg.b);
    if (!a || !b) return undefined;
    const { p, dated, participle, n } = valueWords(ctx, f.rel);
    const words = dated
      ? f.max
        ? ['is newer', 'is more recent', 'came out later', ...(participle ? [`was ${participle} later`, `was ${participle} last`] : [])]
        : ['is older', 'came out first', 'came first', 'is earlier', ...(participle ? [`was ${participle} first`, `was ${participle} earlier`] : [])]
      : f.max
        ? [`has the higher ${n}`, `has a higher ${n}`, ...(p.scale ? [`has the better ${n}`, 'is better', 'is rated higher'] : [`has a larger ${n}`])]
        : [`has the lower ${n}`, `has a lower ${n}`, ...(p.scale ? [`has the worse ${n}`, 'is worse'] : [`has a smaller ${n}`])];
    const w = rng.pick(words);
    const frames = [`which ${w}, {a} or {b}`, `{a} or {b}, which ${w}`, `which ${w}: {a} or {b}`, `which one ${w}, {a} or {b}`, `between {a} and {b}, which ${w}`];
    const frame = rng.pick(frames);
    return { text: frame.replace('{a}', a).replace('{b}', b), t: `compare2:${frame}` };
  }
  const np = npOf(ctx, f.arg);
  if (!np) return undefined;
  const sg = npText(ctx, np, false);
  const pl = npText(ctx, np, true);
  if (!sg || !pl) return undefined;
  const scale = lexOf(ctx, f.rel).scale;
  if (scale && rng.chance(0.5)) {
    // "the best bakery in harlow bend", "worst rated bakery"
    const adjNP = npText(ctx, np, false, false, rng.pick(f.max ? scale.best : scale.worst));
    const frame = rng.pick(['the {adj}', '{adj}', 'what is the {adj}', 'which is the {adj}', "what's the {adj}", 'find the {adj}']);
    if (adjNP) return { text: frame.replace('{adj}', adjNP), t: `${f.max ? 'argmax' : 'argmin'}:scale:${frame}` };
  }
  const sup = superlatives(ctx, f.rel, f.max);
  if (!sup.length) return undefined;
  const s = rng.pick(sup);
  const n = valueNoun(ctx, f.rel);
  const p = lexOf(ctx, f.rel);
  const dated = p.valueKind === 'year' || p.valueKind === 'date';
  const adj = dated ? npText(ctx, np, false, false, s) : undefined;
  const frames = dated
    ? ['the {adj}', '{adj}', 'what is the {adj}', `which is the ${s} of the {pl}`, `which of the {pl} is the ${s}`, `${s} of the {pl}`, "what's the {adj}"]
    : [`the {sg} with the ${s}`, `{sg} with the ${s}`, `which {sg} has the ${s}`, `which of the {pl} has the ${s}`, `what {sg} has the ${s}`, `{pl} with the ${s}`];
  if (!dated && /^(highest|lowest|largest|smallest)/.test(s)) frames.push(`${s.split(' ')[0]} ${n} {sg}`, `${s.split(' ')[0]}-${n} {sg}`.replace(/-rating/, ' rated'));
  const frame = rng.pick(frames);
  return { text: frame.replace('{sg}', sg).replace('{pl}', pl).replace('{adj}', adj ?? sg), t: `${f.max ? 'argmax' : 'argmin'}:${frame}` };
}

function aggQuestion(ctx: Ctx, f: Extract<SForm, { op: 'agg' }>): { text: string; t: string } | undefined {
  if (f.arg.op !== 'join' || !f.arg.rel.inv) return undefined;
  const np = npOf(ctx, f.arg.arg);
  const pl = np && npText(ctx, np, true);
  if (!pl) return undefined;
  const n = valueNoun(ctx, f.arg.rel);
  const p = lexOf(ctx, f.arg.rel);
  const dated = p.valueKind === 'year' || p.valueKind === 'date';
  const rng = ctx.rng;
  const word = {
    AVG: ['average', 'mean', 'avg'],
    SUM: ['total', 'sum of the', 'combined'],
    MAX: dated ? ['latest', 'most recent', 'last'] : ['highest', 'maximum', 'max', 'top'],
    MIN: dated ? ['earliest', 'first', 'oldest'] : ['lowest', 'minimum', 'min'],
  }[f.fn];
  const w = rng.pick(word);
  const frames = [`${w} ${n} of {pl}`, `what is the ${w} ${n} of {pl}`, `the ${w} ${n} of {pl}`, `${w} ${n} of the {pl}`, `what's the ${w} ${n} among {pl}`, `${w} ${n} for {pl}`];
  if (dated && (f.fn === 'MAX' || f.fn === 'MIN')) frames.push(`when was the ${w} of the {pl}`, `what year was the ${w} of the {pl}`);
  const frame = rng.pick(frames);
  return { text: frame.replace('{pl}', pl), t: `aggregate:${f.fn}:${frame}` };
}

function ratioQuestion(ctx: Ctx, f: Extract<SForm, { op: 'ratio' }>): { text: string; t: string } | undefined {
  const rng = ctx.rng;
  if (f.pct && f.a.op === 'and') {
    const whole = npOf(ctx, f.b);
    const wholeText = whole && npText(ctx, whole, true);
    const extra = f.a.a === f.b || JSON.stringify(f.a.a) === JSON.stringify(f.b) ? f.a.b : f.a.a;
    const part =
      extra.op === 'cmp' ? { mods: [cmpMod(ctx, extra)] } : extra.op === 'attrcmp' ? { mods: [attrMod(ctx, extra)] } : extra.op === 'contains' ? { mods: [containsMod(ctx, extra)] }
      : (extra.op === 'join' && extra.arg.op === 'ent' ? joinNP(ctx, extra, false, true) : undefined) ?? npOf(ctx, extra);
    const mod = part?.mods[0];
    if (!wholeText || !mod) return undefined;
    const pred = mod.kind === 'post' ? mod.text.replace(/^with /, 'have ') : mod.kind === 'pre' ? mod.text : undefined;
    if (!pred) return undefined;
    const frames = pred.startsWith('whose ')
      ? [`what percentage of {w} ${pred}`, `percentage of {w} ${pred}`, `what percent of {w} ${pred}`]
      : mod.kind === 'post'
        ? pred.startsWith('have ')
          ? [`what percentage of {w} ${pred}`, `what percent of {w} ${pred}`, `share of {w} that ${pred}`]
          : [`what percentage of {w} are ${pred}`, `what percent of {w} are ${pred}`, `percentage of {w} ${pred}`, `how many of {w} are ${pred} in percent`, `share of {w} ${pred}`, `% of {w} ${pred}`]
        : [`what percentage of {w} are ${pred}`, `what percent of {w} are ${pred}`, `percentage of ${pred} {w}`];
    const frame = rng.pick(frames);
    return { text: frame.replace('{w}', wholeText), t: `ratio:pct:${frame}` };
  }
  const a = npOf(ctx, f.a);
  const b = npOf(ctx, f.b);
  const at = a && npText(ctx, a, true);
  const bt = b && npText(ctx, b, true);
  if (!at || !bt) return undefined;
  const frame = rng.pick(['ratio of {a} to {b}', 'what is the ratio of {a} to {b}', 'ratio between {a} and {b}', `${f.pct ? 'percentage' : 'ratio'} of {a} vs {b}`]);
  return { text: frame.replace('{a}', at).replace('{b}', bt), t: `ratio:${frame}` };
}

function commonQuestion(ctx: Ctx, f: Extract<SForm, { op: 'common' }>): { text: string; t: string } | undefined {
  const np = npOf(ctx, f.arg);
  const pl = np && npText(ctx, np, true);
  if (!pl) return undefined;
  const n = endNoun(ctx, { ...f.rel, inv: !f.rel.inv }, true);
  if (!n) return undefined;
  const p = lexOf(ctx, f.rel);
  if (f.most && !f.rel.inv && p.verb?.agent === 'object' && ctx.rng.chance(0.6)) {
    // the value that acts: "who directed the most Tom Hanks movies", "who starred in the most Fellini films"
    const particle = p.verb.particle ?? (p.shape === 'verb' ? 'in' : undefined);
    const verb = particle ? `${p.verb.past} ${particle}` : p.verb.past;
    const frame = ctx.rng.pick([`${p.wh} ${verb} the most {pl}`, `which ${n.sg} ${verb} the most {pl}`, `${p.wh} ${verb} most of the {pl}`, `${p.wh} has ${p.verb.participle}${particle ? ' ' + particle : ''} the most {pl}`]);
    return { text: frame.replace('{pl}', pl), t: `mostcommon:verb:${frame}` };
  }
  const w = ctx.rng.pick(f.most ? ['most common', 'most frequent', 'most popular', 'commonest'] : ['least common', 'rarest', 'least frequent']);
  const frame = ctx.rng.pick([`${w} ${n.sg} among {pl}`, `what is the ${w} ${n.sg} among {pl}`, `which ${n.sg} is ${w} among {pl}`, `${w} ${n.sg} of {pl}`, `the ${w} ${n.sg} for {pl}`, `what ${n.sg} is ${w} in {pl}`]);
  return { text: frame.replace('{pl}', pl), t: `mostcommon:${frame}` };
}

function argcountQuestion(ctx: Ctx, f: Extract<SForm, { op: 'argcount' }>): { text: string; t: string } | undefined {
  const rng = ctx.rng;
  const n = endNoun(ctx, { ...f.rel, inv: !f.rel.inv }, true);
  if (!n) return undefined;
  const w = f.max ? rng.pick(['the most', 'most']) : rng.pick(['the fewest', 'the least', 'fewest']);
  if (f.arg.op === 'or') {
    const a = entText(ctx, f.arg.a);
    const b = entText(ctx, f.arg.b);
    if (!a || !b) return undefined;
    const m = f.max ? 'more' : rng.pick(['fewer', 'less']);
    const frame = rng.pick([`who has ${m} ${n.pl}, {a} or {b}`, `which has ${m} ${n.pl}, {a} or {b}`, `{a} or {b}: which has ${m} ${n.pl}`, `does {a} or {b} have ${m} ${n.pl}`]);
    return { text: frame.replace('{a}', a).replace('{b}', b), t: `compare2:count:${frame}` };
  }
  const np = npOf(ctx, f.arg);
  const sg = np && npText(ctx, np, false);
  const pl = np && npText(ctx, np, true);
  if (!sg || !pl) return undefined;
  const pv = lexOf(ctx, f.rel).verb;
  if (f.rel.inv && pv?.agent === 'object') {
    // counted through a verb the members do: "which of Heat's actors starred in the most movies", "… wrote the most films"
    const particle = pv.particle ?? (lexOf(ctx, f.rel).shape === 'verb' ? 'in' : undefined); // "starred in", as the verb templates say
    const verb = particle ? `${pv.past} ${particle}` : pv.past;
    const frame = rng.pick([`which {sg} ${verb} ${w} ${n.pl}`, `{sg} who ${verb} ${w} ${n.pl}`, `which of the {pl} ${verb} ${w} ${n.pl}`]);
    return { text: frame.replace('{sg}', sg).replace('{pl}', pl), t: `argmaxcount:verb:${frame}` };
  }
  const frame = rng.pick([`which {sg} has ${w} ${n.pl}`, `{sg} with ${w} ${n.pl}`, `which of the {pl} has ${w} ${n.pl}`, `the {sg} with ${w} ${n.pl}`, `what {sg} has ${w} ${n.pl}`]);
  return { text: frame.replace('{sg}', sg).replace('{pl}', pl), t: `argmaxcount:${frame}` };
}

function askQuestion(ctx: Ctx, f: Extract<SForm, { op: 'ask' }>): { text: string; t: string } | undefined {
  const inner = f.arg;
  if (inner.op !== 'and') return undefined;
  const member = inner.a.op === 'ent' ? inner.a : inner.b.op === 'ent' ? inner.b : undefined;
  const set = member === inner.a ? inner.b : inner.a;
  if (!member) return undefined;
  const m = defined(entText(ctx, member), 'entity text');
  if (set.op === 'arg' && set.arg.op === 'or') return askCompare2(ctx, m, member, set);
  if (set.op === 'cmp') {
    // "is X rated above 4", "was X released after 1990", "is the population of X over 1000000"
    const p = lexOf(ctx, set.rel);
    const rng = ctx.rng;
    const up = set.cmp === 'GT' || set.cmp === 'GE';
    const v0 = set.value.value;
    if (Number(v0) === p.scale?.threshold && rng.chance(0.6)) {
      return { text: `is ${m} ${rng.pick(up ? p.scale.good : p.scale.bad)}`, t: 'ask:cmp:scale' };
    }
    const n = valueNoun(ctx, set.rel);
    const dated = p.valueKind === 'year' || p.valueKind === 'date';
    const v = dated ? v0 : fmtNum(rng, v0);
    const participle = participleOf(p);
    const w = dated ? rng.pick(up ? ['after', 'later than'] : ['before', 'earlier than', 'prior to']) : rng.pick(up ? ['above', 'over', 'more than', 'greater than', 'higher than'] : ['below', 'under', 'less than', 'lower than']);
    const frames = dated
      ? [...(participle ? [`was ${m} ${participle} ${w} ${v}`, `was ${m} ${participle} ${w} ${v}`] : []), `is the ${n} of ${m} ${w} ${v}`, `is ${m}'s ${n} ${w} ${v}`]
      : [`is the ${n} of ${m} ${w} ${v}`, `is ${m}'s ${n} ${w} ${v}`, `does ${m} have a ${n} ${w} ${v}`, `${m} ${n} ${w} ${v}?`.replace(/\?$/, '')];
    const frame = rng.pick(frames);
    return { text: frame, t: `ask:cmp:${frames.indexOf(frame)}` };
  }
  if (set.op === 'join' && set.arg.op === 'ent') {
    const p = lexOf(ctx, set.rel);
    const x = defined(entText(ctx, set.arg), 'entity text');
    // (a p b): a is the subject; the member is the subject unless the relation is inverted
    const [a, b] = set.rel.inv ? [x, m] : [m, x];
    const O = nounOf(ctx.rng, p.object);
    const q = pickFill(ctx, p.ask, { a, b, o: O?.sg, O: O?.pl, s: nounOf(ctx.rng, p.subject)?.sg });
    if (q) return { text: q.text, t: `ask:${q.t}` };
  }
  const np = npOf(ctx, set);
  const pl = np && npText(ctx, np, true);
  const sg = np && npText(ctx, np, false);
  if (!pl || !sg) return undefined;
  const frame = ctx.rng.pick([`is {m} one of the {pl}`, `is {m} among the {pl}`, `is {m} a {sg}`, `is {m} one of {pl}`]);
  return { text: frame.replace('{m}', m).replace('{pl}', pl).replace('{sg}', sg), t: `ask:${frame}` };
}

/** "is A newer than B", "does A have a higher rating than B": (ASK (AND A (ARGMAX (OR A B) r))). */
function askCompare2(ctx: Ctx, m: string, member: SForm, set: Extract<SForm, { op: 'arg' }>): { text: string; t: string } | undefined {
  if (set.arg.op !== 'or') return undefined;
  const other = set.arg.a.op === 'ent' && member.op === 'ent' && set.arg.a.iri === member.iri ? set.arg.b : set.arg.a;
  const o = entText(ctx, other);
  if (!o) return undefined;
  const { p, dated, participle, n } = valueWords(ctx, set.rel);
  const frames = dated
    ? set.max
      ? [`is ${m} newer than ${o}`, `is ${m} more recent than ${o}`, `did ${m} come out after ${o}`, `did ${m} come out later than ${o}`, `is ${m} later than ${o}`,
         ...(participle ? [`was ${m} ${participle} after ${o}`, `was ${m} ${participle} later than ${o}`] : [])]
      : [`is ${m} older than ${o}`, `did ${m} come out before ${o}`, `did ${m} come out earlier than ${o}`, `is ${m} earlier than ${o}`,
         ...(participle ? [`was ${m} ${participle} before ${o}`, `was ${m} ${participle} earlier than ${o}`] : [])]
    : set.max
      ? [`does ${m} have a higher ${n} than ${o}`, `is ${m}'s ${n} higher than ${o}'s`, `is the ${n} of ${m} higher than that of ${o}`,
         ...(p.scale ? [`is ${m} rated higher than ${o}`, `is ${m} better than ${o}`] : [`does ${m} have more ${n} than ${o}`])]
      : [`does ${m} have a lower ${n} than ${o}`, `is ${m}'s ${n} lower than ${o}'s`, `is the ${n} of ${m} lower than that of ${o}`,
         ...(p.scale ? [`is ${m} rated lower than ${o}`, `is ${m} worse than ${o}`] : [`does ${m} have less ${n} than ${o}`])];
  const frame = ctx.rng.pick(frames);
  return { text: frame, t: `ask:compare2:${set.max ? 'max' : 'min'}:${frames.indexOf(frame)}` };
}

/**
 * "how many years apart were A and B released", "how much higher is A's rating than B's":
 * (ABSDIFF (JOIN (R r) A) (JOIN (R r) B)). The sampler puts the larger value first (A: later / higher), so the
 * phrasings that say which one is later or higher are true of the graph; the answer is the magnitude either way.
 */
function absdiffQuestion(ctx: Ctx, f: Extract<SForm, { op: 'absdiff' }>): { text: string; t: string } | undefined {
  const { a: fa, b: fb } = f;
  if (fa.op !== 'join' || fb.op !== 'join' || !fa.rel.inv || fa.rel.prop !== fb.rel.prop || fb.rel.inv !== fa.rel.inv) return undefined;
  const a = entText(ctx, fa.arg); // the larger value: later, higher
  const b = entText(ctx, fb.arg);
  if (!a || !b) return undefined;
  const rng = ctx.rng;
  const { p, dated, participle, n } = valueWords(ctx, fa.rel);
  // the symmetric phrasings mention the two in either order
  const [x, y] = rng.chance(0.5) ? [a, b] : [b, a];
  const frames = dated
    ? [
        `how many years between ${x} and ${y}`,
        `how many years apart are ${x} and ${y}`,
        `how many years after ${b} did ${a} come out`,
        `how much older is ${b} than ${a}`,
        `how many years older is ${b} than ${a}`,
        ...(participle
          ? [`how many years apart were ${x} and ${y} ${participle}`, `how far apart were ${x} and ${y} ${participle}`, `how many years before ${a} was ${b} ${participle}`, `how many years after ${b} was ${a} ${participle}`]
          : []),
      ]
    : [
        `what is the difference in ${n} between ${x} and ${y}`,
        `${n} difference between ${x} and ${y}`,
        `difference between the ${n} of ${x} and ${y}`,
        `how much higher is ${a}'s ${n} than ${b}'s`,
        `how much lower is ${b}'s ${n} than ${a}'s`,
        `by how much does ${a}'s ${n} exceed ${b}'s`,
        ...(p.scale ? [`how much higher is ${a} rated than ${b}`, `how much better rated is ${a} than ${b}`] : [`how much more ${n} does ${a} have than ${b}`]),
      ];
  const i = rng.int(frames.length);
  return { text: itemAt(frames, i, 'question frames'), t: `absdiff:${dated ? 'dated' : 'number'}:${i}` };
}

/** One entity in two roles, (JOIN p X) and (JOIN q X): the same entity, two relations to the same members. */
function twoRoles(f: SForm): [Extract<SForm, { op: 'join' }>, Extract<SForm, { op: 'join' }>] | undefined {
  if (f.op !== 'and' && f.op !== 'diff') return undefined;
  const { a, b } = f;
  if (a.op !== 'join' || b.op !== 'join' || a.rel.inv || b.rel.inv || a.arg.op !== 'ent' || b.arg.op !== 'ent') return undefined;
  return a.arg.iri === b.arg.iri && a.rel.prop !== b.rel.prop ? [a, b] : undefined;
}

/** What the object does, from the property's own templates: past "directed" ("{S} that {x} directed"), base "direct" ("which {S} did {x} direct"). */
function roleVerbs(ctx: Ctx, r: SRel): { past: string; base: string } | undefined {
  const p = lexOf(ctx, r);
  const pasts = p.subjects.map((t) => /^\{S\} (?:that )?\{x\} ([a-z][a-z ]*)$/.exec(t)?.[1]).filter((x): x is string => !!x);
  const bases = p.subjectQ.map((t) => /^(?:which|what) (?:\{S\} )?did \{x\} ([a-z][a-z ]*)$/.exec(t)?.[1]).filter((x): x is string => !!x);
  // the lexicon's verb, when the object is its agent ("X directed the movie")
  if (p.verb?.agent === 'object' && (!pasts.length || !bases.length)) {
    const particle = p.verb.particle ? ` ${p.verb.particle}` : '';
    pasts.push(p.verb.past + particle);
    bases.push(p.verb.lemma + particle);
  }
  return pasts.length && bases.length ? { past: ctx.rng.pick(pasts), base: ctx.rng.pick(bases) } : undefined;
}

/** "movies X both directed and wrote", "movies X directed but did not act in". */
function twoRolesQuestion(ctx: Ctx, f: SForm): { text: string; t: string } | undefined {
  const two = twoRoles(f);
  if (!two) return undefined;
  const [a, b] = two;
  const va = roleVerbs(ctx, a.rel);
  const vb = roleVerbs(ctx, b.rel);
  const S = endNoun(ctx, a.rel, true);
  if (!va || !vb || !S) return undefined;
  const x = defined(entText(ctx, a.arg), 'entity text');
  const rng = ctx.rng;
  const pron = rng.pick(['he', 'she', ...(/^(was|is) /.test(va.past) ? [] : ['they'])]);
  // "movies written and directed by X": the participles of the two relations' passive phrasings
  const passive = (r: SRel) => lexOf(ctx, r).subjects.map((t) => /^\{S\} (\w+) by \{x\}$/.exec(t)?.[1]).filter((w): w is string => !!w);
  const [pa, pb] = [passive(a.rel), passive(b.rel)];
  const byFrames = pa.length && pb.length ? [rng.pick(pa), rng.pick(pb)] : undefined;
  const frames =
    f.op === 'and'
      ? [...(byFrames ? [`${S.pl} ${byFrames[0]} and ${byFrames[1]} by ${x}`, `${S.pl} both ${byFrames[0]} and ${byFrames[1]} by ${x}`] : []),
         `${S.pl} ${x} both ${va.past} and ${vb.past}`, `${S.pl} that ${x} ${va.past} and also ${vb.past}`, `which ${S.pl} did ${x} both ${va.base} and ${vb.base}`,
         `${x} ${S.pl} that ${pron} ${va.past} and ${vb.past}`, `what ${S.pl} did ${x} ${va.base} and ${vb.base}`]
      : [...(byFrames ? [`${S.pl} ${byFrames[0]} but not ${byFrames[1]} by ${x}`] : []),
         `${S.pl} ${x} ${va.past} but did not ${vb.base}`, `${S.pl} that ${x} ${va.past} but didn't ${vb.base}`, `which ${S.pl} did ${x} ${va.base} but not ${vb.base}`,
         `${x} ${S.pl} ${pron} ${va.past} but didn't ${vb.base}`, `${S.pl} ${x} ${va.past} and did not ${vb.base}`];
  const frame = rng.pick(frames);
  return { text: frame, t: `${f.op}:two-roles:${frames.indexOf(frame)}` };
}

/** The same two-hop path from two entities, (AND|DIFF (JOIN r (JOIN q X)) (JOIN r (JOIN q Y))): the two inner sets. */
function bothChains(f: SForm): { outer: SRel; a: SForm; b: SForm } | undefined {
  if (f.op !== 'and' && f.op !== 'diff') return undefined;
  const { a, b } = f;
  if (a.op !== 'join' || b.op !== 'join' || a.arg.op !== 'join' || b.arg.op !== 'join') return undefined;
  const same = (x: SRel, y: SRel) => x.prop === y.prop && x.inv === y.inv;
  return same(a.rel, b.rel) && same(a.arg.rel, b.arg.rel) && a.arg.arg.op === 'ent' && b.arg.arg.op === 'ent' ? { outer: a.rel, a: a.arg, b: b.arg } : undefined;
}

/** An inner set said as one member ("a Spielberg movie", "a movie directed by X") or as all of them ("X's movies"). */
function oneOf(ctx: Ctx, f: SForm): { one: string; all: string } | undefined {
  const np = npOf(ctx, f);
  if (np?.mods.length !== 1) return undefined;
  const all = npText(ctx, np, true);
  const sg = npText(ctx, np, false);
  if (!all || !sg) return undefined;
  return { one: itemAt(np.mods, 0, 'modifiers').kind === 'poss' ? `one of ${all}` : `a ${sg}`, all };
}

/**
 * "actors who were in both a movie directed by X and one directed by Y", "directors of both X's movies and Y's
 * movies", "actors in X's movies but never in a Y movie": two sets reached by one path from two entities.
 */
function bothChainsQuestion(ctx: Ctx, f: SForm): { text: string; t: string } | undefined {
  const both = bothChains(f);
  if (!both) return undefined;
  const rng = ctx.rng;
  const x = oneOf(ctx, both.a);
  const y = oneOf(ctx, both.b);
  if (!x || !y) return undefined;
  const and = f.op === 'and';
  const O = both.outer.inv ? nounOf(rng, lexOf(ctx, both.outer).object) : undefined;
  const verbs = both.outer.inv ? roleVerbs(ctx, { ...both.outer, inv: false }) : undefined;
  let frames: string[];
  const ia = both.a.op === 'join' ? both.a : undefined;
  const ib = both.b.op === 'join' ? both.b : undefined;
  const [ea, eb] = [ia && entText(ctx, ia.arg), ib && entText(ctx, ib.arg)];
  if (O && ia && ea && eb && !ia.rel.inv && lexOf(ctx, both.outer).wh === 'who' && lexOf(ctx, ia.rel).wh === 'who' && rng.chance(0.3)) {
    // people who share a member with each of two people: "actors who have worked with both X and Y"
    frames = and
      ? [`${O.pl} who worked with both ${ea} and ${eb}`, `${O.pl} who have worked with ${ea} and ${eb}`, `which ${O.pl} worked with both ${ea} and ${eb}`, `${O.pl} that worked with ${ea} and also ${eb}`]
      : [`${O.pl} who worked with ${ea} but never with ${eb}`, `${O.pl} who have worked with ${ea} but not ${eb}`, `which ${O.pl} worked with ${ea} and not ${eb}`];
  } else if (O && verbs && lexOf(ctx, both.outer).wh === 'who') {
    // the answers are the agents of the outer relation: "actors who appeared in …", "who directed …"
    const v = verbs.past;
    frames = and
      ? [`${O.pl} who ${v} both ${x.one} and ${y.one}`, `${O.pl} who have ${v} ${x.one} and ${y.one}`, `who ${v} both ${x.one} and ${y.one}`,
         `${O.pl} who ${v} ${x.all} and also ${y.all}`, `which ${O.pl} ${v} both ${x.all} and ${y.all}`, `${O.pl} of both ${x.all} and ${y.all}`]
      : [`${O.pl} who ${v} ${x.one} but never ${y.one}`, `${O.pl} who ${v} ${x.all} but not ${y.all}`, `who ${v} ${x.all} but never ${y.one}`,
         `which ${O.pl} ${v} ${x.all} and not ${y.all}`, `${O.pl} of ${x.all} who never ${verbs.base} ${y.one}`];
  } else if (O) {
    // categories and values of the members: "genres of both X's movies and Y's movies"
    frames = and
      ? [`${O.pl} of both ${x.all} and ${y.all}`, `${O.pl} shared by ${x.all} and ${y.all}`, `${O.pl} that ${x.all} and ${y.all} have in common`, `which ${O.pl} do ${x.all} and ${y.all} share`]
      : [`${O.pl} of ${x.all} but not of ${y.all}`, `${O.pl} of ${x.all} that ${y.all} never have`];
  } else return undefined;
  const frame = rng.pick(frames);
  return { text: frame, t: `${f.op}:both-chains:${frames.indexOf(frame)}` };
}

/** "which directors has X worked with": the people who share a member with X, (JOIN (R p) (JOIN q X)). */
function workedWithQuestion(ctx: Ctx, f: SForm): { text: string; t: string } | undefined {
  if (f.op !== 'join' || !f.rel.inv || f.arg.op !== 'join' || f.arg.rel.inv || f.arg.arg.op !== 'ent') return undefined;
  const outer = lexOf(ctx, f.rel);
  // people who share a member with X, or the categories of X's members (not their values: "years X worked in")
  if (lexOf(ctx, f.arg.rel).wh !== 'who' || outer.valueKind) return undefined;
  const O = nounOf(ctx.rng, outer.object);
  if (!O) return undefined;
  const x = defined(entText(ctx, f.arg.arg), 'entity text');
  const frames =
    outer.wh === 'who'
      ? [`which ${O.pl} has ${x} worked with`, `${O.pl} ${x} has worked with`, `${O.pl} who worked with ${x}`, `who are the ${O.pl} ${x} worked with`,
         `what ${O.pl} did ${x} work with`, `${O.pl} that have worked with ${x}`]
      : [`what ${O.pl} has ${x} worked in`, `which ${O.pl} does ${x} work in`, `${O.pl} ${x} has worked in`, `what ${O.pl} has ${x} done`];
  const frame = ctx.rng.pick(frames);
  return { text: frame, t: `worked-with:${outer.wh === 'who' ? 'who' : 'what'}:${frames.indexOf(frame)}` };
}

function diffQuestion(ctx: Ctx, f: Extract<SForm, { op: 'diff' }>): { text: string; t: string } | undefined {
  if (twoRoles(f) && ctx.rng.chance(0.85)) {
    const q = twoRolesQuestion(ctx, f);
    if (q) return /^(which|what|who) /.test(q.text) ? q : { text: ctx.rng.pick(LIST).replace('{np}', q.text), t: q.t };
  }
  if (bothChains(f) && ctx.rng.chance(0.85)) {
    const q = bothChainsQuestion(ctx, f);
    if (q) return /^(which|what|who) /.test(q.text) ? q : { text: ctx.rng.pick(LIST).replace('{np}', q.text), t: q.t };
  }
  const np = npOf(ctx, f.a);
  const b = f.b;
  if (np && b.op === 'join' && b.arg.op === 'ent' && !b.rel.inv && lexOf(ctx, b.rel).subjects.includes('{x} {S}') && ctx.rng.chance(0.35)) {
    // a kind said with the head noun: "X's movies that aren't comedy movies" (→ "… that aren't comedies")
    const text = npText(ctx, np, true);
    const head = (np.noun ?? nounOf(ctx.rng, ctx.lex.thing))?.pl;
    if (text && head) {
      const neg = ctx.rng.pick(["that aren't", 'that are not', 'but not', 'other than', 'excluding', 'except']);
      const frame = ctx.rng.pick(LIST);
      return { text: frame.replace('{np}', `${text} ${neg} ${entText(ctx, b.arg)} ${head}`), t: `diff:${frame}:kind` };
    }
  }
  // "not starring X", "not in French": a post-modifier negates best
  const neg = (f.b.op === 'join' && f.b.arg.op === 'ent' ? joinNP(ctx, f.b, true, true) : undefined) ?? npOf(ctx, f.b);
  const mod = neg?.mods[0];
  if (!np || !mod) return undefined;
  let negText: string;
  if (mod.kind === 'post' && /^whose .* is /.test(mod.text)) negText = mod.text.replace(/ is /, ctx.rng.pick([' is not ', " isn't "]));
  else if (mod.kind === 'post' && mod.text.startsWith('with ')) negText = ctx.rng.pick(['without ', 'not with ']) + mod.text.slice(5);
  else if (mod.kind === 'post') negText = ctx.rng.pick(['not ', 'that are not ', "that aren't ", 'but not ']) + mod.text;
  else if (mod.kind === 'pre') negText = ctx.rng.pick(['that are not ', "that aren't ", 'but not ']) + mod.text;
  else negText = 'not ' + mod.text.replace(/'s$/, "'s");
  const text = npText(ctx, np, true);
  if (!text) return undefined;
  const frame = ctx.rng.pick(LIST);
  return { text: frame.replace('{np}', `${text} ${negText}`), t: `diff:${frame}:${mod.kind}` };
}

// ---------- answers as tables (form language v3) ----------

const FUNCTION_WORDS = new Set(['to', 'of', 'in', 'on', 'at', 'by', 'for', 'with', 'from', 'as', 'into']);

/** The noun of a relation's value, as a column heading or a group: "salary", "department", "phone number". */
function colNoun(ctx: Ctx, r: SRel): Noun {
  const p = lexOf(ctx, r);
  const e = r.inv ? p.subject : p.object;
  const ok = e.singular.map((sg, i) => ({ sg, pl: e.plural[i] ?? plural(sg) })).filter((n) => !FUNCTION_WORDS.has(n.sg.toLowerCase()));
  if (ok.length) return ctx.rng.pick(ok);
  const label = p.label.split(' ').filter((w) => !FUNCTION_WORDS.has(w.toLowerCase())).join(' ') || p.label;
  return { sg: label, pl: plural(label) };
}

/** A set said as a noun phrase, plural and singular ("employees in Sales", "employee in Sales"). */
function setNP(ctx: Ctx, f: SForm): { pl: string; sg: string } | undefined {
  const np = npOf(ctx, f);
  if (!np) return undefined;
  const pl = npText(ctx, np, true);
  const sg = npText(ctx, np, false);
  return pl && sg ? { pl, sg } : undefined;
}

/** "a", "a and b", "a, b and c" (now and then with a serial comma, or "as well as"). */
function andList(rng: Rng, xs: string[]): string {
  if (xs.length <= 1) return xs[0] ?? '';
  const last = itemAt(xs, -1, 'list items');
  const head = xs.slice(0, -1).join(', ');
  return `${head}${xs.length > 2 && rng.chance(0.3) ? ',' : ''} ${rng.chance(0.1) ? 'as well as' : 'and'} ${last}`;
}

const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];
const numWord = (rng: Rng, n: number) => (n < NUMBER_WORDS.length && rng.chance(0.55) ? (NUMBER_WORDS[n] ?? String(n)) : String(n));
function ordinal(n: number): string {
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th';
  return `${n}${s}`;
}
/** Words of a difference of two values of the member: "price minus unit cost". */
function minusText(ctx: Ctx, a: SRel, b: SRel): string {
  const [x, y] = [colNoun(ctx, a).sg, colNoun(ctx, b).sg];
  return ctx.rng.pick([`${x} minus ${y}`, `${x} minus the ${y}`, `difference between ${x} and ${y}`, `${x} less ${y}`, `gap between ${x} and ${y}`]);
}

function aggWord(ctx: Ctx, fn: string, value: SRel): string {
  const dated = ['year', 'date'].includes(lexOf(ctx, value).valueKind ?? '');
  const words: Record<string, string[]> = {
    AVG: ['average', 'mean'],
    SUM: ['total', 'combined'],
    MAX: dated ? ['latest', 'most recent'] : ['highest', 'maximum', 'top'],
    MIN: dated ? ['earliest', 'first'] : ['lowest', 'minimum'],
  };
  return ctx.rng.pick(words[fn] ?? ['']);
}

/** (TABLE x r1 … rn): "list the salary, email and department of every employee in Tallinn". */
function tableQuestion(ctx: Ctx, f: Extract<SForm, { op: 'table' }>): { text: string; t: string } | undefined {
  const rng = ctx.rng;
  const s = setNP(ctx, f.arg);
  if (!s) return undefined;
  const names = f.cols.map((c) => ('minus' in c ? minusText(ctx, c.minus[0], c.minus[1]) : colNoun(ctx, c).sg));
  if (new Set(names).size !== names.length) return undefined;
  const withName = rng.chance(0.25) && !f.cols.some((c) => 'minus' in c);
  const list = andList(rng, withName ? ['name', ...names] : names);
  // "the country of all X clubs" asks for countries (a set); one column reads as a table when the members are named as rows
  const rowsNamed = [4, 5, 6, 8, 9, 12];
  const frames = [
    `list the ${list} of every {sg}`,
    `the ${list} of all {pl}`,
    `${list} of each {sg}`,
    `give me the ${list} of the {pl}`,
    `show {pl} with their ${list}`,
    `{pl} and their ${list}`,
    `for each {sg}, the ${list}`,
    `what are the ${list} of the {pl}`,
    `a table of {pl} with ${list}`,
    `{pl} with ${list}`,
    `show the ${list} for every {sg}`,
    `i need the ${list} of all {pl}`,
    `{pl}: ${list}`,
  ];
  const i = names.length === 1 && !withName ? rng.pick(rowsNamed) : rng.int(frames.length);
  return { text: itemAt(frames, i, 'question frames').replace('{pl}', s.pl).replace('{sg}', s.sg), t: `table:${i}` };
}

/** Words of a group table: the members, the group noun, the aggregate ("average salary") — shared by GROUP, HAVING, top-k. */
function groupWords(ctx: Ctx, g: Extract<SForm, { op: 'group' }>): { m: { pl: string; sg: string }; g: Noun; agg?: string } | undefined {
  const m = setNP(ctx, g.arg);
  if (!m) return undefined;
  const gn = colNoun(ctx, g.by);
  if (g.fn === 'COUNT' || !g.value) return { m, g: gn };
  return { m, g: gn, agg: `${aggWord(ctx, g.fn, g.value)} ${colNoun(ctx, g.value).sg}` };
}

/** (GROUPCOUNT x r) "how many employees per department", (GROUPAVG x r v) "for each department, the average salary". */
function groupQuestion(ctx: Ctx, f: Extract<SForm, { op: 'group' }>): { text: string; t: string } | undefined {
  const w = groupWords(ctx, f);
  if (!w) return undefined;
  const { m, g, agg } = w;
  // the members may go unsaid only when they are a whole class ("average capacity per country"), never a set ("… of forwards")
  const bare = f.arg.op === 'cls';
  const frames = agg
    ? [`${agg} of {pl} per ${g.sg}`, `for each ${g.sg}, the ${agg} of its {pl}`, `what is the ${agg} of {pl} in each ${g.sg}`,
       `${g.pl} with the ${agg} of their {pl}`, `${agg} of {pl} by ${g.sg}`, `for every ${g.sg}, what is the ${agg} of the {pl}`,
       ...(bare ? [`${agg} per ${g.sg}`, `show the ${agg} for each ${g.sg}`] : [])]
    : [`how many {pl} are there per ${g.sg}`, `number of {pl} in each ${g.sg}`, `for each ${g.sg}, how many {pl}`, `count the {pl} by ${g.sg}`,
       `how many {pl} does each ${g.sg} have`, `${g.pl} and their number of {pl}`, `number of {pl} per ${g.sg}`, `{pl} per ${g.sg}`,
       `how many {pl} in every ${g.sg}`, `break down the {pl} by ${g.sg}`, `${g.pl} with how many {pl} each`];
  const i = ctx.rng.int(frames.length);
  return { text: itemAt(frames, i, 'question frames').replace('{pl}', m.pl), t: `group:${agg ? 'agg' : 'count'}:${i}` };
}

function cmpWords(rng: Rng, cmp: string, count: boolean): string {
  if (cmp === 'GT') return rng.pick(count ? ['more than', 'over'] : ['above', 'over', 'more than', 'greater than', 'higher than']);
  if (cmp === 'GE') return rng.pick(['at least', count ? 'no fewer than' : 'no less than']);
  if (cmp === 'LT') return rng.pick(count ? ['fewer than', 'less than', 'under'] : ['below', 'under', 'less than', 'lower than']);
  return rng.pick(['at most', count ? 'no more than' : 'up to']);
}

/** (HAVING (GROUPCOUNT x r) GT n) "which departments have more than 10 employees". */
function havingQuestion(ctx: Ctx, f: Extract<SForm, { op: 'having' }>): { text: string; t: string } | undefined {
  if (f.arg.op !== 'group') return undefined;
  const w = groupWords(ctx, f.arg);
  if (!w) return undefined;
  const rng = ctx.rng;
  const { m, g, agg } = w;
  const n = fmtNum(rng, f.value.value);
  const c = cmpWords(rng, f.cmp, !agg);
  const bare = f.arg.arg.op === 'cls';
  const frames = agg
    ? [`${g.pl} where the ${agg} of {pl} is ${c} ${n}`, `list the ${g.pl} whose {pl} have ${article(agg)} ${agg} ${c} ${n}`, `which ${g.pl} have {pl} with ${article(agg)} ${agg} ${c} ${n}`,
       ...(bare ? [`${g.pl} whose ${agg} is ${c} ${n}`, `which ${g.pl} have ${article(agg)} ${agg} ${c} ${n}`, `${g.pl} with ${article(agg)} ${agg} ${c} ${n}`] : [])]
    : [`which ${g.pl} have ${c} ${n} {pl}`, `${g.pl} with ${c} ${n} {pl}`, `list the ${g.pl} having ${c} ${n} {pl}`, `${g.pl} that have ${c} ${n} {pl}`,
       `${g.pl} with ${c} ${n} {pl} and how many`, `which ${g.pl} count ${c} ${n} {pl}`, `show ${g.pl} with ${c} ${n} {pl} and their counts`];
  const i = rng.int(frames.length);
  return { text: itemAt(frames, i, 'question frames').replace('{pl}', m.pl), t: `having:${agg ? 'agg' : 'count'}:${i}` };
}

/** Ordered answers: "the three … with the highest …", "the 6th to 10th … by …", "… sorted by …", "the … with the most …". */
function orderQuestion(ctx: Ctx, f: SForm): { text: string; t: string } | undefined {
  const rng = ctx.rng;
  let limit: number | undefined;
  let offset = 0;
  let g = f;
  if (g.op === 'slice' && !g.offset) {
    limit = g.n;
    g = g.arg;
  }
  if (g.op === 'slice' && g.offset) {
    offset = g.n;
    g = g.arg;
  }
  if (g.op !== 'order') return undefined;
  const desc = g.desc;
  if (g.arg.op === 'group') {
    // the groups with the most members / the highest average
    if (limit === undefined || offset) return undefined;
    const w = groupWords(ctx, g.arg);
    if (!w) return undefined;
    const k = numWord(rng, limit);
    const most = desc ? rng.pick(['the most', 'the largest number of']) : rng.pick(['the fewest', 'the smallest number of']);
    const hi = desc ? 'highest' : 'lowest';
    const bare = g.arg.arg.op === 'cls';
    const frames = w.agg
      ? [`which ${k} ${w.g.pl} have the ${hi} ${w.agg} of {pl}`, `top ${limit} ${w.g.pl} by ${w.agg} of {pl}`, `the ${k} ${w.g.pl} whose {pl} have the ${hi} ${w.agg}`,
         ...(bare ? [`the ${k} ${w.g.pl} with the ${hi} ${w.agg}`, `top ${limit} ${w.g.pl} by ${w.agg}`] : [])]
      : [`the ${k} ${w.g.pl} with ${most} {pl}`, `which ${k} ${w.g.pl} have ${most} {pl}`, `${desc ? 'top' : 'bottom'} ${limit} ${w.g.pl} by number of {pl}`, `${k} ${w.g.pl} with ${most} {pl}`, `the ${k} ${w.g.pl} that have ${most} {pl}`];
    const i = rng.int(frames.length);
    return { text: itemAt(frames, i, 'question frames').replace('{pl}', w.m.pl), t: `topk:group:${w.agg ? 'agg' : 'count'}:${i}` };
  }
  if (!g.rel) return undefined;
  const np = npOf(ctx, g.arg);
  const pl = np && npText(ctx, np, true);
  if (!np || !pl) return undefined;
  const v = colNoun(ctx, g.rel).sg;
  const dated = ['year', 'date'].includes(lexOf(ctx, g.rel).valueKind ?? '');
  const [hi, lo] = dated ? ['latest', 'earliest'] : ['highest', 'lowest'];
  const first = desc ? hi : lo;
  const sups = superlatives(ctx, g.rel, desc);
  const sup = sups.length ? rng.pick(sups) : `${first} ${v}`;
  if (limit === undefined) {
    const frames = desc
      ? [`list {pl} sorted by ${v} descending`, `{pl} by ${v}, ${hi} first`, `{pl} ordered from ${hi} to ${lo} ${v}`, `sort {pl} by ${v} in descending order`, `{pl} in descending order of ${v}`]
      : [`list {pl} sorted by ${v}`, `{pl} by ${v}, ${lo} first`, `{pl} ordered by ${v}`, `sort {pl} by ${v}`, `{pl} in order of ${v}`, `{pl} from ${lo} to ${hi} ${v}`];
    const i = rng.int(frames.length);
    return { text: itemAt(frames, i, 'question frames').replace('{pl}', pl), t: `order:${desc ? 'desc' : 'asc'}:${i}` };
  }
  const k = numWord(rng, limit);
  if (offset) {
    const [a, b] = [offset + 1, offset + limit];
    const frames = [`the ${ordinal(a)} to ${ordinal(b)} {pl} by ${v}, ${first} first`, `{pl} ranked ${a} to ${b} by ${sup}`, `the ${ordinal(a)} through ${ordinal(b)} {pl} with the ${sup}`,
      `{pl} in places ${a} to ${b} by ${sup}`, `the next ${k} {pl} after the top ${offset} by ${sup}`, `${ordinal(a)} to ${ordinal(b)} ${dated ? sup : `${first} ${v}`} {pl}`];
    const i = rng.int(frames.length);
    return { text: itemAt(frames, i, 'question frames').replace('{pl}', pl), t: `topk:offset:${i}` };
  }
  const frames = dated
    ? [`the ${k} ${sup} {pl}`, `${k} ${sup} {pl}`, `top ${limit} {pl} by ${v}`, `which are the ${k} ${sup} {pl}`, `the ${k} {pl} with the ${first} ${v}`]
    : [`the ${k} {pl} with the ${sup}`, `top ${limit} {pl} by ${v}`, `which ${k} {pl} have the ${sup}`, `${k} {pl} with the ${sup}`, `list the ${k} {pl} with the ${sup}`, `the ${k} ${first}-${v} {pl}`];
  const i = rng.int(frames.length);
  return { text: itemAt(frames, i, 'question frames').replace('{pl}', pl), t: `topk:${dated ? 'dated' : 'value'}:${i}` };
}

/**
 * Comparatives of measures in plain English ("wider than tall"): comparative up, comparative down, the positive.
 * General English, not any graph's vocabulary; other measures are said with their nouns ("whose price is above their unit cost").
 */
const MEASURE_ADJECTIVES: Record<string, [string, string, string]> = {
  width: ['wider', 'narrower', 'wide'],
  height: ['taller', 'shorter', 'tall'],
  length: ['longer', 'shorter', 'long'],
  depth: ['deeper', 'shallower', 'deep'],
  weight: ['heavier', 'lighter', 'heavy'],
};

/** A modifier for (GT a b) in a set: "whose width is greater than their height", "wider than tall". */
function attrMod(ctx: Ctx, f: Extract<SForm, { op: 'attrcmp' }>): Mod {
  const rng = ctx.rng;
  const [a, b] = [colNoun(ctx, f.rel).sg, colNoun(ctx, f.other).sg];
  const up = f.cmp === 'GT' || f.cmp === 'GE';
  const strict = f.cmp === 'GT' || f.cmp === 'LT';
  const ja = MEASURE_ADJECTIVES[a];
  const jb = MEASURE_ADJECTIVES[b];
  if (strict && ja && jb && rng.chance(0.6)) return { kind: 'post', text: rng.pick([`${up ? ja[0] : ja[1]} than ${jb[2]}`, `that are ${up ? ja[0] : ja[1]} than they are ${jb[2]}`]) };
  const dated = ['year', 'date'].includes(lexOf(ctx, f.rel).valueKind ?? '');
  const w = !strict
    ? up ? rng.pick(['at least', 'no less than', 'not below']) : rng.pick(['at most', 'no more than', 'not above'])
    : dated
      ? up ? rng.pick(['later than', 'after']) : rng.pick(['earlier than', 'before'])
      : up ? rng.pick(['greater than', 'higher than', 'above', 'larger than', 'more than']) : rng.pick(['less than', 'lower than', 'below', 'smaller than']);
  const frames = [`whose ${a} is ${w} their ${b}`, `with ${article(a)} ${a} ${w} their ${b}`, `where the ${a} is ${w} the ${b}`, `with ${a} ${w} ${b}`, `whose ${a} is ${w} the ${b}`];
  if (strict && !dated) frames.push(up ? `where the ${a} exceeds the ${b}` : `where the ${b} exceeds the ${a}`, `with ${up ? 'more' : 'less'} ${a} than ${b}`);
  return { kind: 'post', text: rng.pick(frames) };
}

/**
 * The word of a CONTAINS, kept out of the noise (no typo, no dropped word, no case change) until the question is
 * done: the training form's `[ word ]` is copied from the question, so the question must carry it exactly.
 */
const protect = (w: string) => `\u27e8${w}\u27e9`;

/** A modifier for (CONTAINS [ w ]) / (CONTAINS r [ w ]): "whose name contains aero", "with 'aero' in their name". */
function containsMod(ctx: Ctx, f: Extract<SForm, { op: 'contains' }>): Mod {
  const rng = ctx.rng;
  const w = rng.chance(0.2) ? `"${protect(f.text)}"` : rng.chance(0.1) ? `'${protect(f.text)}'` : protect(f.text);
  if (f.rel) {
    const n = colNoun(ctx, f.rel).sg;
    return { kind: 'post', text: rng.pick([`whose ${n} contains ${w}`, `with ${w} in their ${n}`, `whose ${n} includes ${w}`, `with ${article(n)} ${n} containing ${w}`]) };
  }
  return {
    kind: 'post',
    text: rng.pick([`whose name contains ${w}`, `with ${w} in their name`, `with ${w} in the name`, `whose name includes ${w}`, `containing ${w} in the name`, `with names containing ${w}`, `whose name has ${w} in it`, `named with the word ${w}`, `that have ${w} in their names`]),
  };
}

/** (MORE (COUNT A) (COUNT B)) "are there more employees in Sales than in Support", "does X have more projects than Y". */
function moreQuestion(ctx: Ctx, f: Extract<SForm, { op: 'more' }>): { text: string; t: string } | undefined {
  const rng = ctx.rng;
  const { a, b, less } = f;
  if (a.op === 'count' && b.op === 'count') {
    const [sa, sb] = [a.arg, b.arg];
    if (sa.op === 'join' && sb.op === 'join' && sa.arg.op === 'ent' && sb.arg.op === 'ent' && sa.rel.prop === sb.rel.prop && sa.rel.inv === sb.rel.inv && rng.chance(0.55)) {
      // one relation from two entities: "does Sales have more employees than Support"
      const n = endNoun(ctx, sa.rel, true);
      const [x, y] = [entText(ctx, sa.arg), entText(ctx, sb.arg)];
      if (n && x && y) {
        const m = less ? rng.pick(['fewer', 'less']) : 'more';
        const frames = [`does ${x} have ${m} ${n.pl} than ${y}`, `has ${x} got ${m} ${n.pl} than ${y}`, `are there ${m} ${n.pl} for ${x} than for ${y}`, `does ${x} count ${m} ${n.pl} than ${y}`];
        const i = rng.int(frames.length);
        return { text: itemAt(frames, i, 'question frames'), t: `countcompare:entity:${i}` };
      }
    }
    const A = setNP(ctx, sa);
    const B = setNP(ctx, sb);
    if (!A || !B) return undefined;
    const frames = less
      ? [`are there fewer ${A.pl} than ${B.pl}`, `is the number of ${A.pl} smaller than the number of ${B.pl}`, `are there less ${A.pl} than ${B.pl}`, `are ${A.pl} fewer than ${B.pl}`]
      : [`are there more ${A.pl} than ${B.pl}`, `is the number of ${A.pl} greater than the number of ${B.pl}`, `do ${A.pl} outnumber ${B.pl}`, `are ${A.pl} more numerous than ${B.pl}`];
    const i = rng.int(frames.length);
    return { text: itemAt(frames, i, 'question frames'), t: `countcompare:sets:${less ? 'less' : 'more'}:${i}` };
  }
  if (a.op === 'agg' && b.op === 'agg' && a.arg.op === 'join' && b.arg.op === 'join' && a.arg.rel.inv) {
    const A = setNP(ctx, a.arg.arg);
    const B = setNP(ctx, b.arg.arg);
    if (!A || !B) return undefined;
    const valueRel = { ...a.arg.rel, inv: false }; // (JOIN (R v) x): the v-values of x's members
    const v = `${aggWord(ctx, a.fn, valueRel)} ${colNoun(ctx, valueRel).sg}`;
    const hi = less ? rng.pick(['lower', 'smaller']) : rng.pick(['higher', 'greater']);
    const frames = [`is the ${v} of ${A.pl} ${hi} than that of ${B.pl}`, `do ${A.pl} have ${article(hi)} ${hi} ${v} than ${B.pl}`, `is the ${v} ${hi} for ${A.pl} than for ${B.pl}`];
    const i = rng.int(frames.length);
    return { text: itemAt(frames, i, 'question frames'), t: `countcompare:agg:${i}` };
  }
  return undefined;
}

/** The question body for a form (placeholders for entities), or undefined when no template fits. */
function body(ctx: Ctx, f: SForm): { text: string; t: string } | undefined {
  switch (f.op) {
    case 'count':
      return countQuestion(ctx, f.arg);
    case 'arg':
      return argQuestion(ctx, f);
    case 'agg':
      return aggQuestion(ctx, f);
    case 'ratio':
      return ratioQuestion(ctx, f);
    case 'common':
      return commonQuestion(ctx, f);
    case 'argcount':
      return argcountQuestion(ctx, f);
    case 'ask':
      return askQuestion(ctx, f);
    case 'diff':
      return diffQuestion(ctx, f);
    case 'absdiff':
      return absdiffQuestion(ctx, f);
    case 'table':
      return tableQuestion(ctx, f);
    case 'group':
      return groupQuestion(ctx, f);
    case 'having':
      return havingQuestion(ctx, f);
    case 'order':
    case 'slice':
      return orderQuestion(ctx, f);
    case 'more':
      return moreQuestion(ctx, f);
    default:
      return setQuestion(ctx, f);
  }
}

// ---------- mentions and noise ----------

const KEYBOARD_NEIGHBOURS = Array.from('qwertyuiopasdfghjklzxcvbnm');

/** One typing error in a word of at least 5 letters: drop, double, swap or replace a letter. */
export function typo(rng: Rng, text: string): string | undefined {
  const words = text.split(' ');
  const idx = words.map((w, i) => [w, i] as const).filter(([w]) => /^[\p{L}]{5,}$/u.test(w));
  if (!idx.length) return undefined;
  const [w, i] = rng.pick(idx);
  const k = 1 + rng.int(w.length - 2); // keep the first letter
  let t: string;
  switch (rng.int(4)) {
    case 0:
      t = w.slice(0, k) + w.slice(k + 1);
      break;
    case 1:
      t = w.slice(0, k) + w.charAt(k) + w.slice(k);
      break;
    case 2:
      t = k + 1 < w.length ? w.slice(0, k) + w.charAt(k + 1) + w.charAt(k) + w.slice(k + 2) : w.slice(0, k) + w.slice(k + 1);
      break;
    default:
      t = w.slice(0, k) + rng.pick(KEYBOARD_NEIGHBOURS) + w.slice(k + 1);
  }
  if (t === w) return undefined;
  const out = [...words];
  out[i] = t;
  return out.join(' ');
}

function looksLikeName(label: string): boolean {
  const w = label.split(' ');
  return w.length >= 2 && w.length <= 3 && w.every((x) => /^\p{Lu}[\p{L}.'-]*$/u.test(x));
}

/** How an entity is mentioned: the label, or what users type for it. */
function mention(rng: Rng, raw: string, lower: boolean, tags: string[], person: boolean): string {
  // labels written as identifiers ("ludwig_ii_of_bavaria") are typed with spaces; grounding normalises both alike
  const label = raw.replace(/_/g, ' ').replace(/\s+/g, ' ').trim();
  let m = label;
  const r = rng.next();
  if (person && looksLikeName(label) && r < 0.3) {
    const w = label.split(' ');
    m = rng.chance(0.75) ? itemAt(w, -1, 'words of a name') : itemAt(w, 0, 'words of a name');
    tags.push('partial-name');
  } else if (/^the /i.test(label) && label.split(' ').length > 2 && r < 0.3) {
    m = label.slice(4);
    tags.push('no-article');
  } else if (/\S: \S/.test(label) && r < 0.3) {
    m = label.slice(0, label.indexOf(': ')); // "Star Wars: Episode IV" → "Star Wars"
    tags.push('no-subtitle');
  }
  if (lower) m = m.toLowerCase();
  if (rng.chance(0.1)) {
    const t = typo(rng, m);
    if (t) {
      m = t;
      tags.push('typo');
    }
  }
  return m;
}

/** The wh-word of the role an entity plays in the form (object of "directed by" → who). */
function whOfEntity(lex: Lexicon, f: SForm, iri: string): string | undefined {
  let out: string | undefined;
  const visit = (g: SForm): void => {
    if (out) return;
    if (g.op === 'join' && g.arg.op === 'ent' && g.arg.iri === iri) {
      const p = lex.properties[g.rel.prop];
      out = p ? (g.rel.inv ? p.swh : p.wh) : undefined;
      return;
    }
    for (const k of ['arg', 'a', 'b'] as const) {
      const c = (g as Record<string, unknown>)[k] as SForm | undefined;
      if (c && typeof c === 'object' && 'op' in c) visit(c);
    }
  };
  visit(f);
  return out;
}

/**
 * A one-word category named as the head noun, in the plural: "comedy movies" → "comedies", "documentary films
 * from the 90s" → "documentaries from the 90s". Only for a kind of the same sort as the things it classifies:
 * the word's first WordNet noun sense is in the same lexicographer file as the head noun's (comedy and movie:
 * noun.communication; not "action", "crime", "horror"), and is no proper name ("French").
 */
function pluralHeads(text: string, entities: { iri: string }[], mentions: Mentions, lex: Lexicon, rng: Rng, tags: string[]): string {
  const heads = headNouns(lex);
  return text.replace(/\u27e6(\d+)\u27e7 (\p{L}+)/gu, (all, i: string, next: string) => {
    const e = entities[Number(i)];
    const m = e && mentions.get(e.iri);
    if (!m || !heads.has(next.toLowerCase()) || !/^\p{L}{4,}$/u.test(m) || !rng.chance(0.7) || !sameKind(m, next)) return all;
    const pl = plural(m.toLowerCase());
    if (pl === m.toLowerCase()) return all; // a mass noun ("music") has no plural head
    mentions.set(e.iri, m === m.toLowerCase() ? pl : pl.charAt(0).toUpperCase() + pl.slice(1));
    tags.push('plural-head');
    return `\u27e6${i}\u27e7`;
  });
}

/** The plural nouns things are called by in a lexicon (computed once per lexicon, not per question). */
const HEAD_NOUNS = new WeakMap<Lexicon, Set<string>>();
function headNouns(lex: Lexicon): Set<string> {
  let heads = HEAD_NOUNS.get(lex);
  if (!heads) {
    heads = new Set([...lex.thing.plural, ...Object.values(lex.properties).flatMap((p) => p.subject.plural)].map((h) => h.toLowerCase()));
    HEAD_NOUNS.set(lex, heads);
  }
  return heads;
}

function sameKind(word: string, headPlural: string): boolean {
  const wn = wordNet();
  const first = (w: string) => wn.senses(w.toLowerCase(), 'n')[0];
  const sense = first(word);
  const head = wn.baseForms(headPlural.toLowerCase(), 'n').map(first).find((x) => !!x);
  // a proper name has only capitalised words ("French"); a kind may have one among common ones ("Western", "horse opera")
  return !!sense && !!head && sense.lexFile === head.lexFile && !sense.words.every((w) => /^\p{Lu}/u.test(w));
}

const DROPPABLE = new Set(['the', 'a', 'is', 'are', 'was', 'did', 'does']);

/** Renders a question for a sampled form; undefined when no template of the lexicon fits it. */
export function renderQuestion(f: SForm, lex: Lexicon, rng: Rng): Rendered | undefined {
  const entities = entitiesOf(f);
  const ents = new Map<string, number>(entities.map((e, i) => [e.iri, i]));
  const tags: string[] = [];
  const ctx: Ctx = { lex, rng, ents, tags };
  const b = body(ctx, f);
  if (!b) return undefined;
  let text = b.text;
  const lower = rng.chance(0.6);
  if (lower) tags.push('lowercase');
  // dropped function words (never inside a mention: placeholders are untouched)
  if (rng.chance(0.12)) {
    const words = text.split(' ');
    const cands = words.map((w, i) => [w, i] as const).filter(([w], i) => DROPPABLE.has(w) && i > 0);
    if (cands.length) {
      const [, i] = rng.pick(cands);
      words.splice(i, 1);
      text = words.join(' ');
      tags.push('dropped-word');
    }
  }
  // a slip of the keyboard outside the names ("moveis", "directd"): placeholders have no letters, so they are kept
  if (rng.chance(0.06)) {
    const t = typo(rng, text);
    if (t) {
      text = t;
      tags.push('word-typo');
    }
  }
  // how people shorten and wrap questions: "what's", "whats", "can you tell me …", "… please"
  if (/^(what|who|where) is /.test(text) && rng.chance(0.25)) {
    text = text.replace(/^(what|who|where) is /, (_m, w: string) => rng.pick([`${w}'s `, `${w}s `]));
    tags.push('contraction');
  }
  if (/^(who|what|which|when|where|how)\b/.test(text) && rng.chance(0.06)) {
    text = rng.pick(['can you tell me ', 'do you know ', 'i want to know ', 'tell me ']) + text;
    tags.push('wrapped');
  } else if (rng.chance(0.03)) {
    text += ' please';
    tags.push('wrapped');
  }
  if (!lower) text = text.charAt(0).toUpperCase() + text.slice(1);
  const interrogative = /^(who|what|which|when|where|how|is|are|was|were|did|does|do|has|have)\b/i.test(text);
  if (interrogative ? rng.chance(0.6) : rng.chance(0.1)) text += '?';
  const mentions: Mentions = new Map();
  const used = new Set<string>();
  for (const e of entities) {
    let m = mention(rng, e.label, lower, tags, whOfEntity(lex, f, e.iri) === 'who');
    const clash = (x: string) => [...used].some((u) => u.includes(x.toLowerCase()) || x.toLowerCase().includes(u));
    const full = e.label.replace(/_/g, ' ').replace(/\s+/g, ' ').trim();
    if (m.trim() === '' || clash(m)) m = lower ? full.toLowerCase() : full;
    used.add(m.toLowerCase());
    mentions.set(e.iri, m);
  }
  text = pluralHeads(text, entities, mentions, lex, rng, tags);
  text = text.replace(/\b(the|a) (\u27e6\d+\u27e7's)/g, '$2');
  const mentionOf = (i: string) => defined(mentions.get(itemAt(entities, Number(i), 'entities').iri), 'mention');
  // "the The Captive" → "The Captive"; "avatar's's" → "avatar's"
  text = text.replace(/\b(the|a) (\u27e6(\d+)\u27e7)/gi, (all, _art: string, p: string, i: string) => (/^the /i.test(mentionOf(i)) ? p : all));
  text = text.replace(/(\u27e6(\d+)\u27e7)'s\b/g, (all, p: string, i: string) => (/'s$/i.test(mentionOf(i)) ? p : all));
  const question = text.replace(PH_RE, (_m, i: string) => mentionOf(i)).replace(/\u27e8([^\u27e9]*)\u27e9/g, '$1').replace(/\s+/g, ' ').trim();
  return { question, mentions, template: b.t, noise: [...new Set(tags.filter((t) => t !== 'retry'))] };
}
