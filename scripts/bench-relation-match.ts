/**
 * Relation matching over a small candidate set (a neighbourhood's relations): src/ground's phrase grounding
 * (rankPhrase: names as words + WordNet + GloVe), its lexical part alone (relationSimilarity) and fuse.js (Bitap
 * fuzzy search), on generated names written the way other graphs and parsers write them, and on phrases people
 * use for relations and classes of two small made-up schemas (PEOPLE_CASES). Prints top-1 accuracy and the time
 * per ranking.
 *
 *   npx tsx scripts/bench-relation-match.ts
 *
 * The cases are written for this bench (relation names of the movies pack as Freebase, DBpedia,
 * Wikidata-label or plain-English variants, and typos); no question of any data set.
 */
import Fuse from 'fuse.js';
import { relationWords } from '../src/core';
import { rankPhrase, relationSimilarity, type RelationInfo } from '../src/ground';

const NS = 'http://askgraph.dev/movies/relation/';
const RELATIONS = ['directed_by', 'written_by', 'starred_actors', 'release_year', 'in_language', 'has_tags', 'has_genre', 'has_imdb_votes', 'has_imdb_rating'];
const CANDIDATES = RELATIONS.map((name) => ({ iri: NS + name, name }));

const CASES: [generated: string, expected: string][] = [
  ['film.film.directed_by', 'directed_by'], ['directedBy', 'directed_by'], ['director', 'directed_by'], ['directed', 'directed_by'],
  ['drected_by', 'directed_by'], ['directed_bye', 'directed_by'],
  ['film.film.written_by', 'written_by'], ['writer', 'written_by'], ['writtenBy', 'written_by'], ['writen_by', 'written_by'],
  ['starring', 'starred_actors'], ['actors', 'starred_actors'], ['film.film.starring', 'starred_actors'], ['starredActors', 'starred_actors'], ['stared_actors', 'starred_actors'],
  ['release_date', 'release_year'], ['releaseYear', 'release_year'], ['year', 'release_year'], ['film.film.initial_release_date', 'release_year'], ['relase_year', 'release_year'],
  ['language', 'in_language'], ['film.film.language', 'in_language'], ['originalLanguage', 'in_language'], ['in_langauge', 'in_language'],
  ['tags', 'has_tags'], ['keywords_tags', 'has_tags'], ['has_tag', 'has_tags'],
  ['genre', 'has_genre'], ['film.film.genre', 'has_genre'], ['hasGenre', 'has_genre'], ['has_genres', 'has_genre'],
  ['imdb_votes', 'has_imdb_votes'], ['votes', 'has_imdb_votes'], ['number_of_imdb_votes', 'has_imdb_votes'],
  ['imdb_rating', 'has_imdb_rating'], ['rating', 'has_imdb_rating'], ['imdbRating', 'has_imdb_rating'], ['has_imbd_rating', 'has_imdb_rating'],
];

function top1Phrase(generated: string, candidates: readonly RelationInfo[] = CANDIDATES): string | undefined {
  const best = rankPhrase(generated, candidates)[0];
  return best && best.score >= 0.3 ? best.name : undefined;
}

function top1Ours(generated: string): string | undefined {
  let best: { name: string; score: number } | undefined;
  for (const c of CANDIDATES) {
    const score = relationSimilarity(generated, c);
    if (!best || score > best.score || (score === best.score && c.name < best.name)) best = { name: c.name, score };
  }
  return best && best.score >= 0.3 ? best.name : undefined;
}

const fuse = new Fuse(CANDIDATES.map((c) => ({ ...c, words: relationWords(c.name) })), { keys: ['name', 'words'], includeScore: true, ignoreLocation: true, threshold: 0.6 });
function top1Fuse(generated: string): string | undefined {
  return fuse.search(relationWords(generated))[0]?.item.name;
}

for (const [name, rank] of [['src/ground rankPhrase (lexical + WordNet + GloVe)', top1Phrase], ['src/ground relationSimilarity (lexical only)', top1Ours], ['fuse.js (name + words, threshold 0.6)', top1Fuse]] as const) {
  const t0 = performance.now();
  let ok = 0;
  const misses: string[] = [];
  for (let rep = 0; rep < 20; rep++) {
    for (const [g, want] of CASES) {
      const got = rank(g);
      if (rep === 0) {
        if (got === want) ok++;
        else misses.push(`${g} → ${got ?? '(none)'}`);
      }
    }
  }
  const us = ((performance.now() - t0) * 1000) / (20 * CASES.length);
  console.log(`${name}: top-1 ${ok}/${CASES.length} (${((100 * ok) / CASES.length).toFixed(1)}%), ${us.toFixed(1)} µs per ranking of ${CANDIDATES.length}; misses: ${misses.join(', ') || 'none'}`);
}

// Phrases people use for relations and classes of schemas they have not read (written for this bench).
const EX = 'http://example.org/schema/';
const SCHEMA = ['headquarteredIn', 'foundingDate', 'employeeCount', 'chiefExecutive', 'industry', 'birthPlace', 'birthDate', 'deathPlace', 'spouse', 'occupation', 'hasInstrument', 'memberOf', 'age', 'nationality', 'height', 'Recording', 'Person', 'Organization', 'City', 'Instrument', 'Award']
  .map((name) => ({ iri: EX + name, name }));
const fusePeople = new Fuse(SCHEMA.map((c) => ({ ...c, words: relationWords(c.name) })), { keys: ['name', 'words'], includeScore: true, ignoreLocation: true, threshold: 0.6 });
const PEOPLE_CASES: [phrase: string, expected: string[]][] = [
  ['based in', ['headquarteredIn']], ['headquarters', ['headquarteredIn']], ['how old', ['age', 'birthDate']], ['born', ['birthPlace', 'birthDate']],
  ['died', ['deathPlace']], ['married to', ['spouse']], ['wife', ['spouse']], ['husband', ['spouse']], ['job', ['occupation']], ['profession', ['occupation']],
  ['works as', ['occupation']], ['founded', ['foundingDate']], ['staff', ['employeeCount']], ['workers', ['employeeCount']], ['boss', ['chiefExecutive']],
  ['ceo', ['chiefExecutive']], ['sector', ['industry']], ['business', ['industry']], ['citizenship', ['nationality']], ['how tall', ['height']], ['member of', ['memberOf']],
  ['belongs to', ['memberOf']], ['instrument', ['hasInstrument', 'Instrument']], ['songs', ['Recording']], ['tracks', ['Recording']], ['people', ['Person']], ['companies', ['Organization']],
  ['firms', ['Organization']], ['towns', ['City']], ['prizes', ['Award']], ['awards', ['Award']],
];
for (const [name, rank] of [['rankPhrase (lexical + WordNet + GloVe)', (p: string) => top1Phrase(p, SCHEMA)], ['relationSimilarity (lexical only)', (p: string) => {
  let best: { name: string; score: number } | undefined;
  for (const c of SCHEMA) {
    const score = relationSimilarity(p, c);
    if (!best || score > best.score || (score === best.score && c.name < best.name)) best = { name: c.name, score };
  }
  return best && best.score >= 0.3 ? best.name : undefined;
}], ['fuse.js (name + words, threshold 0.6)', (p: string) => fusePeople.search(relationWords(p))[0]?.item.name]] as const) {
  let ok = 0;
  const misses: string[] = [];
  for (const [p, want] of PEOPLE_CASES) {
    const got = rank(p);
    if (got && want.includes(got)) ok++;
    else misses.push(`${p} → ${got ?? '(none)'}`);
  }
  console.log(`people's phrases, ${name}: top-1 ${ok}/${PEOPLE_CASES.length} (${((100 * ok) / PEOPLE_CASES.length).toFixed(1)}%) over ${SCHEMA.length} relations and classes; misses: ${misses.join(', ') || 'none'}`);
}
