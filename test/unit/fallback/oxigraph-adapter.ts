/**
 * A tiny in-process Executor over the oxigraph npm package, for the fallback tests and the reader
 * bench when src/execute is not available. Triple files are minted by the CONTRACTS.md rule
 * (entity = base + "entity/" + encodeURIComponent(label), relation = base + "relation/" + …, all labelled).
 * It is a real Oxigraph store, not a mock — only the worker thread and timeouts of src/execute are missing.
 */
import * as oxigraph from 'oxigraph';
import type { Executor, QueryOptions, SelectResult, Term, Triple } from '../../../src/core';
import { RDFS_LABEL } from '../../../src/core';

function nt(text: string): string {
  return '"' + text.replace(/[\\"\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '"' ? '\\"' : c === '\n' ? '\\n' : '\\r')) + '"';
}

export function tripleTextToNTriples(text: string, baseIri: string): string {
  const out: string[] = [];
  const labelled = new Set<string>();
  let sep: string | null = null;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (!line.trim()) continue;
    sep ??= line.includes('\t') ? '\t' : '|';
    const f = line.split(sep).map((x) => x.trim());
    if (f.length !== 3 || f.some((x) => !x)) continue;
    const h = baseIri + 'entity/' + encodeURIComponent(f[0]);
    const r = baseIri + 'relation/' + encodeURIComponent(f[1]);
    const t = baseIri + 'entity/' + encodeURIComponent(f[2]);
    out.push(`<${h}> <${r}> <${t}> .`);
    for (const [iri, label] of [[h, f[0]], [r, f[1]], [t, f[2]]]) {
      if (labelled.has(iri)) continue;
      labelled.add(iri);
      out.push(`<${iri}> <${RDFS_LABEL}> ${nt(label)} .`);
    }
  }
  return out.join('\n') + '\n';
}

function toTerm(t: oxigraph.Term): Term {
  if (t.termType === 'NamedNode') return { type: 'uri', value: t.value };
  if (t.termType === 'BlankNode') return { type: 'bnode', value: t.value };
  const l = t as oxigraph.Literal;
  const dt = l.datatype?.value;
  return {
    type: 'literal',
    value: l.value,
    ...(l.language ? { lang: l.language } : {}),
    ...(dt && dt !== 'http://www.w3.org/2001/XMLSchema#string' && !l.language ? { datatype: dt } : {}),
  };
}

export class InProcessOxigraph implements Executor {
  readonly id: string;
  readonly store = new oxigraph.Store();
  /** Calls made, for tests that check the budget guard. */
  calls = 0;
  /** Artificial latency per call (ms), for time-budget tests. */
  delayMs = 0;

  constructor(id = 'oxigraph:in-process') {
    this.id = id;
  }

  static fromTriples(text: string, baseIri = 'http://askgraph.dev/movies/'): InProcessOxigraph {
    const ex = new InProcessOxigraph();
    ex.store.load(tripleTextToNTriples(text, baseIri), { format: 'application/n-triples' });
    return ex;
  }

  private async pause(): Promise<void> {
    this.calls++;
    if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
  }

  async select(query: string, _opts?: QueryOptions): Promise<SelectResult> {
    await this.pause();
    const res = this.store.query(query) as Map<string, oxigraph.Term>[];
    const vars = new Set<string>();
    const rows = res.map((m) => {
      const row: Record<string, Term> = {};
      for (const [k, t] of m) {
        vars.add(k);
        row[k] = toTerm(t);
      }
      return row;
    });
    return { vars: [...vars], rows };
  }
  async ask(query: string): Promise<boolean> {
    await this.pause();
    return this.store.query(query) as boolean;
  }
  async count(query: string): Promise<number> {
    const r = await this.select(query);
    const row = r.rows[0];
    return row ? Number(Object.values(row)[0].value) : 0;
  }
  async construct(query: string): Promise<Triple[]> {
    await this.pause();
    return (this.store.query(query) as oxigraph.Quad[]).map((q) => ({ s: toTerm(q.subject), p: toTerm(q.predicate), o: toTerm(q.object) }));
  }
  async labels(iris: string[]): Promise<Map<string, string>> {
    await this.pause();
    const out = new Map<string, string>();
    const label = oxigraph.namedNode(RDFS_LABEL);
    for (const i of iris) {
      const q = this.store.match(oxigraph.namedNode(i), label, null, null);
      if (q.length) out.set(i, q[0].object.value);
    }
    return out;
  }
  async close(): Promise<void> {}
}
