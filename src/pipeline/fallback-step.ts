/** The fallback step: the fallback readers' answer, or the abstention before them (`fallbackStep`). */
import {
  noAnswer,
  type Answer,
  type Candidate,
  type Evidence,
  inDictionary,
  isStopword,
  normalizeLabel,
  singularForms,
} from '../core';
import { chainTrace, defaultReaders, DEFAULT_BUDGET, runChain } from '../fallback';
import { entityRefsOf } from './labels';
import { trimmedMention } from './repair';
import { answerFits } from './typed';
import { namedNothingReason, nothingNearReason, spelledByOne, unexplainedWords, unmatchedNames, wordsOf } from './abstain';
import { leftOut, nothingAsked, placeAsked, writtenAsCapitalised } from './checks';
import { halted, stop, storeStep, type AttemptRun } from './run';
import { fallbackTopics, nearLabels } from './topics';
import { farWords, nearbyRelationWords, nearGraph, questionRelationWords, readsAsRelation, type GatewayContext } from './context';
import { checkContext } from './judge';
import { stopped } from './answer';

/**
 * The fallback readers (evidence from the graph around the question's entities), unless the question abstains
 * first: words nothing the parser was shown explains, or a name of several words no one topic spells. Their
 * answer says what of the question its evidence does not hold (checks.ts leftOut). Undefined: no answer.
 */
export async function fallbackStep(gw: GatewayContext, q: string, beam: Candidate[], run: AttemptRun, readers: ReturnType<typeof defaultReaders>, abstained: boolean): Promise<Answer | undefined> {
  const { o, trace, timings, t0 } = run;
  if (o.fallback !== 'off' && !run.expected && !abstained && !halted(run, 'fallback')) {
    const tf = performance.now();
    const checks = checkContext(gw, q, beam);
    const topics = fallbackTopics(gw.index, checks, q, beam, trace);
    // The readers answer from evidence around the topics: a question word that nothing the parser was shown
    // explains (and that is no topic's name) means the question asks for something else ("the capital of Peru").
    // (the parser's own mentions count as names too: a name the graph lacks is reported as such, not as a word)
    // (a mention that holds a label with words around it, "[ julie_london 's couple ]", is that label: the words
    // around it are the question's, judged as such — repair.ts trimmedMention)
    const mentions = beam[0] ? entityRefsOf(beam[0].form).map((text) => trimmedMention(gw, text) ?? text) : [];
    // (but one lower-case word that is no label and that no topic spells is a word of the question the parser copied, not
    // a name: "where was X [ born ]" — spokenWord)
    const asName = (text: string) => !spokenWord(q, text, topics.map((t) => t.label));
    const named = [...topics.map((t) => ({ text: t.label, label: t.label })), ...mentions.flatMap((text) => (gw.index.hasExact(normalizeLabel(text)) ? [{ text, label: text }] : asName(text) ? [{ text }] : []))];
    // The fallback's answers have no calibrated confidence, and its evidence need not use the question's words: a
    // word nothing the parser was shown explains refuses it — nothing of the graph near the word (NOTHING_NEAR), or
    // a word near the graph that no reading the parser was sure of used (UNCERTAIN_WORDS).
    const unseen = gw.knownWords && gw.knownWords.size > 0 && !o.noAbstain ? unexplainedWords(q, named, gw.knownWords, readsAsRelation(gw)) : [];
    const offTopic = farWords(gw, unseen);
    // a word that reads clearly as one relation is read, if the answer's evidence holds that relation (asked below)
    const read = new Map(unseen.map((w) => [w, nearGraph(gw).clearRelation(w)] as const));
    const unread = unseen.filter((w) => !read.get(w));
    // the fallback's refusal: its reason and check (the code says what it blames: checks.ts refusedForWords)
    const abstain = (reason: string, check: { name: string; code: string }): Answer => {
      trace.push({ stage: 'fallback', outcome: 'skipped', note: `abstained: ${reason}`, check, timeMs: 0 });
      timings.total = performance.now() - t0;
      return noAnswer(q, { reason, beam: beam.map((c) => ({ form: c.text, logProb: c.logProb })), trace, timings });
    };
    const refuse = (): Answer => {
      if (offTopic.length > 0) return abstain(nothingNearReason(offTopic), { name: 'nothingNear', code: 'NOTHING_NEAR' });
      const near = unseen.map((w) => `"${w}" (near "${nearGraph(gw).nearest(w).word ?? ''}")`);
      return abstain(`no reading of the question that uses ${near.slice(0, 3).join(', ')} was confident enough to answer`, { name: 'fallbackUnseenWords', code: 'UNCERTAIN_WORDS' });
    };
    if (offTopic.length > 0 || unread.length > 0) return refuse();
    // a place asked of a graph that gives none (checks.ts placeAsked): the evidence around the topics answers another question
    // and what a topic is (checks.ts nothingAsked): no relation of the evidence says it
    for (const v of o.noAbstain ? [] : [placeAsked(q, checks), nothingAsked(q, named.flatMap((n) => ('label' in n ? [n.text] : [])))]) {
      if (!v.pass) return abstain(v.reason ?? '', { name: v.check, code: v.code ?? '' });
    }
    // A name of several words that no one entity spells ("the president of France": only a tag "president"
    // and a tag "france") is a name the graph lacks; evidence around its pieces answers another question.
    const unnamed = !o.noAbstain && topics.length > 0 ? unmatchedNames(mentions, topics.map((t) => t.label)) : [];
    if (unnamed.length > 0) {
      // words of those mentions no topic spells and the question does not write as a name are words it cannot place
      const spelt = new Set(topics.flatMap((t) => wordsOf(t.label)));
      const placeless = unnamed.flatMap((m) => wordsOf(m)).filter((w) => !spelt.has(w) && !isStopword(w) && !writtenAsCapitalised(q, w));
      const far = farWords(gw, placeless);
      return far.length > 0 ? abstain(nothingNearReason(far), { name: 'nothingNear', code: 'NOTHING_NEAR' }) : abstain(namedNothingReason(unnamed, nearLabels(gw.index, unnamed)), { name: 'unmatchedNames', code: 'NAMED_NOTHING' });
    }
    const score = gw.generator?.score?.bind(gw.generator);
    const scorer = score ? (question: string, forms: string[]) => score(question, forms) : undefined;
    // the relations the question names (words outside the names that read clearly as one): chains without them leave
    // those words unexplained (the paths reader's cost)
    const namedRelations = o.noAbstain ? [] : questionRelationWords(gw, q, named);
    // and those that read clearly as one relation around the topics only: the chains rank by them too (no caveat: the
    // word may mean another relation of the graph)
    const nearby = o.noAbstain ? [] : await storeStep(run, 'fallback', 'the relations around the topics', () => nearbyRelationWords(gw, q, named, topics.map((x) => x.iri)), []);
    if (halted(run) || nearby === undefined) return stopped(gw, q, run, undefined, beam, t0);
    const relationWords = [...namedRelations, ...nearby].flatMap((r) => (r.iri ? [{ word: r.word, iri: r.iri }] : []));
    // on a graph with classes, the class the question asks for: chains that end elsewhere rank after those that fit
    const fits = o.noAbstain ? undefined : await storeStep(run, 'fallback', 'the class asked for', (t) => answerFits(gw, q, named.map((m) => m.text), t), undefined);
    if (halted(run)) return stopped(gw, q, run, undefined, beam, t0);
    const chain = await runChain(readers, {
      question: q,
      topics,
      executor: gw.executor,
      // the readers' work bound is their queries and rows; their time is what is left of the question's, and
      // running out of it stops the question (chain.stopped), it never hands the question to the next reader
      budget: { ...DEFAULT_BUDGET, timeMs: run.left() },
      ...(scorer ? { scorer } : {}),
      ...(gw.relationVocabulary ? { relationVocabulary: gw.relationVocabulary } : {}),
      ...(relationWords.length > 0 ? { relationWords } : {}),
      ...(fits ? { answerFits: fits } : {}),
      labelPredicates: [...gw.pack.config.labelPredicates, ...(gw.pack.config.aliasPredicates ?? [])],
      // the topics are kept out of the readers' answers as the compiler keeps them out of the parser's
      ...(gw.pack.config.excludeTopic !== undefined ? { excludeTopics: gw.pack.config.excludeTopic } : {}),
    });
    trace.push(...chainTrace(chain));
    timings.fallback = performance.now() - tf;
    if (chain.stopped) {
      stop(run, 'fallback', chain.stopped.code, chain.stopped.message);
      return stopped(gw, q, run, undefined, beam, t0);
    }
    if (chain.result && chain.reader && chain.result.answers.length > 0) {
      // the relations the question's words read as clearly that some path of the evidence does not hold: a word the
      // parser was never shown answers only through its relation (wordNotRead's rule); another is a caveat (below)
      const unheld = new Set(unreadInEvidence(new Map([...read, ...relationWords.map((r) => [r.word, { iri: r.iri }] as const)]), chain.result.evidence));
      if (unseen.some((w) => unheld.has(w))) return refuse();
      timings.total = performance.now() - t0;
      // the readers answer from evidence around the topics: a number or a graph name of the question their
      // evidence does not hold ("after 2013", "and Lucas") is left out, and the answer says so (checks.ts leftOut)
      const held = JSON.stringify(chain.result.evidence) + trace.filter((t) => t.stage === 'fallback' && t.reader === chain.reader).map((t) => t.note ?? '').join(' ');
      // and so is a relation the question names by a word that reads clearly as it, when the evidence does not hold it
      const left = [...(o.noAbstain ? [] : leftOut(q, held, (w) => gw.index.hasWord(w))).map((n) => `"${n}"`), ...namedRelations.filter((r) => unheld.has(r.word)).map((r) => `"${r.word}" (read as ${r.note})`)];
      const caveat = left.length ? `the fallback reader's answer leaves out ${left.join(', ')} of the question: no reading of the whole question found an answer` : undefined;
      return {
        question: q,
        answers: chain.result.answers,
        answerType: 'entities',
        form: null,
        groundedForm: null,
        sparql: null,
        source: `fallback:${chain.reader}`,
        confidence: chain.result.confidence,
        ...(caveat ? { reason: caveat } : {}),
        beam: beam.map((c) => ({ form: c.text, logProb: c.logProb })),
        trace,
        evidence: chain.result.evidence,
        timings,
      };
    }
  }

  return undefined;
}

/**
 * The words, each read clearly as a relation (NearGraph.clearRelation), whose relation some path of the fallback's
 * evidence does not hold (each answer's path is its own reading: two chains that each leave out another word leave out
 * both). A word the parser was never shown answers only through its relation (wordNotRead's rule for readings).
 */
export function unreadInEvidence(read: ReadonlyMap<string, { iri: string } | undefined>, evidence: readonly Evidence[]): string[] {
  const paths = evidence.map((e) => new Set(e.triples.map((t) => t.p.value)));
  return [...read].flatMap(([w, r]) => (r && paths.some((used) => !used.has(r.iri)) ? [w] : []));
}

/**
 * Whether a mention the parser wrote that is no label is a word of the question rather than a name: one content word,
 * written in lower case, that no topic's label spells (up to typos and plurals: abstain.ts unexplainedWords) — "where
 * was X [ born ]". Such a word is judged as the question's other words are; a name of several words stays a name
 * (unmatchedNames says the graph lacks it).
 */
export function spokenWord(question: string, mention: string, topicLabels: readonly string[]): boolean {
  const content = wordsOf(mention).filter((w) => !isStopword(w));
  if (content.length !== 1 || content.some((w) => writtenAsCapitalised(question, w))) return false;
  // (a word of the language is spelt only as written or as a plural: "nationality" is no typo of the tag "nationalism")
  const [word] = content;
  if (word !== undefined && inDictionary(word)) return !topicLabels.some((label) => wordsOf(label).some((l) => l === word || [...singularForms(word)].includes(l)));
  return !spelledByOne(mention, topicLabels);
}
