/**
 * Optional LLM reader over an OpenAI-compatible chat endpoint (off unless configured with options or
 * ASKGRAPH_LLM_URL / ASKGRAPH_LLM_MODEL / ASKGRAPH_LLM_KEY). The evidence is the top-K triples of the
 * triple-scoring reader; the model is asked to name answers from them. An answer is kept only if it
 * is — after case/space normalisation — the label or value of an entity/literal in that evidence;
 * everything else is dropped and counted (ReaderSuccess.dropped), so the reader cannot invent answers.
 * The HTTP call is bounded by the reader's time budget (AbortController).
 */
import type { AnswerItem } from '../../core';
import type { BudgetGuard } from '../budget';
import { BudgetExhausted } from '../budget';
import type { ReaderContext, ReaderResult } from '../types';
import { evidenceTriple, excludeTopics, GuardedReader } from './common';
import { scoreNeighbourhood, type TripleReaderOptions } from './triples';

export interface LlmReaderOptions {
  /** Base URL of the OpenAI-compatible API, e.g. http://localhost:8000/v1 (POST {url}/chat/completions). */
  url?: string;
  model?: string;
  apiKey?: string;
  topK?: number;
  triples?: TripleReaderOptions;
  maxAnswers?: number;
}

export function llmOptionsFromEnv(env: Record<string, string | undefined> = process.env): LlmReaderOptions {
  return {
    ...(env.ASKGRAPH_LLM_URL ? { url: env.ASKGRAPH_LLM_URL } : {}),
    ...(env.ASKGRAPH_LLM_MODEL ? { model: env.ASKGRAPH_LLM_MODEL } : {}),
    ...(env.ASKGRAPH_LLM_KEY ? { apiKey: env.ASKGRAPH_LLM_KEY } : {}),
  };
}

const norm = (s: string) => s.toLowerCase().normalize('NFKC').replace(/\s+/g, ' ').trim();

/** Candidate answer strings from the model's reply: a JSON array, or one answer per line / comma. */
export function parseAnswerList(text: string): string[] {
  const t = text.trim();
  const m = /\[[\s\S]*\]/.exec(t);
  if (m) {
    try {
      const arr: unknown = JSON.parse(m[0]);
      if (Array.isArray(arr)) return arr.map((x) => String(x)).filter((x) => x.trim());
    } catch {
      /* not JSON: fall through to lines */
    }
  }
  return t
    .split(/\n/)
    .map((l) => l.replace(/^\s*(?:[-*•]|\d+[.)])\s*/, '').replace(/^answers?\s*:\s*/i, '').trim())
    .filter((l) => l && !/^none$/i.test(l));
}

export class LlmReader extends GuardedReader {
  readonly name = 'llm';
  readonly opts: LlmReaderOptions & { topK: number; maxAnswers: number };

  constructor(opts: LlmReaderOptions = {}) {
    super();
    this.opts = { topK: 40, maxAnswers: 20, ...opts };
  }

  override async test(ctx: ReaderContext): Promise<true | { reason: string }> {
    if (!this.opts.url) return { reason: 'LLM reader not configured (set ASKGRAPH_LLM_URL)' };
    return super.test(ctx);
  }

  protected override async run(ctx: ReaderContext, guard: BudgetGuard): Promise<ReaderResult> {
    const url = this.opts.url;
    if (!url) return { reason: 'LLM reader not configured (set ASKGRAPH_LLM_URL)' }; // test() said so already
    const { scored, labels } = await scoreNeighbourhood(ctx, guard, this.opts.triples);
    const top = scored.slice(0, this.opts.topK);
    if (!top.length) return { reason: 'no triples around the topic entities' };
    const evidence = top.map((se) => evidenceTriple(se.edge, labels));
    // The grounded options: every entity/literal of the evidence, by its normalised label and value.
    const options = new Map<string, AnswerItem>();
    const topicIris = new Set(ctx.topics.map((t) => t.iri));
    for (const t of evidence) {
      for (const n of [t.s, t.o]) {
        if (excludeTopics(ctx) && topicIris.has(n.value)) continue;
        for (const key of [n.label, n.value]) if (key && !options.has(norm(key))) options.set(norm(key), n);
      }
    }
    const lines = evidence.map((t, i) => `${i + 1}. ${t.s.label ?? t.s.value} | ${t.p.label ?? t.p.value} | ${t.o.label ?? t.o.value}`);
    const body = {
      model: this.opts.model ?? 'default',
      temperature: 0,
      messages: [
        {
          role: 'system',
          content:
            'You answer questions using only the given knowledge-graph triples (subject | relation | object). ' +
            'Reply with a JSON array of answer names copied exactly from the triples, best answer first, or [] if the triples do not answer the question.',
        },
        { role: 'user', content: `Triples:\n${lines.join('\n')}\n\nQuestion: ${ctx.question}` },
      ],
    };
    const remaining = guard.remainingMs();
    if (remaining <= 0) throw new BudgetExhausted('time', 'time budget used up before the LLM call');
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), remaining);
    let text: string;
    try {
      const res = await fetch(url.replace(/\/+$/, '') + '/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}) },
        body: JSON.stringify(body),
        signal: controller.signal,
      });
      if (!res.ok) return { reason: `LLM endpoint answered HTTP ${res.status}` };
      const json = (await res.json()) as { choices?: { message?: { content?: string } }[] };
      text = json.choices?.[0]?.message?.content ?? '';
    } catch (e) {
      if (controller.signal.aborted) return { reason: 'LLM call exceeded the time budget', exhausted: 'time' };
      return { reason: `LLM endpoint unreachable: ${(e as Error).message}` };
    } finally {
      clearTimeout(timer);
    }
    const proposed = parseAnswerList(text);
    const answers: AnswerItem[] = [];
    const seen = new Set<string>();
    let dropped = 0;
    for (const p of proposed) {
      const hit = options.get(norm(p));
      if (!hit) {
        dropped++;
        continue;
      }
      if (!seen.has(hit.value) && answers.length < this.opts.maxAnswers) {
        seen.add(hit.value);
        answers.push(hit);
      }
    }
    if (!answers.length) return { reason: `LLM gave no answer present in the evidence (${dropped} dropped)` };
    return {
      answers,
      evidence: [{ triples: evidence, note: `top-${top.length} triples given to the LLM` }],
      confidence: 0.3,
      stats: guard.stats(),
      dropped,
      note: `${proposed.length} proposed, ${dropped} not in the evidence (dropped)`,
    };
  }
}
