/**
 * Coverage of the SPARQL → logical form converter (src/compile sparqlToForm) on real data:
 *   1. ../shared/data/cwq/cwq_test.json: share of the `sparql` queries converted, top failure reasons;
 *   2. ../shared/data/grailqa/grailqa_dev.json: `sparql_query` converted and compared with `s_expression`
 *      (formsEqual on normal forms), strictly and with sparqlToForm's innerClasses:'drop' + date timezones
 *      ignored (GrailQA's SPARQL types every node and adds timezones; its s_expression does neither).
 * Run: npx tsx scripts/measure-cwq.ts [--data DIR] [--json] [--examples N]
 */
import * as fs from 'node:fs';
import { Command } from 'commander';
import * as path from 'node:path';
import { sparqlToForm, compileForm } from '../src/compile';
import { parseSparql } from '../src/sparql';
import { parseForm, printForm, formsEqual } from '../src/form';
import { Form, isAskgraphError } from '../src/core';

const FREEBASE = 'http://rdf.freebase.com/ns/';
const OPTS = { vocabularyNamespace: FREEBASE, entityNamespace: FREEBASE, classNamespace: FREEBASE };

const cli = new Command('measure-cwq')
  .option('--data <dir>', 'the shared data folder (holding cwq/)')
  .option('--examples <k>', 'failure examples printed per reason', '3')
  .option('--json', 'print JSON')
  .parse();
const o = cli.opts<{ data?: string; examples: string; json?: boolean }>();

function dataDir(): string {
  const given = o.data;
  if (given) return given;
  for (const c of [path.resolve(__dirname, '../../shared/data'), path.resolve(__dirname, '../../../shared/data'), '/work/shared/data']) {
    if (fs.existsSync(path.join(c, 'cwq'))) return c;
  }
  throw new Error('cannot find shared/data; pass --data DIR');
}

function reasonOf(e: unknown): string {
  if (isAskgraphError(e)) {
    const reason = e.details?.reason;
    return `${e.code}: ${typeof reason === 'string' ? reason : e.message}`;
  }
  return `INTERNAL: ${e instanceof Error ? e.message : String(e)}`;
}

/** Dates compared without their timezone (GrailQA's SPARQL writes 2008-05-08-08:00 where the s_expression has 2008-05-08). */
function dropTimezones(form: Form): Form {
  return JSON.parse(JSON.stringify(form), (k: string, v: unknown) => (k === 'value' && typeof v === 'string' ? v.replace(/^(\d{4}-\d{2}-\d{2})(Z|[+-]\d{2}:\d{2})$/, '$1') : v)) as Form;
}

function main(): void {
  const dir = dataDir();
  const examples = Number(o.examples);
  const t0 = Date.now();
  // ---- CWQ ----
  const cwq = JSON.parse(fs.readFileSync(path.join(dir, 'cwq', 'cwq_test.json'), 'utf8')) as { ID: string; sparql: string; compositionality_type: string }[];
  const reasons = new Map<string, { n: number; ids: string[] }>();
  const byType = new Map<string, { ok: number; n: number }>();
  let converted = 0;
  let recompiled = 0;
  for (const q of cwq) {
    const t = byType.get(q.compositionality_type) ?? { ok: 0, n: 0 };
    t.n++;
    byType.set(q.compositionality_type, t);
    try {
      const form = sparqlToForm(q.sparql, OPTS);
      converted++;
      t.ok++;
      // The converted form must compile again to a query sparqljs parses.
      parseSparql(compileForm(parseForm(printForm(form)), { ...OPTS, typePredicate: FREEBASE + 'type.object.type' }).sparql);
      recompiled++;
    } catch (e) {
      const r = reasonOf(e);
      const entry = reasons.get(r) ?? { n: 0, ids: [] };
      entry.n++;
      if (entry.ids.length < examples) entry.ids.push(q.ID);
      reasons.set(r, entry);
    }
  }
  // ---- GrailQA ----
  const grail = JSON.parse(fs.readFileSync(path.join(dir, 'grailqa', 'grailqa_dev.json'), 'utf8')) as { qid: number; sparql_query: string; s_expression: string }[];
  let gConverted = 0;
  let gStrict = 0;
  let gLoose = 0;
  const gReasons = new Map<string, number>();
  const mismatches: string[] = [];
  for (const q of grail) {
    const gold = parseForm(q.s_expression);
    let strict = false;
    try {
      const form = sparqlToForm(q.sparql_query, OPTS);
      gConverted++;
      strict = formsEqual(form, gold);
      if (strict) gStrict++;
    } catch (e) {
      const r = reasonOf(e);
      gReasons.set(r, (gReasons.get(r) ?? 0) + 1);
    }
    let loose: Form;
    try {
      loose = sparqlToForm(q.sparql_query, { ...OPTS, innerClasses: 'drop' });
    } catch {
      continue;
    }
    if (strict || formsEqual(dropTimezones(loose), gold)) gLoose++;
    else if (mismatches.length < examples) mismatches.push(`${q.qid}\n    gold: ${q.s_expression}\n    ours: ${printForm(loose)}`);
  }
  // Every GrailQA s_expression must compile (Freebase namespaces) to SPARQL that sparqljs parses back.
  let gCompiled = 0;
  let gRoundTrip = 0;
  const compileFailures: string[] = [];
  for (const q of grail) {
    try {
      const gold = parseForm(q.s_expression);
      const sparql = compileForm(gold, { ...OPTS, typePredicate: FREEBASE + 'type.object.type' }).sparql;
      parseSparql(sparql);
      gCompiled++;
      if (formsEqual(sparqlToForm(sparql, OPTS), gold)) gRoundTrip++;
    } catch (e) {
      if (compileFailures.length < examples) compileFailures.push(`${q.qid}: ${reasonOf(e)}`);
    }
  }
  const pct = (a: number, b: number): string => ((100 * a) / b).toFixed(1) + '%';
  const report = {
    cwq: {
      total: cwq.length,
      converted,
      share: converted / cwq.length,
      recompiled,
      byType: Object.fromEntries([...byType].map(([k, v]) => [k, { ...v, share: v.ok / v.n }])),
      topReasons: [...reasons].sort((a, b) => b[1].n - a[1].n).slice(0, 15).map(([reason, v]) => ({ reason, n: v.n, examples: v.ids })),
    },
    grailqa: {
      total: grail.length,
      converted: gConverted,
      agreeStrict: gStrict,
      agreeIgnoringInnerClasses: gLoose,
      sExpressionsCompiled: gCompiled,
      sExpressionsRoundTrip: gRoundTrip,
      failures: [...gReasons].sort((a, b) => b[1] - a[1]).map(([reason, n]) => ({ reason, n })),
    },
    timeMs: Date.now() - t0,
  };
  if (o.json) {
    console.log(JSON.stringify(report, null, 2));
    return;
  }
  console.log(`CWQ test (${dir}/cwq/cwq_test.json): converted ${converted}/${cwq.length} = ${pct(converted, cwq.length)} (recompiled ${recompiled})`);
  for (const [k, v] of byType) console.log(`  ${k.padEnd(14)} ${v.ok}/${v.n} = ${pct(v.ok, v.n)}`);
  console.log('  top reasons for failures:');
  for (const r of report.cwq.topReasons) console.log(`    ${String(r.n).padStart(5)}  ${r.reason}   e.g. ${r.examples.join(', ')}`);
  console.log(`GrailQA dev sparql_query → form: converted ${gConverted}/${grail.length} = ${pct(gConverted, grail.length)}`);
  console.log(`  equal to s_expression (formsEqual): ${gStrict}/${grail.length} = ${pct(gStrict, grail.length)}`);
  console.log(`  equal with innerClasses:'drop' and date timezones ignored: ${gLoose}/${grail.length} = ${pct(gLoose, grail.length)}`);
  for (const [r, n] of gReasons) console.log(`    ${String(n).padStart(5)}  ${r}`);
  console.log(`GrailQA dev s_expression → SPARQL (compileForm, parsed back by sparqljs): ${gCompiled}/${grail.length}; sparqlToForm of that SPARQL equals the s_expression: ${gRoundTrip}/${grail.length}`);
  for (const f of compileFailures) console.log(`    ${f}`);
  if (mismatches.length) console.log('  mismatches, e.g.:\n  ' + mismatches.join('\n  '));
  console.log(`(${report.timeMs} ms)`);
}

main();
