/**
 * A Generator over any OpenAI-compatible /v1/chat/completions endpoint (vLLM, llama.cpp server, a
 * fine-tuned Llama as in ChatKBQA, …). It asks for k forms — as n=k choices (`mode: 'n'`) or as k lines
 * of one answer (`mode: 'lines'`, the default, which servers ignoring `n` also follow) — and reads every
 * line of every choice either way. Each candidate is parsed with parseForm; unparseable ones are
 * dropped and counted, duplicates (formsEqual) are merged.
 *
 * Scores: the sum of the choice's token log-probabilities when the server returns them (`logprobs`),
 * else a rank prior log(1/(r+1)) in the order the endpoint gave them (documented, not a model score).
 */
import { AskgraphError, Candidate, DEFAULT_BEAM, Form, GenerateOptions, GenerateResult, Generator } from '../core';
import { canonicalText, entityRefs, parseForm, printForm, relationRefs } from '../form';

export interface HttpGeneratorOptions {
  /** Base URL, e.g. http://127.0.0.1:8000 or http://127.0.0.1:8000/v1 (env ASKGRAPH_LLM_URL). */
  url?: string;
  /** Model name sent to the endpoint (env ASKGRAPH_LLM_MODEL; default "default"). */
  model?: string;
  /** Bearer token (env ASKGRAPH_LLM_KEY). */
  apiKey?: string;
  /** 'lines' (one request, k lines; default) or 'n' (n=k choices, one form each). */
  mode?: 'lines' | 'n';
  /** Per-request timeout in ms (default 30000). */
  timeoutMs?: number;
  /**
   * Relation names of the graph: listed in the prompt and, as in the constrained decoder, the only names a
   * form may use (a form with another name is dropped with its reason).
   */
  relations?: string[];
  /** As the decoder's copy constraint: entity labels must be spelled in the question (case and spacing aside). Default true. */
  copyEntities?: boolean;
  /** Few-shot examples for the prompt. */
  examples?: { question: string; form: string }[];
  /** Replaces the default system prompt. */
  systemPrompt?: string;
  temperature?: number;
  maxTokens?: number;
  env?: NodeJS.ProcessEnv;
}

const DEFAULT_SYSTEM =
  'You translate questions about a knowledge graph into logical forms (S-expressions): ' +
  '(JOIN r x) is the set of subjects s with (s r o) for o in x; (JOIN (R r) x) the objects o with (s r o) for s in x; ' +
  '(AND x y), (COUNT x), (ARGMAX x r), (ARGMIN x r), (GT r v), (GE r v), (LT r v), (LE r v), (TC x r v). ' +
  'Entities are written as [ label ] with the label copied from the question. Output logical forms only.';

export class HttpGenerator implements Generator {
  readonly id: string;
  readonly endpoint: string;
  private readonly model: string;
  private readonly apiKey?: string;
  /** Outputs dropped as unparseable since creation. */
  droppedTotal = 0;

  constructor(private readonly opts: HttpGeneratorOptions = {}) {
    const env = opts.env ?? process.env;
    const url = opts.url ?? env.ASKGRAPH_LLM_URL;
    if (!url) throw new AskgraphError('BAD_REQUEST', 'HTTP generator: no endpoint URL (option url or ASKGRAPH_LLM_URL)');
    let base: URL;
    try {
      base = new URL(url);
    } catch {
      throw new AskgraphError('BAD_REQUEST', `HTTP generator: not a URL: ${url}`);
    }
    const p = base.pathname.replace(/\/+$/, '');
    base.pathname = p.endsWith('/chat/completions') ? p : p.endsWith('/v1') ? `${p}/chat/completions` : `${p}/v1/chat/completions`;
    this.endpoint = base.toString();
    this.model = opts.model ?? env.ASKGRAPH_LLM_MODEL ?? 'default';
    this.apiKey = opts.apiKey ?? env.ASKGRAPH_LLM_KEY;
    this.id = `http:${this.endpoint}#${this.model}`;
  }

  private messages(question: string, k: number, mode: 'lines' | 'n'): { role: string; content: string }[] {
    let system = this.opts.systemPrompt ?? DEFAULT_SYSTEM;
    if (this.opts.relations?.length) system += `\nRelations: ${this.opts.relations.join(', ')}.`;
    const ask =
      mode === 'lines' && k > 1
        ? `Give the ${k} most likely logical forms for the question, best first, one per line, nothing else.`
        : 'Give the logical form for the question, nothing else.';
    const msgs = [{ role: 'system', content: `${system}\n${ask}` }];
    for (const ex of this.opts.examples ?? []) {
      msgs.push({ role: 'user', content: ex.question }, { role: 'assistant', content: ex.form });
    }
    msgs.push({ role: 'user', content: question });
    return msgs;
  }

  async generate(question: string, opts: GenerateOptions = {}): Promise<GenerateResult> {
    const t0 = performance.now();
    const k = Math.max(1, Math.floor(opts.beam ?? DEFAULT_BEAM));
    const mode = this.opts.mode ?? 'lines';
    const body: Record<string, unknown> = {
      model: this.model,
      messages: this.messages(question, k, mode),
      temperature: this.opts.temperature ?? (mode === 'n' && k > 1 ? 0.7 : 0),
      max_tokens: this.opts.maxTokens ?? (opts.maxLength ? opts.maxLength * 4 : 128) * (mode === 'lines' ? k : 1),
      logprobs: true,
    };
    if (mode === 'n') body.n = k;
    const json = await this.post(body);
    const choices = (json as { choices?: unknown }).choices;
    if (!Array.isArray(choices)) throw new AskgraphError('ENDPOINT_ERROR', `${this.endpoint}: response has no choices array`);

    // Candidate texts in order: line i of every choice before line i+1 (n mode gives one line per choice).
    const perChoice = choices.map((c: unknown) => {
      const ch = c as { message?: { content?: unknown }; text?: unknown; logprobs?: { content?: { logprob?: number }[] } };
      const content = typeof ch.message?.content === 'string' ? ch.message.content : typeof ch.text === 'string' ? ch.text : '';
      const lps = ch.logprobs?.content;
      const logProb = Array.isArray(lps) && lps.length ? lps.reduce((a, t) => a + (typeof t.logprob === 'number' ? t.logprob : 0), 0) : null;
      return { lines: splitCandidates(content), logProb };
    });
    const ordered: { text: string; logProb: number | null }[] = [];
    const depth = Math.max(0, ...perChoice.map((c) => c.lines.length));
    for (let i = 0; i < depth; i++) {
      for (const c of perChoice) {
        const text = c.lines[i];
        if (text !== undefined) ordered.push({ text, logProb: c.lines.length === 1 ? c.logProb : null });
      }
    }

    const parsed: { form: Form; text: string; logProb: number | null }[] = [];
    const seen = new Set<string>();
    const rejected: { text: string; reason: string }[] = [];
    for (const o of ordered) {
      let form: Form;
      try {
        form = parseForm(o.text);
      } catch (e) {
        rejected.push({ text: o.text, reason: `does not parse: ${(e as Error).message.split('\n')[0]}` });
        continue;
      }
      const reason = this.violation(form, question);
      if (reason) {
        rejected.push({ text: o.text, reason });
        continue;
      }
      const key = canonicalText(form);
      if (seen.has(key)) continue;
      seen.add(key);
      parsed.push({ form, text: printForm(form), logProb: o.logProb });
    }
    // Real log-probabilities for all → rank by them; else keep the endpoint's order with a rank prior.
    const real = parsed.length > 0 && parsed.every((c) => c.logProb !== null);
    if (real) parsed.sort((x, y) => (y.logProb ?? 0) - (x.logProb ?? 0)); // all numbers when real
    const top: Candidate[] = parsed.slice(0, k).map((c, i) => ({
      form: c.form,
      text: c.text,
      logProb: real ? (c.logProb ?? 0) : Math.log(1 / (i + 1)),
      rank: i,
    }));
    this.droppedTotal += rejected.length;
    return { candidates: top, dropped: rejected.length, rejected, timeMs: performance.now() - t0 };
  }

  /**
   * The constrained decoder's rules, checked on a finished form: relation names from the graph's list
   * (when one is given) and entity labels copied from the question. Returns why a form breaks them.
   */
  private violation(form: Form, question: string): string | undefined {
    const allowed = this.opts.relations;
    if (allowed?.length) {
      for (const r of relationRefs(form)) {
        if (r.kind === 'name' && !allowed.includes(r.name)) return `relation "${r.name}" is not a relation of the graph`;
      }
    }
    if (this.opts.copyEntities !== false) {
      const q = squash(question);
      for (const e of entityRefs(form)) {
        if (e.kind === 'label' && !q.includes(squash(e.label))) return `entity "${e.label}" is not spelled in the question`;
      }
    }
    return undefined;
  }

  private async post(body: unknown): Promise<unknown> {
    const timeoutMs = this.opts.timeoutMs ?? 30000;
    const ctrl = new AbortController();
    const timer = setTimeout(() => ctrl.abort(), timeoutMs);
    let res: Response;
    let text: string;
    try {
      res = await fetch(this.endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}) },
        body: JSON.stringify(body),
        signal: ctrl.signal,
      });
      text = await res.text();
    } catch (e) {
      if (ctrl.signal.aborted) {
        throw new AskgraphError('ENDPOINT_DOWN', `${this.endpoint}: no answer within ${timeoutMs} ms`, { details: { timeoutMs }, cause: e });
      }
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      throw new AskgraphError('ENDPOINT_DOWN', `${this.endpoint}: ${cause?.code ?? cause?.message ?? (e as Error).message}`, { cause: e });
    } finally {
      clearTimeout(timer);
    }
    if (!res.ok) {
      throw new AskgraphError('ENDPOINT_ERROR', `${this.endpoint}: HTTP ${res.status}: ${text.slice(0, 200).replace(/\s+/g, ' ')}`, {
        details: { status: res.status },
      });
    }
    try {
      return JSON.parse(text);
    } catch {
      throw new AskgraphError('ENDPOINT_ERROR', `${this.endpoint}: response is not JSON: ${text.slice(0, 100)}`);
    }
  }
}

/** Lower case, one space between words: "Forrest  gump" and "forrest Gump" compare equal. */
function squash(s: string): string {
  return s.toLowerCase().replace(/\s+/g, ' ').trim();
}

/** The candidate forms in a reply: one per non-empty line, without list markers, code fences or quotes. */
export function splitCandidates(content: string): string[] {
  return content
    .split(/\r?\n/)
    .map((l) =>
      l
        .trim()
        .replace(/^```\w*$/, '')
        .replace(/^(\d+[.)]|[-*•])\s+/, '')
        .replace(/^`(.*)`$/, '$1')
        .trim(),
    )
    .filter((l) => l.length > 0);
}
