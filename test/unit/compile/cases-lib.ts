/**
 * The golden compiler cases (fixtures/cases/<name>/): question.txt, form.sexpr, optional options.json
 * (CompileOptions over the movies pack's namespaces), query.rq (expected compiled SPARQL) and answers.json (expected answers: labels of
 * IRIs / lexical forms of literals / the count, sorted). All run on fixtures/graphs/movies-small.ttl
 * (rebuilt by scripts/build-fixture-graph.ts). Shared by the golden runner, the golden updater
 * (scripts/update-golden-cases.ts) and the execute helper's Oxigraph-vs-Virtuoso differential test.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { packageRoot } from '../../../src/core/paths';
import type { AnswerItem, Outcome } from '../../../src/core';
import type { CompileOptions } from '../../../src/compile';
import { MOVIES_NAMESPACES } from '../../helpers/movies';

export interface GoldenCase {
  name: string;
  dir: string;
  question: string;
  form: string;
  options: CompileOptions;
  /** Undefined when the file is missing (the runner fails the case). */
  query?: string;
  answers?: string[];
}

export function casesDir(): string {
  return path.join(packageRoot(), 'fixtures', 'cases');
}

export function fixtureGraph(): string {
  return path.join(packageRoot(), 'fixtures', 'graphs', 'movies-small.ttl');
}

function read(dir: string, file: string): string | undefined {
  const p = path.join(dir, file);
  return fs.existsSync(p) ? fs.readFileSync(p, 'utf8') : undefined;
}

export function loadCases(): GoldenCase[] {
  return fs
    .readdirSync(casesDir())
    .filter((n) => fs.statSync(path.join(casesDir(), n)).isDirectory())
    .sort()
    .map((name) => {
      const dir = path.join(casesDir(), name);
      const options = read(dir, 'options.json');
      const answers = read(dir, 'answers.json');
      const query = read(dir, 'query.rq');
      return {
        name,
        dir,
        question: (read(dir, 'question.txt') ?? '').trim(),
        form: (read(dir, 'form.sexpr') ?? '').trim(),
        // the movies pack's namespaces unless options.json says otherwise (the compiler has none of its own)
        options: { ...MOVIES_NAMESPACES, ...(options ? (JSON.parse(options) as CompileOptions) : {}) },
        ...(query !== undefined ? { query: query.trim() } : {}),
        ...(answers !== undefined ? { answers: JSON.parse(answers) as string[] } : {}),
      };
    });
}

/** What answers.json holds for an outcome: label (or value) of each answer, sorted. */
export function answerStrings(answers: AnswerItem[]): string[] {
  return answers.map((a) => a.label ?? a.value).sort();
}

/**
 * What answers.json holds for an outcome: answerStrings of its answers, or for a table answer its rows in the
 * outcome's order (the form's ORDER BY, else the canonical one), each row its cells' label (or value) joined by
 * " | ", an empty cell written ∅.
 */
export function outcomeStrings(outcome: Outcome): string[] {
  if (!outcome.table) return answerStrings(outcome.answers);
  return outcome.table.rows.map((row) => row.map((c) => (c === null ? '∅' : (c.label ?? c.value))).join(' | '));
}
