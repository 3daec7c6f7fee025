/**
 * Judging one reading (`judge`): the named checks of checks.ts in order, with the graph prior's say on a reading
 * too uncertain; what the checks see (`readingOf`, `checkContext`); the question words left unexplained before
 * grounding (`unexplainedQuestionWords`); the calibration signals of a reading (`winnerSignals`).
 */
import {
  defined,
  normalizeLabel,
  type Candidate,
  type Form,
  relationWords,
  stem,
} from '../core';
import { containsTexts, entityRefs, mapRefs, relationRefs } from '../form';
import { askedKind, givesPlaces } from './kinds';
import { copiedTextsOf, entityRefsOf } from './labels';
import { unexplainedWords } from './abstain';
import { calibratedProbability, signalsOf, type Signals } from './calibration';
import { graphNames, leavesOut, nothingAsked, nothingNear, ownValueMissing, placeAsked, setAsideRow, tooUncertain, weakTitle, wordNotRead, type CheckContext, type Reading, type Verdict } from './checks';
import { storeStep, type AttemptRun, type Winner } from './run';
import { linkedNames, wrongClass } from './typed';
import { nearLabels } from './topics';
import { farWords, nearGraph, readsAsRelation, relationName, type GatewayContext } from './context';

/** The verdict of judge() on a winner. `caveat`: set aside only for what it leaves out (answers if nothing better does). */
export interface Judgement {
  rejected: boolean;
  abstained: boolean;
  doubt?: string;
  signals?: Signals;
  caveat?: Verdict;
  /** Withheld only as too uncertain (calibration): its signals and calibrated probability. */
  uncertain?: { signals: Signals; p: number };
}

/**
 * Whether a reading may be the answer: the named checks of checks.ts in order — ownValueMissing (abstained),
 * weakTitle, nothingNear and wordNotRead (abstained: the question asks about something the graph lacks),
 * tooUncertain with a calibration (with the graph prior's support when the parser alone is not sure), and
 * relationUnused and unusedWords last (a caveat: answers if no reading uses what it leaves out). The trace says why not.
 */
export async function judge(gw: GatewayContext, q: string, win: Winner, beam: Candidate[], run: AttemptRun): Promise<Judgement> {
  const { o, trace } = run;
  if (o.noAbstain) return { rejected: false, abstained: false, signals: winnerSignals(win, beam) };
  const row = (v: Verdict, note: string) => trace.push({ stage: 'execute', groundedForm: win.attempt.text, outcome: 'skipped', note, check: { name: v.check, code: v.code ?? '' }, timeMs: 0 });
  const reading = readingOf(gw, win);
  const mentions = copiedTextsOf(win.attempt.candidate.form);
  // on a graph with classes, the names of conditions on the class asked for (typed.ts linkedNames): names of the graph,
  // never words it lacks (nothingNear, wordNotRead), and words the reading must use (unusedWords)
  const linked = await storeStep(run, 'execute', 'the names of conditions on the class asked for', (t) => linkedNames(gw, q, mentions, t, win.attempt.candidate.form), []);
  if (linked === undefined) return { rejected: true, abstained: false };
  const checks = linked.length > 0 ? { ...checkContext(gw, q, beam), linkedNames: linked } : checkContext(gw, q, beam);
  // questions no reading can answer: where, of a graph without places; what X is
  // (a mention is a name only where it spells its entity: "[ daughter of spouse of X ]" leaves its words in the question)
  const names = reading.mentions.filter((m) => m.label !== undefined && normalizeLabel(m.label) === normalizeLabel(m.text)).map((m) => m.text);
  for (const v of [placeAsked(q, checks), nothingAsked(q, names)]) {
    if (v.pass) continue;
    row(v, `abstained: ${v.reason ?? ''}`);
    return { rejected: true, abstained: true, doubt: v.reason };
  }
  const own = ownValueMissing(reading, checks);
  if (!own.pass) {
    row(own, `abstained: ${own.reason}`);
    return { rejected: true, abstained: true, doubt: own.reason };
  }
  const weak = weakTitle(reading, checks);
  if (!weak.pass) {
    setAsideRow(trace, win.attempt.text, weak);
    return { rejected: true, abstained: false, doubt: weak.reason };
  }
  const unexplained = nothingNear(reading, checks);
  if (!unexplained.pass) {
    row(unexplained, `abstained: ${unexplained.reason ?? ''}`);
    return { rejected: true, abstained: true, doubt: unexplained.reason };
  }
  const unread = wordNotRead(reading, checks);
  if (!unread.pass && !unread.relation) {
    row(unread, `abstained: ${unread.reason ?? ''}`);
    return { rejected: true, abstained: true, doubt: unread.reason };
  }
  if (!unread.pass) {
    setAsideRow(trace, win.attempt.text, unread);
    return { rejected: true, abstained: false, doubt: unread.reason };
  }
  const typed = await storeStep(run, 'execute', 'the classes of a reading', (t) => wrongClass(gw, q, { grounded: win.attempt.form, mentions }, t), { check: 'wrongClass', pass: true });
  if (typed === undefined) return { rejected: true, abstained: false };
  if (!typed.pass) {
    setAsideRow(trace, win.attempt.text, typed);
    return { rejected: true, abstained: false, doubt: typed.reason };
  }
  let signals = winnerSignals(win, beam);
  let sure = tooUncertain({ ...reading, signals }, checks);
  if (!sure.pass) {
    const withPrior = await gw.prior.priorSignals(q, win, beam, run);
    const p = defined(sure.confidence, 'confidence of tooUncertain');
    const p2 = withPrior && gw.calibration ? calibratedProbability(gw.calibration, withPrior) : 0;
    if (withPrior && p2 > p + 0.005) {
      trace.push({ stage: 'execute', groundedForm: win.attempt.text, outcome: 'answers', note: `graph prior: the graph supports this relation reading (confidence ${p.toFixed(2)} → ${p2.toFixed(2)})`, timeMs: 0 });
      signals = withPrior;
      sure = tooUncertain({ ...reading, signals }, checks);
    }
  }
  if (!sure.pass) {
    row(sure, `withheld: ${sure.reason}`);
    return { rejected: true, abstained: false, doubt: sure.reason, uncertain: { signals, p: defined(sure.confidence, 'confidence of tooUncertain') } };
  }
  // last: a reading that drops part of the question is set aside for one that uses it, or answers with a caveat —
  // on a graph with classes, a name of a condition on the class asked for too (typed.ts linkedNames)
  const unused = leavesOut(reading, checks);
  if (!unused.pass) {
    setAsideRow(trace, win.attempt.text, unused);
    return { rejected: true, abstained: false, doubt: unused.reason, signals, caveat: unused };
  }
  return { rejected: false, abstained: false, signals };
}

/** A winner as the checks see it: its beam form, and each mention with the label and match it grounded to. */
export function readingOf(gw: GatewayContext, win: Winner): Reading {
  const texts = entityRefsOf(win.attempt.candidate.form);
  const refs = entityRefs(win.attempt.form);
  return {
    form: win.attempt.candidate.text,
    tree: asGrounded(gw, win),
    grounded: win.attempt.form,
    relationIris: groundedNames(gw, win),
    ...(win.vacuous ? { vacuous: true } : {}),
    mentions: [
      ...texts.map((text, i) => {
        const ref = refs[i];
        const label = ref?.kind === 'iri' ? gw.index.labelsOf(ref.iri)[0] : undefined;
        return { text, ...(label ? { label } : {}), match: win.attempt.entityMatches?.[i] ?? 'exact' };
      }),
      // a CONTAINS text is copied like a mention but never grounded: it explains its own words (no label)
      ...containsTexts(win.attempt.candidate.form).map((text) => ({ text, match: 'exact' as const })),
    ],
  };
}

/**
 * The relation IRIs grounding read the parser's names as, where the name is none of the graph's ("director" →
 * directed_by): what the reading means by it. A graph name grounding replaced by another relation (retrieval around
 * the entity when the parser's own relation found nothing) is not what the parser meant, and does not count.
 */
function groundedNames(gw: GatewayContext, win: Winner): string[] {
  const written = relationRefs(win.attempt.candidate.form);
  const grounded = relationRefs(win.attempt.form);
  if (written.length !== grounded.length) return [];
  const names = graphRelationNames(gw);
  return grounded.flatMap((g, i) => {
    const w = written[i];
    return g.kind === 'iri' && w?.kind === 'name' && !names.has(w.name) ? [g.iri] : [];
  });
}

/**
 * The beam form as grounding read it: each relation name of the graph that grounding replaced by another relation of
 * the graph (retrieval around the entity, when the written one found nothing) written as that one. A reading uses the
 * relations it runs with: the name it wrote in vain is no relation of the question it uses (checks.ts relationUnused).
 */
export function asGrounded(gw: GatewayContext, win: Winner): Form {
  const form = win.attempt.candidate.form;
  const grounded = relationRefs(win.attempt.form);
  if (relationRefs(form).length !== grounded.length) return form;
  const names = graphRelationNames(gw);
  let i = 0;
  let replaced = 0;
  const read = mapRefs(form, {
    relation: (r) => {
      const g = grounded[i++];
      if (r.kind !== 'name' || g?.kind !== 'iri' || !names.has(r.name)) return r;
      const name = relationName(gw, g.iri);
      if (name === undefined || name === r.name) return r;
      replaced++;
      return { kind: 'name', name };
    },
  });
  // (the form itself where grounding replaced nothing)
  return replaced > 0 ? read : form;
}

/** The names the parser writes for the graph's relations (cached per gateway). */
function graphRelationNames(gw: GatewayContext): Set<string> {
  gw.relationNamesCache ??= new Set([...gw.vocabulary].map((iri) => relationName(gw, iri)).filter((n): n is string => n !== undefined));
  return gw.relationNamesCache;
}

/** What the checks know besides the reading: the question, the beam's readings, the graph's words. */
export function checkContext(gw: GatewayContext, q: string, beam: Candidate[]): CheckContext {
  const relWords = relationWordSet(gw);
  return {
    question: q,
    beam: beam.map((c) => ({ form: c.text, mentions: copiedTextsOf(c.form) })),
    graphWord: (w) => gw.index.hasWord(w),
    relationWord: (w) => relWords.has(w) || relWords.has(stem(w)) || gw.index.nonTopicWords.has(w),
    ...(gw.knownWords ? { knownWords: gw.knownWords } : {}),
    farWords: (words) => farWords(gw, words),
    clearRelation: (word) => nearGraph(gw).clearRelation(word),
    near: (names) => nearLabels(gw.index, names),
    askedKind: (mentions) => askedKind(gw, q, mentions),
    givesPlaces: () => givesPlaces(gw),
    ...(gw.calibration ? { calibration: gw.calibration } : {}),
  };
}

/** Words of the graph's relation names and their stems ("directed", "direct"). */
export function relationWordSet(gw: GatewayContext): Set<string> {
  if (!gw.relationWordsCache) {
    const out = new Set<string>();
    for (const iri of gw.vocabulary) {
      const name = relationName(gw, iri);
      if (name) for (const w of relationWords(name).split(' ')) if (w) out.add(w).add(stem(w));
    }
    gw.relationWordsCache = out;
  }
  return gw.relationWordsCache;
}

/** Question words the parser was never shown, outside the entity mentions of the first forms (abstain.ts). */
export function unexplainedQuestionWords(gw: GatewayContext, q: string, beam: Candidate[]): string[] {
  if (!gw.knownWords || gw.knownWords.size === 0) return [];
  const top = beam[0];
  if (!top) return [];
  // Before grounding: the words outside the mentions (the mentions' own words are checked on the winner).
  const mentions = copiedTextsOf(top.form).map((text) => ({ text }));
  // a name of the graph the parser left out ("Lucas") is not a question the graph cannot answer: the readings
  // are judged on whether they use it (checks.ts unusedWords)
  const words = unexplainedWords(q, mentions, gw.knownWords, readsAsRelation(gw));
  const names = graphNames(q, words, (w) => gw.index.hasWord(w));
  return words.filter((w) => !names.includes(w));
}

/** Calibration signals of a winning attempt (calibration.ts). */
export function winnerSignals(win: Winner, beam: Candidate[]): Signals {
  const next = beam.find((c) => c.text !== win.attempt.candidate.text);
  return signalsOf(win.attempt.candidate.logProb, [...win.attempt.entityScores, ...win.attempt.relationScores], next?.logProb);
}
