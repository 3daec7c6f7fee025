/** Which reading answers (`choose`): the decisions in the order src/pipeline/README.md "Decisions" lists them. */
import {
  defined,
  type Candidate,
} from '../core';
import { printForm } from '../form';
import { type Signals } from './calibration';
import { leavesOut } from './checks';
import {
  groundCandidates,
  type GroundContext,
} from '../ground';
import { bestReading, halted, isStopped, storeStep, type AttemptRun, type Winner } from './run';
import { type GatewayContext } from './context';
import { fitting, generate } from './generate-pass';
import { asGrounded, checkContext, judge, readingOf, type Judgement } from './judge';
import { attempt } from './attempt';
import { extensions, kindHops, unrepeated } from './repair';
import { graphTypes, typedNote, typedReadings } from './typed';

/** How many more readings are tried after the best one is set aside (unexplained words, too uncertain). */
export const MAX_REJUDGED = 3;

/**
 * How many times a reading set aside only for a relation word it leaves out is extended by that word's hop
 * (`extend`): each time adds one hop, so a one-hop reading of a three-hop question can reach all three.
 */
export const MAX_EXTENSIONS = 2;
/** The grounded readings one extension may execute, beyond what `maxAttempts` left (a count, never a time). */
export const EXTENSION_ATTEMPTS = 8;

/**
 * Whether a reading set aside for what it leaves out may still answer with a caveat: not a bridged or flipped one
 * (src/ground `bridged`, `flipped`) — the hop it adds or the direction it turns is grounding's guess, not the parser's
 * reading, and one that drops a word of the question is no answer to it (the fallback's evidence is asked instead).
 */
function mayCaveat(w: Winner): boolean {
  return w.attempt.phase !== 'bridge' && w.attempt.phase !== 'flip';
}

/** The outcome of choose(): the reading that answers (if any), with its caveat, or why none does. */
export interface Choice {
  beam: Candidate[];
  win?: Winner;
  signals?: Signals;
  /** What the answering reading leaves out of the question (its confidence is then ≤ 0.6). */
  caveat?: string;
  /** The calibrated confidence of a reading withheld as too uncertain that answers after all. */
  uncertain?: number;
  doubt?: string;
  abstained: boolean;
  /** A stopped run: the reading already accepted when it stopped. */
  accepted?: { win: Winner; signals?: Signals };
}

/**
 * Which reading answers: the graph prior on the best reading's relation, then judge(); a reading set aside
 * does not end the search (the next groundings and beam forms, up to MAX_REJUDGED more), then readings of the class
 * the question asks for built from the schema (retype), then the last resort (a vacuous reading), then the extensions
 * of a reading a hop short, then a reading set aside only for what it leaves out (answers with a caveat) or one
 * withheld only as too uncertain that reads the whole question. A stopped run returns what was accepted.
 */
export async function choose(gw: GatewayContext, q: string, win: Winner | undefined, beam: Candidate[], run: AttemptRun, ctx: GroundContext): Promise<Choice> {
  const { o, trace } = run;
  if (win && !o.noAbstain && !run.stopped) win = await gw.prior.relationPrior(q, win, run);

  let verdict = win && !run.stopped ? await judge(gw, q, win, beam, run) : undefined;
  // the best-scored reading set aside only for a part of the question it leaves out: the answer if no reading uses it
  // (the best by its combined score, not the first: a repaired reading the greedy pass ran is no better for being early)
  let caveated: { win: Winner; verdict: Judgement } | undefined;
  // the readings set aside only for relation words they leave out, to extend by those words' hops
  const partial: { win: Winner; verdict: Judgement }[] = [];
  /** Keeps a reading set aside for what it leaves out (whether it was one): the best scored, and those to extend. */
  const keepCaveated = (w: Winner, v: Judgement): boolean => {
    if (!v.caveat || !mayCaveat(w)) return false;
    if (!caveated || w.attempt.score > caveated.win.attempt.score) caveated = { win: w, verdict: v };
    if (shortOfRelation(v)) partial.push({ win: w, verdict: v });
    return true;
  };
  if (win && verdict) keepCaveated(win, verdict);
  // the first reading withheld only as too uncertain (it may use what a better-scored one leaves out)
  let complete = win && verdict?.uncertain ? { win, verdict } : undefined;
  const setAside = [...run.vacuous]; // vacuous readings of every pass, the last resort
  // A reading set aside (a word it leaves unexplained, or too uncertain) does not end the search: the next
  // groundings and beam forms are tried, a few times, before the question goes to the fallback or abstains
  // ("fellini films": the tag "fellini" is too uncertain, Federico Fellini's films are not).
  // (a time budget spent on the way stops the question, timed out: it never decides which reading wins)
  for (let retry = 0; win && verdict?.rejected && !o.noAbstain && retry < MAX_REJUDGED && !halted(run); retry++) {
    if ((run.beamWidth ?? beam.length) < o.beam) {
      const full = await generate(gw, q, o.beam, run);
      if (full.length > 0) beam = full;
      if (run.stopped) break;
    }
    run.winners = [];
    run.vacuous = [];
    await attempt(gw, groundCandidates(fitting(beam, run), ctx, o), run, beam, false);
    if (run.stopped) break;
    setAside.push(...run.vacuous);
    let next = bestReading(run);
    if (!next) break;
    // a vacuous reading (a count "0" over a relation its entity never takes) waits for the last resort where the
    // graph has classes: a reading of the question's own class (retype) comes first
    if (next.vacuous && graphTypes(gw)) break;
    next = await gw.prior.relationPrior(q, next, run);
    if (isStopped(run)) break;
    const v = await judge(gw, q, next, beam, run);
    if (isStopped(run)) break;
    if (!v.rejected) {
      win = next;
      verdict = v;
    } else if (!keepCaveated(next, v) && v.uncertain && !complete) complete = { win: next, verdict: v };
  }
  // the question names the kind of thing it asks for and no reading answers with it: readings built from the schema's
  // paths between that class and the entities the question names (typed.ts), judged as the parser's are — before the
  // last resort: a vacuous count says "0" only where no reading of the question's own class answers
  if ((!win || verdict?.rejected) && !o.noAbstain && !halted(run)) {
    const found = await retype(gw, q, beam, run, ctx);
    if (found && !found.verdict.rejected) {
      win = found.win;
      verdict = found.verdict;
    } else if (found && (run.expected !== undefined || o.fallback === 'off')) {
      // set aside only for what it leaves out: the caveat's answer, as the parser's readings are — where the fallback's
      // evidence is not asked instead (a count or yes/no; the schema's path is a guess of its own, like a bridge)
      keepCaveated(found.win, found.verdict);
    }
  }
  // every reading with answers was set aside: a vacuous count is the graph's answer after all ("how many films
  // did Brad Pitt direct": 0), unless it asks for a fact the graph lacks (judge)
  const lastResort = win && verdict?.rejected && !win.vacuous && !run.stopped ? setAside.find((w) => w !== win) : undefined;
  if (lastResort) {
    const v = await judge(gw, q, lastResort, beam, run);
    if (!v.rejected) {
      win = lastResort;
      verdict = v;
    }
  }
  // a reading set aside only for relation words it leaves out, with those words' hops added anywhere in it (repair.ts
  // extensions): the beam's repairs add one hop to its first readings, a hop short of a question naming three. The
  // reading that leaves out the fewest words is extended first (then the best scored); an extension that still leaves
  // one out is extended in turn.
  for (let ext = 0; win && verdict?.rejected && partial.length > 0 && ext < MAX_EXTENSIONS && !halted(run); ext++) {
    partial.sort((a, b) => leftOut(a.verdict) - leftOut(b.verdict) || b.win.attempt.score - a.win.attempt.score);
    const from = defined(partial.shift(), 'a reading to extend');
    const found = await extend(gw, q, from, beam, run, ctx);
    if (run.stopped) break;
    if (!found) continue;
    if (!found.verdict.rejected) {
      win = found.win;
      verdict = found.verdict;
    } else if (shortOfRelation(found.verdict) && mayCaveat(found.win)) partial.push(found);
  }
  if (run.stopped) return { beam, abstained: false, ...(win && verdict && !verdict.rejected ? { accepted: { win, signals: verdict.signals } } : {}) };
  // no reading uses what the set-aside one left out: it answers, and the answer says what it left out
  let caveat: string | undefined;
  let uncertain: number | undefined;
  // a reading that reads the whole question beats one that drops a word or a number of it, though the parser was
  // unsure of it — not one that drops a relation word (RELATION_UNUSED): readings with that hop added are repair.ts's,
  // not the parser's, and one it is unsure of is no better reading of the question
  const dropsWords = caveated?.verdict.caveat?.code === 'UNUSED_WORDS';
  const whole = dropsWords && caveated && complete && complete.win !== caveated.win ? leavesOut(readingOf(gw, complete.win), checkContext(gw, q, beam)) : undefined;
  if (win && verdict?.rejected && caveated && complete && whole?.pass) {
    const dropped = defined(caveated.verdict.caveat, 'caveat of the set-aside reading');
    win = complete.win;
    verdict = { rejected: false, abstained: false, signals: defined(complete.verdict.uncertain, 'uncertain verdict').signals };
    uncertain = defined(complete.verdict.uncertain, 'uncertain verdict').p;
    caveat = `the reading ${caveated.win.attempt.candidate.text} leaves out ${defined(dropped.words, 'words left out').map((w) => `"${w}"`).join(', ')}; this reading uses ${defined(dropped.words, 'words left out').length > 1 ? 'them' : 'it'}, but the parser was unsure of it (confidence ${uncertain.toFixed(2)})`;
    trace.push({ stage: 'execute', groundedForm: win.attempt.text, outcome: 'answers', answerCount: win.answers.length, note: `answered: ${caveat}`, check: { name: dropped.check, code: dropped.code ?? '' }, timeMs: 0 });
  } else if (win && verdict?.rejected && caveated) {
    win = caveated.win;
    verdict = { ...caveated.verdict, rejected: false };
    const dropped = defined(caveated.verdict.caveat, 'caveat of the set-aside reading');
    caveat = `${dropped.reason}: no reading that uses ${defined(dropped.words, 'words left out').length > 1 ? 'them' : 'it'} found an answer`;
    trace.push({ stage: 'execute', groundedForm: win.attempt.text, outcome: 'answers', answerCount: win.answers.length, note: `answered with a caveat: ${caveat}`, check: { name: dropped.check, code: dropped.code ?? '' }, timeMs: 0 });
  }
  let doubt: string | undefined;
  let abstained = false;
  let signals: Signals | undefined;
  if (win && verdict?.rejected) {
    doubt = verdict.doubt;
    abstained = verdict.abstained;
    win = undefined;
  } else signals = verdict?.signals;

  return { beam, abstained, ...(win ? { win } : {}), ...(signals ? { signals } : {}), ...(caveat ? { caveat } : {}), ...(uncertain !== undefined ? { uncertain } : {}), ...(doubt ? { doubt } : {}) };
}

/** Whether a reading was set aside only for relation words of the question it leaves out (to extend by their hops). */
function shortOfRelation(v: Judgement): boolean {
  return v.caveat?.code === 'RELATION_UNUSED' || v.caveat?.code === 'WRONG_KIND';
}

/** How many words of the question a set-aside reading leaves out. */
function leftOut(v: Judgement): number {
  return v.caveat?.words?.length ?? 0;
}

/**
 * The reading with the hop of each relation word it leaves out added at any place (repair.ts `extensions`), run in
 * the parser's order of them, and the best one with answers judged; undefined when none answers.
 */
async function extend(gw: GatewayContext, q: string, from: { win: Winner; verdict: Judgement }, beam: Candidate[], run: AttemptRun, ctx: GroundContext): Promise<{ win: Winner; verdict: Judgement } | undefined> {
  // the reading as grounding read it: a relation it replaced is the one extended (judge.ts asGrounded); a conjunction
  // of a reading with itself is that reading (repair.ts unrepeated)
  const read = asGrounded(gw, from.win);
  const form = unrepeated(read) ?? read;
  const candidate = from.win.attempt.candidate;
  const reading = form === candidate.form ? candidate : { ...candidate, form, text: printForm(form) };
  const scores = (run.repairScores ??= new Map<string, number>());
  // the answers of another kind than the question asks for (checks.ts wrongKind): the hop to a value of that kind on top
  const kind = from.verdict.caveat?.code === 'WRONG_KIND' ? from.verdict.caveat : undefined;
  if (kind) {
    const extra = await kindHops(gw, q, reading, kind.relations ?? [], beam, scores);
    if (extra.length === 0) return undefined;
    return runExtra(gw, q, extra, beam, run, ctx, `extended readings: ${extra.length} forms: ${reading.text} with the hop to a value "${kind.words?.[0] ?? ''}" asks for`);
  }
  const fixed = await extensions(gw, q, reading, beam, scores);
  const extra = fixed.candidates;
  if (extra.length === 0) return undefined;
  return runExtra(gw, q, extra, beam, run, ctx, `extended readings: ${extra.length} forms: ${reading.text} with the hop of ${fixed.words.map((w) => `"${w.word}" → ${w.note}`).join(', ')}`);
}

/**
 * The question's class joined to the entities it names along the schema's paths (typed.ts typedReadings), run in the
 * parser's order of them and the best one with answers judged; undefined when none answers or none is built.
 */
async function retype(gw: GatewayContext, q: string, beam: Candidate[], run: AttemptRun, ctx: GroundContext): Promise<{ win: Winner; verdict: Judgement } | undefined> {
  const scores = (run.repairScores ??= new Map<string, number>());
  const typed = await storeStep(run, 'ground', 'typed readings: the classes of the entities', (t) => typedReadings(gw, q, beam, scores, { count: run.expected === 'number', timeoutMs: t }), { candidates: [], labels: [] });
  if (!typed || typed.candidates.length === 0) return undefined;
  return runExtra(gw, q, typed.candidates, beam, run, ctx, typedNote(gw, typed));
}

/**
 * Readings beyond the beam (extensions, typed readings) run with their own few attempts — the beam's readings may have
 * spent maxAttempts — and the best one with answers judged; undefined when none answers.
 */
async function runExtra(gw: GatewayContext, q: string, extra: Candidate[], beam: Candidate[], run: AttemptRun, ctx: GroundContext, note: string): Promise<{ win: Winner; verdict: Judgement } | undefined> {
  run.trace.push({ stage: 'generate', outcome: 'answers', answerCount: extra.length, note, timeMs: 0 });
  run.winners = [];
  run.vacuous = [];
  await attempt(gw, groundCandidates(fitting(extra, run), ctx, run.o), run, extra, false, run.n + EXTENSION_ATTEMPTS);
  if (run.stopped) return undefined;
  const next = bestReading(run);
  if (!next || next.vacuous) return undefined;
  return { win: next, verdict: await judge(gw, q, next, beam, run) };
}
