import { strict as assert } from 'node:assert';
import type { TraceEntry } from '../../../src/core';
import { parseForm } from '../../../src/form';
import { answerShape, endsBackwards, formFits, noAnswerReason, rankable, ownValueMissing, tooUncertain, unexplainedMentionWords, type CheckContext, type Reading } from '../../../src/pipeline/checks';
import type { Calibration } from '../../../src/pipeline/calibration';

// Each of judge()'s rules alone: a reading and a context in, a verdict with its reason code out (checks.ts).
const ctx = (question: string, more: Partial<CheckContext> = {}): CheckContext => ({ question, beam: [], ...more });

describe('pipeline judging checks, each alone (checks.ts)', () => {
  describe('answerShape', () => {
    const reading = (answerType: 'entities' | 'number' | 'boolean'): Reading => ({ form: '(X)', mentions: [], answerType });

    it('WRONG_SHAPE: a set where the wording asks for a number, a number where it asks yes or no', () => {
      const v = answerShape(reading('entities'), ctx('how many lakes does Ruritania have', { expected: 'number' }));
      assert.deepEqual([v.pass, v.code, v.check], [false, 'WRONG_SHAPE', 'answerShape']);
      assert.equal(v.reason, 'answers entities, the question asks for a number');
      assert.equal(answerShape(reading('number'), ctx('is Ruritania a lake', { expected: 'boolean' })).code, 'WRONG_SHAPE');
      assert.equal(answerShape(reading('number'), ctx('how many lakes', { expected: 'number' })).pass, true);
    });

    it('NOT_YES_NO: a yes/no reading of wording that cannot ask yes or no; fine where it can or nothing is known', () => {
      const v = answerShape(reading('boolean'), ctx('lakes of Ruritania', { yesNo: false }));
      assert.deepEqual([v.pass, v.code], [false, 'NOT_YES_NO']);
      assert.equal(answerShape(reading('boolean'), ctx('is there a lake in Ruritania', { yesNo: true, expected: 'boolean' })).pass, true);
      assert.equal(answerShape(reading('boolean'), ctx('lakes of Ruritania')).pass, true, 'no wording facts: passes');
    });
  });

  describe('rankable', () => {
    const reading = (form: string): Reading => ({ form, mentions: [], answerType: 'entities', tree: parseForm(form) });

    it('UNRANKABLE: a ranking or comparison by a relation read backwards, at any depth', () => {
      const v = rankable(reading('(ARGMAX (JOIN located_in [ Ruritania ]) (R capital_of))'), ctx('which is the largest'));
      assert.deepEqual([v.pass, v.code, v.check], [false, 'UNRANKABLE', 'rankable']);
      assert.match(v.reason ?? '', /\(R capital_of\) read backwards/);
      assert.equal(rankable(reading('(COUNT (ARGMIN (JOIN located_in [ Ruritania ]) (JOIN area (R unit_of))))'), ctx('q')).code, 'UNRANKABLE', 'a path ending backwards');
      assert.equal(rankable(reading('(AND (JOIN located_in [ Ruritania ]) (GT (R founded_by) 1900^^http://www.w3.org/2001/XMLSchema#integer))'), ctx('q')).code, 'UNRANKABLE', 'a comparison');
    });

    it('passes a ranking by values: a relation forwards, a path ending forwards, and forms that rank nothing', () => {
      assert.equal(rankable(reading('(ARGMAX (JOIN located_in [ Ruritania ]) area)'), ctx('q')).pass, true);
      assert.equal(rankable(reading('(ARGMAX (JOIN located_in [ Ruritania ]) (JOIN (R capital_of) population))'), ctx('q')).pass, true);
      assert.equal(rankable(reading('(JOIN (R capital_of) [ Ruritania ])'), ctx('q')).pass, true);
      assert.equal(rankable({ form: '(X)', mentions: [] }, ctx('q')).pass, true, 'no parsed form: passes');
    });

    it('endsBackwards reads the last step of a path, through reversals', () => {
      const rel = (f: string) => {
        const t = parseForm(`(ARGMAX (JOIN a [ X ]) ${f})`);
        if (t.kind !== 'arg') throw new Error('not a ranking');
        return endsBackwards(t.relation);
      };
      assert.deepEqual(['r', '(R r)', '(R (R r))', '(JOIN a (R b))', '(JOIN (R a) b)', '(R (JOIN a b))', '(R (JOIN (R a) b))'].map(rel), [false, true, false, true, false, true, false]);
    });

    it('formFits: answerShape first, then rankable', () => {
      const r = { ...reading('(ARGMAX (JOIN located_in [ Ruritania ]) (R capital_of))') };
      assert.equal(formFits(r, ctx('how many', { expected: 'number' })).code, 'WRONG_SHAPE');
      assert.equal(formFits(r, ctx('which')).code, 'UNRANKABLE');
    });
  });

  describe('ownValueMissing', () => {
    const reading = (form: string, vacuous: boolean): Reading => ({ form, tree: parseForm(form), mentions: [], vacuous });

    it('NO_OWN_VALUES: a vacuous count of an entity\'s own values is a fact the graph lacks, not "0"', () => {
      const v = ownValueMissing(reading('(COUNT (JOIN (R painted_by) [ Blue Hour ]))', true), ctx('how many painters did Blue Hour have'));
      assert.deepEqual([v.pass, v.code], [false, 'NO_OWN_VALUES']);
      assert.equal(v.reason, 'the graph records no painted by for "Blue Hour"');
    });

    it('passes a count that is not vacuous, and a vacuous count of things pointing at the entity (0 is an answer)', () => {
      assert.equal(ownValueMissing(reading('(COUNT (JOIN (R painted_by) [ Blue Hour ]))', false), ctx('q')).pass, true);
      assert.equal(ownValueMissing(reading('(COUNT (JOIN painted_by [ Ana Reyes ]))', true), ctx('q')).pass, true);
    });
  });

  describe('unexplainedMentionWords', () => {
    const known = new Set(['who', 'painted', 'what', 'did', 'paint']);
    const reading = (mentions: { text: string; label?: string }[]): Reading => ({ form: '(X)', mentions: mentions.map((m) => ({ ...m, match: 'exact' as const })) });

    it('UNEXPLAINED_WORDS: a mention word its entity does not spell, that the parser was never shown', () => {
      const v = unexplainedMentionWords(reading([{ text: 'the frame of Blue Hour', label: 'Blue Hour' }]), ctx('who painted the frame of Blue Hour', { knownWords: known }));
      assert.deepEqual([v.pass, v.code, v.words], [false, 'UNEXPLAINED_WORDS', ['frame']]);
      assert.match(v.reason!, /nothing askgraph can match to "frame"/);
    });

    it('NAMED_NOTHING: name words (capitalised) its entity does not spell: the graph lacks that name, with labels near it', () => {
      const asked: string[][] = [];
      const v = unexplainedMentionWords(reading([{ text: 'Blue Hour Tide', label: 'Blue Hour' }]), ctx('who painted Blue Hour Tide', { knownWords: known, near: (n) => (asked.push(n), ['Blue Hour']) }));
      assert.deepEqual([v.pass, v.code, v.words], [false, 'NAMED_NOTHING', ['tide']]);
      assert.equal(v.reason, 'nothing in the graph is named "Blue Hour Tide"; did you mean "Blue Hour"?');
      assert.deepEqual(asked, [['Blue Hour Tide']]);
    });

    it('NAMED_NOTHING: another name in the place of a word of the label, written in lower case and known to the parser', () => {
      const v = unexplainedMentionWords(reading([{ text: 'rose tide', label: 'Blue Tide' }]), ctx('who painted rose tide', { knownWords: new Set([...known, 'rose']), near: () => ['Blue Tide'] }));
      assert.deepEqual([v.pass, v.code, v.words], [false, 'NAMED_NOTHING', ['rose']]);
      assert.equal(v.reason, 'nothing in the graph is named "rose tide"; did you mean "Blue Tide"?');
    });

    it('passes when every word is explained, and without known words; a graph name outside the mentions is left to unusedWords', () => {
      assert.equal(unexplainedMentionWords(reading([{ text: 'Blue Hour', label: 'Blue Hour' }]), ctx('who painted Blue Hour', { knownWords: known })).pass, true);
      assert.equal(unexplainedMentionWords(reading([{ text: 'the frame of Blue Hour', label: 'Blue Hour' }]), ctx('who painted the frame of Blue Hour')).pass, true);
      const withName = ctx('what did Ana Reyes and Tomasz paint', { knownWords: known, graphWord: (w) => w === 'tomasz' });
      assert.equal(unexplainedMentionWords(reading([{ text: 'Ana Reyes', label: 'Ana Reyes' }]), withName).pass, true);
    });

    it('a word of a name of a condition on the class asked for (typed.ts linkedNames) is a name of the graph in lower case too', () => {
      const q = 'what did Ana Reyes paint in oils';
      const mention = [{ text: 'Ana Reyes', label: 'Ana Reyes' }];
      assert.deepEqual(unexplainedMentionWords(reading(mention), ctx(q, { knownWords: known })).words, ['oils']);
      assert.equal(unexplainedMentionWords(reading(mention), ctx(q, { knownWords: known, linkedNames: ['oils'] })).pass, true);
    });
  });

  describe('tooUncertain', () => {
    const calibration: Calibration = { signals: ['logProb', 'margin'], weights: [1, 0], bias: 0, threshold: 0.4 };
    const reading = (logProb: number): Reading => ({ form: '(JOIN painted_by [ Ana Reyes ])', mentions: [], signals: { logProb, grounding: 0, margin: 1 } });

    it('TOO_UNCERTAIN: the calibrated confidence below the threshold, with the confidence it judged', () => {
      const v = tooUncertain(reading(-2), ctx('q', { calibration }));
      assert.deepEqual([v.pass, v.code], [false, 'TOO_UNCERTAIN']);
      assert.ok(Math.abs(v.confidence! - 1 / (1 + Math.exp(2))) < 1e-9);
      assert.equal(v.reason, "the parser's best reading, (JOIN painted_by [ Ana Reyes ]), is too uncertain (confidence 0.12 < 0.40)");
    });

    it('passes above the threshold, and without a calibration', () => {
      assert.equal(tooUncertain(reading(0), ctx('q', { calibration })).pass, true);
      assert.equal(tooUncertain(reading(-9), ctx('q')).pass, true);
    });
  });

  it('noAnswerReason reads only the set-aside rows: a skipped row of another check (answerShape) does not become the reason', () => {
    const shape: TraceEntry = { stage: 'execute', outcome: 'skipped', note: 'answers yes or no, the question is not worded as a yes/no question', check: { name: 'answerShape', code: 'NOT_YES_NO' }, timeMs: 0 };
    const ran: TraceEntry = { stage: 'execute', outcome: 'empty', sparql: 'SELECT 1', timeMs: 0 };
    assert.equal(noAnswerReason([shape, ran], () => []), 'of 1 readings of the question run on the graph, 1 found nothing in the graph');
  });
});
