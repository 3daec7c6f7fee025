import { strict as assert } from 'node:assert';
import type { Answer, TraceEntry } from '../../../src/core';
import { parseForm } from '../../../src/form';
import { graphNames, hearingAgain, inIdentifier, isWeakWord, leftOut, noAnswerReason, refusedForWords, secondHearingAnswers, writtenAsCapitalised, numbersOf, unusedWords, weakTitle, type CheckContext, type Reading } from '../../../src/pipeline/checks';

const ctx = (question: string, beam: { form: string; mentions: string[] }[] = [], names: string[] = []): CheckContext => ({
  question,
  beam,
  graphWord: (w) => names.includes(w),
  relationWord: (w) => ['directed', 'direct', 'movies', 'films'].includes(w),
});

describe('pipeline checks (checks.ts)', () => {
  it('isWeakWord: function words and common adjectives / adverbs (WordNet adj.all, adv.all; compromise pronouns) are weak; nouns, names, nationality adjectives and numbers are not', () => {
    for (const w of ['the', 'more', 'best', 'big', 'her', 'every']) assert.equal(isWeakWord(w), true, w);
    for (const w of ['heat', 'lucas', 'french', 'documentaries', '2015']) assert.equal(isWeakWord(w), false, w);
  });

  describe('weakTitle', () => {
    const reading = (text: string, label: string, match: 'exact' | 'fuzzy' | 'partial' = 'exact'): Reading => ({ form: `(JOIN (R directed_by) [ ${text} ])`, mentions: [{ text, label, match }] });

    it('sets aside a fuzzy match resting only on common words ("the best" → "The Best Man")', () => {
      const v = weakTitle(reading('the best', 'The Best Man', 'fuzzy'), ctx('who is the best director'));
      assert.equal(v.pass, false);
      assert.equal(v.code, 'WEAK_TITLE');
      assert.match(v.reason!, /"the best" resembles the name "The Best Man"/);
    });

    it('sets aside a common word the question does not write as the name ("more" in "more than 40 films"), keeps it written as one', () => {
      assert.equal(weakTitle(reading('more', 'More'), ctx('which actors appeared in more than 40 films')).pass, false);
      assert.equal(weakTitle(reading('More', 'More'), ctx('who directed More')).pass, true, 'the label\'s own spelling');
      assert.equal(weakTitle(reading('big', 'Big'), ctx('who directed "big"')).pass, true, 'quoted');
      assert.equal(weakTitle(reading('big', 'Big'), ctx('who directed big')).pass, false);
    });

    it('never judges a name, a nationality or a number', () => {
      assert.equal(weakTitle(reading('Hitchcok', 'Alfred Hitchcock', 'partial'), ctx('which films did Hitchcok direct')).pass, true);
      assert.equal(weakTitle(reading('french', 'French'), ctx('what movies are in french')).pass, true);
      assert.equal(weakTitle(reading('Jurrasic Parc', 'Jurassic Park', 'fuzzy'), ctx('who directed Jurrasic Parc')).pass, true, 'typos share no word with the label');
      assert.equal(weakTitle(reading('2016', '2006', 'fuzzy'), ctx('which movies from 2016 star Tom Hanks')).pass, true);
    });
  });

  describe('unusedWords', () => {
    it('a number of the question the reading does not hold, or holds as another number', () => {
      const v = unusedWords({ form: '(JOIN directed_by [ Spielberg ])', mentions: [{ text: 'Spielberg', label: 'Steven Spielberg', match: 'partial' }] }, ctx('what did Spielberg direct in 2017'));
      assert.equal(v.pass, false);
      assert.equal(v.code, 'UNUSED_WORDS');
      assert.deepEqual(v.words, ['2017']);
      const readAs = unusedWords({ form: '(AND (JOIN release_year [ 2016 ]) (JOIN starred_actors [ Tom Hanks ]))', mentions: [{ text: '2016', label: '2006', match: 'fuzzy' }, { text: 'Tom Hanks', label: 'Tom Hanks', match: 'exact' }] }, ctx('which movies from 2016 star Tom Hanks'));
      assert.match(readAs.reason!, /"2016" is read as "2006"/);
      assert.equal(unusedWords({ form: '(AND (JOIN directed_by [ X ]) (GT release_year 2015))', mentions: [{ text: 'X', label: 'X', match: 'exact' }] }, ctx('X films after 2015')).pass, true);
    });

    it('a word another reading of the beam copies into a mention and this one drops', () => {
      const q = 'how many Werner Herzog movies are documentaries';
      const beam = [
        { form: '(COUNT (JOIN directed_by [ Werner Herzog ]))', mentions: ['Werner Herzog'] },
        { form: '(COUNT (AND (JOIN directed_by [ Werner Herzog ]) (JOIN has_genre [ documentaries ])))', mentions: ['Werner Herzog', 'documentaries'] },
      ];
      const mention = { text: 'Werner Herzog', label: 'Werner Herzog', match: 'exact' as const };
      assert.deepEqual(unusedWords({ form: beam[0]!.form, mentions: [mention] }, ctx(q, beam)).words, ['documentaries']);
      assert.equal(unusedWords({ form: beam[1]!.form, mentions: [mention, { text: 'documentaries', label: 'Documentary', match: 'exact' }] }, ctx(q, beam)).pass, true);
    });

    it('a superlative no ranking, aggregate or comparison of the reading reads; not one inside a mention', () => {
      const mention = { text: 'Norvale', label: 'Norvale', match: 'exact' as const };
      const reading = (form: string, m = [mention]): Reading => ({ form, tree: parseForm(form), mentions: m });
      const v = unusedWords(reading('(AND Shop (JOIN inTown [ Norvale ]))'), ctx('which is the oldest shop in Norvale'));
      assert.equal(v.code, 'UNUSED_WORDS');
      assert.deepEqual(v.words, ['oldest']);
      assert.deepEqual(unusedWords(reading('(AND Shop (JOIN inTown [ Norvale ]))'), ctx('the best shop in Norvale')).words, ['best'], 'WordNet: the superlative of "good"');
      assert.equal(unusedWords(reading('(ARGMIN (AND Shop (JOIN inTown [ Norvale ])) opened)'), ctx('which is the oldest shop in Norvale')).pass, true);
      assert.equal(unusedWords(reading('(MAX (JOIN (R opened) (JOIN inTown [ Norvale ])))'), ctx('when did the newest shop in Norvale open')).pass, true, 'an aggregate reads it');
      assert.equal(unusedWords(reading('(AND Shop (JOIN inTown [ Norvale ]))'), ctx('which shops are in Norvale')).pass, true, 'no superlative');
      const named = { text: 'Best Buns', label: 'Best Buns', match: 'exact' as const };
      assert.equal(unusedWords(reading('(JOIN (R inTown) [ Best Buns ])', [named]), ctx('where is Best Buns')).pass, true, 'a word of a mention is a name');
    });

    it('a capitalised name of the graph outside every mention; relation words and unknown words are no such part', () => {
      const r = { form: '(JOIN directed_by [ Spielberg ])', mentions: [{ text: 'Spielberg', label: 'Steven Spielberg', match: 'partial' as const }] };
      assert.deepEqual(unusedWords(r, ctx('what did Spielberg and Lucas make together', [], ['lucas'])).words, ['lucas']);
      assert.equal(unusedWords(r, ctx('what movies did Spielberg direct', [], ['lucas'])).pass, true);
    });
  });

  it('graphNames: question words written as names (capitalised, or in an identifier) that are words of graph labels', () => {
    assert.deepEqual(graphNames('what did Spielberg and Lucas make', ['lucas', 'make'], (w) => w === 'lucas'), ['lucas']);
    assert.deepEqual(graphNames('what was Tom Hanks paid', ['paid'], () => true), [], 'not capitalised');
    assert.equal(writtenAsCapitalised('who directed the movie Ugly Duckling Sunrise', 'sunrise'), true);
    assert.equal(writtenAsCapitalised('Sunrise is what I mean', 'sunrise'), false, 'the first word of the question is capitalised anyway');
    assert.equal(inIdentifier("how tall was ugly_duckling_sunrise 's keeper", 'duckling'), true, 'a word of an identifier joined by underscores');
    assert.equal(inIdentifier("how tall was ugly_duckling_sunrise 's keeper", 'keeper'), false);
    assert.equal(writtenAsCapitalised("how tall was ugly_duckling_sunrise 's keeper", 'duckling'), false);
    assert.deepEqual(graphNames('where was ann_lark born', ['ann', 'lark', 'born'], (w) => w !== 'born'), ['ann', 'lark']);
  });

  it('leftOut: the numbers and graph names of the question an answer\'s evidence does not hold (fallback answers)', () => {
    const graphWord = (w: string) => ['lucas', 'spielberg'].includes(w);
    assert.deepEqual(leftOut('which Ridley Scott films came out after 2013', '[{"s":"Alien","o":"Ridley Scott"}]', graphWord), ['2013']);
    assert.deepEqual(leftOut('what did Spielberg and Lucas make together', 'Star Wars written_by George Lucas', graphWord), ['spielberg']);
    assert.deepEqual(leftOut('films of Spielberg from 1993', 'Jurassic Park directed_by Steven Spielberg; release_year 1993', graphWord), []);
  });

  it('numbersOf: integers and decimals, not digits inside words', () => {
    assert.deepEqual(numbersOf('after 2015, rated 8.7, not the 90s or R2D2'), ['2015', '8.7']);
  });

  describe('noAnswerReason: read off the trace', () => {
    const row = (t: Partial<TraceEntry>): TraceEntry => ({ stage: 'execute', outcome: 'empty', timeMs: 0, ...t });

    it('names nothing the graph spells, with near labels ("did you mean")', () => {
      const trace = [row({ stage: 'ground', beamForm: '(JOIN (R directed_by) [ Jurasic Prk ])' })];
      assert.equal(noAnswerReason(trace, () => ['Jurassic Park']), 'nothing in the graph is named "Jurasic Prk"; did you mean "Jurassic Park"?');
      assert.equal(noAnswerReason([row({ stage: 'ground', beamForm: '(JOIN has_imdb_rating [ above 8.7 ])' })], () => ['x']), undefined, 'a value is no name');
    });

    it('a name another reading grounded and ran is no name the graph lacks (that form failed for something else)', () => {
      const ran = row({ beamForm: '(JOIN size [ Blue Harbour ])', groundedForm: '(JOIN <size> <harbour>)', sparql: 'SELECT 1' });
      const failed = row({ stage: 'ground', beamForm: '(JOIN size [ the blue harbour ])' });
      assert.equal(noAnswerReason([ran, failed], () => ['Blue Harbour']), 'of 1 readings of the question run on the graph, 1 found nothing in the graph');
      const other = row({ stage: 'ground', beamForm: '(JOIN size [ Red Harbour ])' });
      assert.match(noAnswerReason([ran, failed, other], () => [])!, /^nothing in the graph is named "Red Harbour"$/);
    });

    it('the checks that set readings aside, else counts that agree with the rows', () => {
      const setAside = row({ outcome: 'skipped', note: 'set aside (WEAK_TITLE): "more" spells the name "More" only by common words', check: { name: 'weakTitle', code: 'WEAK_TITLE' } });
      assert.match(noAnswerReason([setAside], () => [])!, /^"more" spells the name "More"/);
      const ran = [row({ sparql: 'SELECT 1', outcome: 'answers', answerCount: 3 }), row({ sparql: 'SELECT 2' }), row({ sparql: 'SELECT 3' })];
      assert.equal(noAnswerReason(ran, () => []), 'of 3 readings of the question run on the graph, 2 found nothing in the graph and 1 found answers that were set aside (see the trace)');
    });

    it('refusedForWords: a refusal for a word or a name the graph lacks, not for a fact it lacks (the last abstention decides)', () => {
      const abstained = (code: string) => row({ stage: 'fallback', outcome: 'skipped', note: `abstained: ${code}`, check: { name: 'x', code } });
      assert.equal(refusedForWords([abstained('NOTHING_NEAR')]), true);
      assert.equal(refusedForWords([abstained('NO_OWN_VALUES')]), false);
      assert.equal(refusedForWords([abstained('NO_OWN_VALUES'), abstained('UNCERTAIN_WORDS')]), true);
      assert.equal(refusedForWords([abstained('NAMED_NOTHING'), abstained('NO_OWN_VALUES')]), false);
      // no abstention: a reading set aside for a word, or a name the beam wrote that nothing in the graph spells
      assert.equal(refusedForWords([row({ outcome: 'skipped', note: 'set aside (NAMED_NOTHING): …', check: { name: 'x', code: 'NAMED_NOTHING' } })]), true);
      assert.equal(refusedForWords([row({ stage: 'ground', beamForm: '(JOIN (R directed_by) [ white sex ])' })]), true);
      assert.equal(refusedForWords([row({ sparql: 'SELECT 1' }), row({ outcome: 'skipped', note: 'set aside (WEAK_TITLE): …', check: { name: 'weakTitle', code: 'WEAK_TITLE' } })]), false);
    });

    it('hearingAgain / secondHearingAnswers: which answers are heard again, and when the second hearing answers instead', () => {
      const answer = (a: Partial<Answer>): Answer => ({ question: 'q', answers: [], form: null, groundedForm: null, sparql: null, source: 'none', confidence: 0, beam: [], trace: [], timings: { generate: 0, ground: 0, execute: 0, fallback: 0, total: 0 }, ...a });
      const item = { value: 'http://example.org/x', label: 'x', type: 'uri' as const };
      const nothingNear = [row({ stage: 'fallback', outcome: 'skipped', note: 'abstained: nothing near', check: { name: 'nothingNear', code: 'NOTHING_NEAR' } })];
      assert.equal(hearingAgain(answer({ trace: nothingNear })), 'refused');
      assert.equal(hearingAgain(answer({ trace: [row({ stage: 'fallback', outcome: 'skipped', note: 'abstained: no height', check: { name: 'ownValueMissing', code: 'NO_OWN_VALUES' } })] })), undefined);
      assert.equal(hearingAgain(answer({ answers: [item], source: 'fallback:paths' })), 'unread');
      assert.equal(hearingAgain(answer({ answers: [item], source: 'parser' })), undefined);
      assert.equal(hearingAgain(answer({ trace: nothingNear, partial: true, timedOut: true })), undefined, 'a stopped question is not heard again');
      // refused first: any answer will do; the fallback's first: only a reading of the parser's
      assert.equal(secondHearingAnswers('refused', answer({ answers: [item], source: 'fallback:paths' })), true);
      assert.equal(secondHearingAnswers('refused', answer({})), false);
      assert.equal(secondHearingAnswers('unread', answer({ answers: [item], source: 'fallback:paths' })), false);
      assert.equal(secondHearingAnswers('unread', answer({ answers: [item], source: 'parser' })), true);
      // stopped by the budget: "timed out", never the first answer instead
      assert.equal(secondHearingAnswers('unread', answer({ partial: true, timedOut: true })), true);
    });
  });
});
