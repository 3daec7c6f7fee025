/**
 * Relation matching over a small candidate set (a neighbourhood's relations): src/ground's
 * relationSimilarity against fuse.js (Bitap fuzzy search) on generated names written the way other
 * graphs and parsers write them. Prints top-1 accuracy and the time per ranking.
 *
 *   npx tsx scripts/bench-relation-match.ts
 *
 * The cases are written for this bench (relation names of the movies pack as Freebase, DBpedia,
 * Wikidata-label or plain-English variants, and typos); no question of any data set.
 */
import Fuse from 'fuse.js';
import { relationWords } from '../src/core';
import { relationSimilarity } from '../src/ground';

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

for (const [name, rank] of [['src/ground relationSimilarity', top1Ours], ['fuse.js (name + words, threshold 0.6)', top1Fuse]] as const) {
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
