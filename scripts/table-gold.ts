/**
 * Gold answers of a hand-written QALD set by running its gold SPARQL on an embedded Oxigraph store: every question's
 * `answers` becomes the SPARQL JSON result of its query (head.vars and bindings — several variables for a table — or
 * the boolean of an ASK). The file is rewritten in place; the questions and queries are not touched.
 *
 *   npx tsx scripts/table-gold.ts fixtures/eval/tables-movies.json store/movies
 *   askgraph load ../shared/data/restaurants/restaurants.nt --store /tmp/rest-store
 *   npx tsx scripts/table-gold.ts fixtures/eval/tables-restaurants.json /tmp/rest-store
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openExecutor } from '../src/execute';
import { parseSparql } from '../src/compile';

interface Question {
  id: string;
  question: { language: string; string: string }[];
  query: { sparql: string };
  answers?: unknown[];
  [key: string]: unknown;
}

async function main(): Promise<void> {
  const [file, store] = process.argv.slice(2);
  if (!file || !store) throw new Error('usage: table-gold.ts FILE.json STORE');
  const data = JSON.parse(fs.readFileSync(file, 'utf8')) as { questions: Question[] };
  const executor = await openExecutor(path.resolve(store), { defaultTimeoutMs: 120_000 });
  try {
    for (const q of data.questions) {
      const sparql = q.query.sparql;
      const parsed = parseSparql(sparql);
      if (parsed.type === 'query' && parsed.queryType === 'ASK') {
        q.answers = [{ head: {}, boolean: await executor.ask(sparql, {}) }];
      } else {
        const res = await executor.select(sparql, {});
        const bindings = res.rows.map((row) =>
          Object.fromEntries(Object.entries(row).map(([k, t]) => [k, { type: t.type, value: t.value, ...(t.datatype ? { datatype: t.datatype } : {}), ...(t.lang ? { 'xml:lang': t.lang } : {}) }])),
        );
        q.answers = [{ head: { vars: res.vars }, results: { bindings } }];
      }
      const a = q.answers[0] as { boolean?: boolean; results?: { bindings: unknown[] } };
      process.stdout.write(`${q.id}\t${a.boolean !== undefined ? String(a.boolean) : `${a.results?.bindings.length ?? 0} rows`}\n`);
    }
  } finally {
    await executor.close();
  }
  fs.writeFileSync(file, JSON.stringify(data, null, 1) + '\n');
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(2);
});
