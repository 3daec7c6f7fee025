import { AnswerItem, AskgraphError, defined, Term } from '../../core';
import { compileForm, packCompileOptions, packNamespaces, type CompileOptions } from '../../compile';
import { parseForm, printForm } from '../../form';
import { loadPack, openExecutor, packOfStore, runCompiled } from '../../execute';
import { printJson, writeLine } from '../io';
import { intArg } from '../options';
import type { RegisterCommand } from './index';

interface RunOpts {
  sparql?: string;
  store?: string;
  json?: boolean;
  timeout: number;
  ns?: string;
}

function showTerm(t: Term, labels: Map<string, string>): string {
  if (t.type === 'uri') return labels.has(t.value) ? `${labels.get(t.value)} <${t.value}>` : `<${t.value}>`;
  if (t.type === 'bnode') return `_:${t.value}`;
  return JSON.stringify(t.value) + (t.lang ? `@${t.lang}` : t.datatype ? `^^<${t.datatype}>` : '');
}

function showAnswer(a: AnswerItem): string {
  if (a.type === 'literal') return a.value;
  return a.label !== null ? `${a.label}\t<${a.value}>` : `<${a.value}>`;
}

/**
 * Compile options from the store's pack (src/compile packCompileOptions); a store without a pack (an
 * endpoint, a data file) takes the embedded pack's namespaces, as `askgraph compile` does; --ns overrides.
 */
async function compileOptions(store: string | undefined, ns: string | undefined): Promise<CompileOptions> {
  const pack = await packOfStore(store);
  const opts: CompileOptions = pack ? packCompileOptions(pack.config) : packNamespaces((await loadPack()).config);
  if (ns) opts.vocabularyNamespace = ns;
  return opts;
}

/**
 * `askgraph run "<form>" | --sparql "<query>" [--store DIR|URL] [--json] [--timeout MS]`: runs a logical
 * form (compiled for the store's vocabulary) or a read-only SPARQL query on the embedded store, a store
 * folder, or an endpoint, and prints the answers with their labels.
 */
export const register: RegisterCommand = (program, io) => {
  program
    .command('run')
    .description('run a logical form or a SPARQL query on a store and print the answers (label and IRI)')
    .argument('[form]', 'a logical form, e.g. "(JOIN (R directed_by) [ Forrest Gump ])"')
    .option('--sparql <query>', 'run this read-only SPARQL query instead of a form')
    .option('--store <dir|url>', 'store folder / pack / data file, or an http(s) SPARQL endpoint (default: the embedded movies store)')
    .option('--ns <iri>', 'vocabulary namespace for bare relation names (default: the store pack\'s, else the embedded pack\'s)')
    .option('--timeout <ms>', 'query timeout in milliseconds', intArg('--timeout'), 30000)
    .option('--json', 'print JSON')
    .action(async (formText: string | undefined, opts: RunOpts) => {
      const timeoutMs = opts.timeout;
      if ((formText === undefined) === (opts.sparql === undefined)) {
        throw new AskgraphError('BAD_REQUEST', 'give either a form or --sparql "<query>"');
      }
      const store = opts.store ?? io.env.ASKGRAPH_STORE;
      // parse and compile before opening the store: a bad form fails fast
      const form = formText !== undefined ? { text: formText, compiled: compileForm(parseForm(formText), await compileOptions(store, opts.ns)) } : undefined;
      const executor = await openExecutor(store, { defaultTimeoutMs: timeoutMs });
      try {
        if (form) {
          const { compiled } = form;
          const outcome = await runCompiled(executor, compiled, { timeoutMs });
          if (outcome.error) throw new AskgraphError(outcome.error.code as never, outcome.error.message);
          if (opts.json) {
            printJson(io, { store: executor.id, form: printForm(parseForm(form.text)), sparql: compiled.sparql, ...outcome });
            return;
          }
          if (outcome.answers.length === 0) writeLine(io.stdout, '(no answers)');
          for (const a of outcome.answers) writeLine(io.stdout, showAnswer(a));
          return;
        }
        const t0 = Date.now();
        const result = await executor.query(defined(opts.sparql, 'the --sparql query'), { timeoutMs });
        const timeMs = Date.now() - t0;
        if (typeof result === 'boolean') {
          if (opts.json) printJson(io, { store: executor.id, boolean: result, timeMs });
          else writeLine(io.stdout, String(result));
          return;
        }
        if (Array.isArray(result)) {
          if (opts.json) printJson(io, { store: executor.id, triples: result, timeMs });
          else for (const t of result) writeLine(io.stdout, `${showTerm(t.s, new Map())} ${showTerm(t.p, new Map())} ${showTerm(t.o, new Map())} .`);
          return;
        }
        const sel = result;
        const iris = sel.rows.flatMap((r) => Object.values(r).filter((t) => t.type === 'uri').map((t) => t.value));
        const labels = iris.length ? await executor.labels(iris, { timeoutMs }).catch(() => new Map<string, string>()) : new Map<string, string>();
        if (opts.json) {
          printJson(io, { store: executor.id, vars: sel.vars, rows: sel.rows, labels: Object.fromEntries(labels), timeMs });
          return;
        }
        if (sel.rows.length === 0) writeLine(io.stdout, '(no results)');
        for (const row of sel.rows) writeLine(io.stdout, sel.vars.map((v) => (row[v] ? showTerm(row[v], labels) : '')).join('\t'));
      } finally {
        await executor.close();
      }
    });
};
