/**
 * GrailQA → examples: the s_expression is the gold form (parsed and printed canonically), the SPARQL is kept,
 * answers are entity names (or the literal values). There is no Freebase data, so these are for the grammar and
 * compiler (parse every form, compile it) and for form metrics — not for answer metrics against a store.
 */
import { AskgraphError } from '../../core';
import { parseForm, printForm } from '../../form';
import { scalarText } from '../jsonl';
import type { Example } from '../types';
import type { ConversionStats } from './qald';

type Json = Record<string, unknown>;

export function importGrailqa(data: unknown, dataset = 'grailqa'): { examples: Example[]; stats: ConversionStats } {
  if (!Array.isArray(data)) throw new AskgraphError('DATA_FORMAT', 'GrailQA: expected a list of questions');
  const stats: ConversionStats = { total: 0, converted: 0, failed: 0, reasons: {} };
  const examples = (data as Json[]).map((r, i) => {
    if (typeof r.question !== 'string') throw new AskgraphError('DATA_FORMAT', `GrailQA: question ${i + 1} has no text`);
    let form: string | undefined;
    if (typeof r.s_expression === 'string') {
      stats.total++;
      try {
        form = printForm(parseForm(r.s_expression));
        stats.converted++;
      } catch (e) {
        stats.failed++;
        const code = (e as { code?: string }).code ?? 'error';
        stats.reasons[code] = (stats.reasons[code] ?? 0) + 1;
      }
    }
    const answers = (Array.isArray(r.answer) ? (r.answer as Json[]) : []).map((a) => scalarText(a.entity_name ?? a.answer_argument) ?? '');
    const topic = r.topic_entity && typeof r.topic_entity === 'object' ? Object.values(r.topic_entity as Record<string, string>) : undefined;
    const ex: Example = {
      id: `${dataset}-${scalarText(r.qid) ?? i}`,
      question: r.question,
      form,
      sparql: typeof r.sparql_query === 'string' ? r.sparql_query : undefined,
      answers,
      topic,
      meta: {
        dataset,
        qtype: typeof r.function === 'string' ? r.function : undefined,
        hop: typeof r.num_edge === 'number' ? r.num_edge : undefined,
        level: r.level,
        domains: r.domains,
      },
    };
    return ex;
  });
  return { examples, stats };
}
