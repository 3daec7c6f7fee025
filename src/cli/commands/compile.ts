import { compileForm, packCompileOptions, type CompileOptions } from '../../compile';
import { loadPack } from '../../execute';
import { parseForm } from '../../form';
import { printJson, writeLine } from '../io';
import { intArg } from '../options';
import type { RegisterCommand } from './index';

interface CompileOpts {
  ns?: string;
  entityNs?: string;
  classNs?: string;
  typePredicate?: string;
  labelPredicate?: string[];
  labelLanguage?: string[];
  excludeTopic: boolean;
  limit?: number;
  json?: boolean;
}

/**
 * `askgraph compile "<form>" [--ns IRI] [--label-predicate IRI…] [--no-exclude-topic] [--json]`: prints the
 * SPARQL a logical form compiles to. Needs no store: bare relation names resolve against --ns (default: the
 * embedded pack's vocabulary namespace, read from its pack.json), [ label ] entities compile to a label match.
 */
export const register: RegisterCommand = (program, io) => {
  program
    .command('compile')
    .description('print the SPARQL a logical form compiles to (no store needed)')
    .argument('<form>', 'a logical form, e.g. "(JOIN (R directed_by) [ Forrest Gump ])"')
    .option('--ns <iri>', "vocabulary namespace for bare relation names (default: the embedded pack's)")
    .option('--entity-ns <iri>', "namespace for bare entity ids such as m.0abc (default: the embedded pack's, <baseIri>entity/)")
    .option('--class-ns <iri>', 'namespace for bare class names (default: the vocabulary namespace)')
    .option('--type-predicate <iri>', 'predicate of class constraints (default rdf:type)')
    .option('--label-predicate <iri...>', 'label predicates [ label ] entities match on (default rdfs:label)')
    .option('--label-language <tag...>', 'language tags a label also matches besides the plain literal (default en)')
    .option('--no-exclude-topic', 'keep the topic entities in the answers')
    .option('--limit <n>', 'LIMIT of the SELECT', intArg('--limit'))
    .option('--json', 'print {sparql, kind, answerVar, topicEntities} as JSON')
    .action(async (formText: string, opts: CompileOpts) => {
      // namespaces not given come from the embedded pack (the compiler has no graph of its own)
      let vocabularyNamespace = opts.ns;
      let entityNamespace = opts.entityNs;
      if (vocabularyNamespace === undefined || entityNamespace === undefined) {
        const pack = packCompileOptions((await loadPack()).config);
        vocabularyNamespace ??= pack.vocabularyNamespace;
        entityNamespace ??= pack.entityNamespace;
      }
      const options: CompileOptions = {
        excludeTopic: opts.excludeTopic,
        vocabularyNamespace,
        entityNamespace,
        ...(opts.classNs !== undefined ? { classNamespace: opts.classNs } : {}),
        ...(opts.typePredicate !== undefined ? { typePredicate: opts.typePredicate } : {}),
        ...(opts.labelPredicate !== undefined ? { labelPredicates: opts.labelPredicate } : {}),
        ...(opts.labelLanguage !== undefined ? { labelLanguages: opts.labelLanguage } : {}),
        ...(opts.limit !== undefined ? { limit: opts.limit } : {}),
      };
      const compiled = compileForm(parseForm(formText), options);
      if (opts.json) printJson(io, { sparql: compiled.sparql, kind: compiled.kind, answerVar: compiled.answerVar, topicEntities: compiled.topicEntities });
      else writeLine(io.stdout, compiled.sparql);
    });
};
