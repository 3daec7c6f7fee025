import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadKnownWords, misheardAs, substitutedWords, unexplainedReason, unexplainedWords, unmatchedNames, wordsOf } from '../../../src/pipeline/abstain';
import { soundsAlike } from '../../../src/core';
import { expectedAnswer, yesNoWording } from '../../../src/pipeline/wording';

describe('abstention on unexplained words', () => {
  const known = new Set(['who', 'directed', 'when', 'was', 'released', 'films', 'by', 'what', 'is', 'the', 'of']);

  it('a question made of known words and grounded mentions is explained', () => {
    assert.deepEqual(unexplainedWords('who directed Forrest Gump', [{ text: 'Forrest Gump', label: 'Forrest Gump' }], known), []);
  });

  it('names the words no training question used', () => {
    assert.deepEqual(unexplainedWords('what is the population in Paris', [{ text: 'Paris', label: 'Paris' }], known), ['population'], 'function words ("in") are never unexplained');
  });

  it('a leftover word inside a mention is not explained by the label it grounds to', () => {
    assert.deepEqual(unexplainedWords('what was Tom Hanks paid', [{ text: 'Tom Hanks paid', label: 'Tom Hanks' }], known), ['paid']);
  });

  it('a mention word in the place of a label word it does not spell is another name, even a word the parser knows', () => {
    const withMiles = new Set([...known, 'miles', 'movies']);
    // "miles" is a known word, but stands where the label has "Mick": the mention names someone else
    assert.deepEqual(unexplainedWords('what did miles davis direct', [{ text: 'miles davis', label: 'Mick Davis' }], withMiles), ['miles']);
    // a known word beside a label spelt whole is the question's, not the name's ("movies" after a full name)
    assert.deepEqual(unexplainedWords('tom hanks movies', [{ text: 'tom hanks movies', label: 'Tom Hanks' }], withMiles), []);
    // part of a name is no other name: the label's other words are simply not said ("keanu" for Keanu Reeves)
    assert.deepEqual(unexplainedWords('films by keanu', [{ text: 'keanu', label: 'Keanu Reeves' }], withMiles), []);
    assert.deepEqual(substitutedWords({ text: 'miles davis', label: 'Mick Davis' }), ['miles']);
    assert.deepEqual(substitutedWords({ text: 'stephen spielburg', label: 'Steven Spielberg' }), [], 'typos of the label are its words');
    assert.deepEqual(substitutedWords({ text: 'iron woodley', label: 'Aaron Woodley' }), [], 'a word that sounds like the label word is that word misheard');
    assert.deepEqual(substitutedWords({ text: 'the matrix', label: 'The Matrix Reloaded' }), [], 'a mention that spells its words is part of the label');
    assert.deepEqual(substitutedWords({ text: 'miles davis' }), [], 'a mention that grounds to no label is grounding\'s to name');
  });

  it('typos of label words and of known words are explained', () => {
    assert.deepEqual(unexplainedWords('films by hitchcok', [{ text: 'hitchcok', label: 'Alfred Hitchcock' }], known), []);
    assert.deepEqual(unexplainedWords('who direkted Heat', [{ text: 'Heat', label: 'Heat' }], known), []);
    // a variant spelling longer than the label's word: two edits for seven letters ("stephen" for "steven")
    assert.deepEqual(unexplainedWords('stephen spielburg films', [{ text: 'stephen spielburg', label: 'Steven Spielberg' }], known), []);
    assert.deepEqual(unexplainedWords('tom hank born', [{ text: 'tom hank born', label: 'Tom Hanks' }], known), ['born'], 'a short word is no typo of another');
  });

  it('a word that sounds like a known word is explained: a speech recogniser mishears, it does not ask something else', () => {
    // "white" for "what", "rider" for "writer" (a Double Metaphone code in common, within two edits)
    const spoken = new Set([...known, 'writer']);
    assert.deepEqual(unexplainedWords('white is the rider of Heat', [{ text: 'Heat', label: 'Heat' }], spoken), []);
    assert.equal(misheardAs('rider', spoken), 'writer');
    // a word that sounds like none stays unexplained; four letters two edits apart are not alike ("paid", "bad")
    assert.deepEqual(unexplainedWords('what was the salary of Heat', [{ text: 'Heat', label: 'Heat' }], spoken), ['salary']);
    assert.equal(soundsAlike('paid', 'bad'), false);
    assert.equal(soundsAlike('shore', 'share'), true);
    assert.equal(soundsAlike('share', 'share'), false, 'the word itself is no mishearing');
    // a word that reads as something of the graph as it is ("mom": parents) is that, not a mishearing of "mam"
    const withMam = new Set([...known, 'mam']);
    assert.deepEqual(unexplainedWords('who is the mom of Heat', [{ text: 'Heat', label: 'Heat' }], withMam), []);
    assert.deepEqual(unexplainedWords('who is the mom of Heat', [{ text: 'Heat', label: 'Heat' }], withMam, (w) => w === 'mom'), ['mom']);
  });

  it('a plural is explained by its singular: the label its mention grounded to, or a known word', () => {
    assert.deepEqual(unexplainedWords('films by Ada Lind that are not parodies', [{ text: 'Ada Lind', label: 'Ada Lind' }, { text: 'parodies', label: 'Parody' }], new Set([...known, 'not'])), []);
    assert.deepEqual(unexplainedWords('directed films by Ada Lind', [{ text: 'Ada Lind', label: 'Ada Lind' }], new Set([...known, 'film'].filter((w) => w !== 'films'))), []);
    assert.ok(unexplainedWords('films by Ada Lind and her cousins', [{ text: 'Ada Lind', label: 'Ada Lind' }], known).includes('cousins'), 'a plural of an unknown word stays unexplained');
  });

  it('a name of several words that no one label spells is a name the graph lacks, even when its pieces are labels', () => {
    assert.deepEqual(unmatchedNames(['the mayor of Oslo'], ['mayor', 'Oslo']), ['the mayor of Oslo']);
    assert.deepEqual(unmatchedNames(['the grey harbour'], ['The Grey Harbour', 'harbour']), [], 'one label spells it');
    assert.deepEqual(unmatchedNames(['grey harbours'], ['Grey Harbour']), [], 'plurals and typos count as spelled');
    assert.deepEqual(unmatchedNames(['oslo'], ['Bergen']), [], 'one-word mentions are left to grounding');
  });

  it('a mention that grounds to nothing is left to grounding (it says which names the graph lacks)', () => {
    assert.deepEqual(unexplainedWords('who directed blorp', [{ text: 'blorp' }], known), []);
  });

  it('digits and punctuation are never words', () => {
    assert.deepEqual(wordsOf("Schindler's List, 1993?"), ['schindler', 's', 'list']);
  });

  it('reads words.json of a model folder; no file means no abstention data', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ag-words-'));
    assert.equal(loadKnownWords(dir), undefined);
    fs.writeFileSync(path.join(dir, 'words.json'), JSON.stringify({ words: { who: 3, directed: 2 } }));
    assert.deepEqual([...(loadKnownWords(dir) ?? [])], ['who', 'directed']);
    assert.match(unexplainedReason(['born']), /"born"/);
  });

  it('the answer shape a question commits to: counts, yes/no; requests and alternatives commit to none', () => {
    assert.equal(expectedAnswer('how many films did Ron Howard direct'), 'number');
    assert.equal(expectedAnswer('did Ron Howard direct Apollo 13'), 'boolean');
    assert.equal(expectedAnswer('can you name a film directed by Ron Howard'), undefined);
    assert.equal(expectedAnswer('is Heat or Casino older'), undefined);
    assert.equal(expectedAnswer('which films did Ron Howard direct'), undefined);
    // differences (ABSDIFF)
    assert.equal(expectedAnswer('how many years apart were Heat and Casino released'), 'number');
    assert.equal(expectedAnswer('how much older is Heat than Casino'), 'number');
    assert.equal(expectedAnswer('how far apart were Heat and Casino released'), 'number');
    assert.equal(expectedAnswer('by how much does Heat\'s rating exceed Casino\'s'), 'number');
    assert.equal(expectedAnswer('What is the difference in rating between Heat and Casino?'), 'number');
    assert.equal(expectedAnswer('how far is the museum from the station'), undefined);
    // a count per group is a table (GROUPCOUNT), not one number: the wording commits to no shape
    for (const q of ['how many products does each supplier provide', 'number of employees per office', 'how many employees are there for every role', 'Number of players in each club?']) {
      assert.equal(expectedAnswer(q), undefined, q);
    }
    assert.equal(expectedAnswer('how many employees work in each of the two offices'), undefined);
    assert.equal(expectedAnswer('how many employees does the Lisbon office have'), 'number');
  });

  it('yes/no wording: an auxiliary first, or "if" / "whether"; a noun phrase or a wh-question is none', () => {
    for (const q of ['is Heat a thriller', "Didn't Ron Howard direct Apollo 13?", 'do you know if Heat is a thriller', 'tell me whether Ron Howard directed Splash']) assert.ok(yesNoWording(q), q);
    for (const q of ['tom hanks comedies', 'which films did Ron Howard direct', 'Heat director', 'islands in the stream']) assert.ok(!yesNoWording(q), q);
  });

  it('one yes/no opening for both: a question yesNoWording accepts by its first word, expectedAnswer expects yes or no', () => {
    // Negated and modal openings ("didn't", "wasn't", "should", "can't", with ' or ’) were yes/no wording but committed to no answer shape.
    for (const q of ["didn't Ada Lovelace write the first program", 'wasn’t the Eiffel Tower built in 1889', 'should Pluto be a planet', "can't penguins fly", "won't the bridge open"]) {
      assert.ok(yesNoWording(q), q);
      assert.equal(expectedAnswer(q), 'boolean', q);
    }
    assert.equal(expectedAnswer("didn't Ada or Charles write it"), undefined);
  });
});
