/**
 * Helpers of the serve integration tests: a real server on 127.0.0.1 (random port) in front of a
 * gateway. `standInGateway` is a STAND-IN for the pipeline's createGateway (tests using it say so in
 * their names): a real Oxigraph store in-process, a regex "parser" and the real SPARQL protocol path.
 */
import { DataFactory } from 'rdf-data-factory';
import { Generator, type SelectQuery } from 'sparqljs';
import { Store, type Quad, type Term as StoreTerm } from 'oxigraph';
import { AskgraphError, RDFS_LABEL, type Answer, type Executor, type Form, type SelectResult, type Term, type Triple } from '../../src/core';
import { printForm } from '../../src/form';
import { createGateway, type Gateway, type ScoringGenerator } from '../../src/pipeline';
import { startServer, type RunningServer, type ServeConfigInput, type ServeGateway } from '../../src/serve';

export const BASE = 'http://askgraph.dev/movies/';
export const entity = (label: string) => BASE + 'entity/' + encodeURIComponent(label);
export const relation = (name: string) => BASE + 'relation/' + encodeURIComponent(name);

export const MINI_KB: [string, string, string][] = [
  ['Forrest Gump', 'directed_by', 'Robert Zemeckis'],
  ['Forrest Gump', 'starred_actors', 'Tom Hanks'],
  ['Forrest Gump', 'release_year', '1994'],
  ['Cast Away', 'directed_by', 'Robert Zemeckis'],
  ['Cast Away', 'starred_actors', 'Tom Hanks'],
  ['Back to the Future', 'directed_by', 'Robert Zemeckis'],
  ['Heat', 'directed_by', 'Michael Mann'],
  ['Heat', 'starred_actors', 'Al Pacino'],
];

function ntEscape(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}

export function miniNTriples(extraTriples = 0): string {
  const lines: string[] = [];
  const labels = new Set<string>();
  for (const [h, r, t] of MINI_KB) {
    lines.push(`<${entity(h)}> <${relation(r)}> <${entity(t)}> .`);
    labels.add(h);
    labels.add(t);
    lines.push(`<${relation(r)}> <${RDFS_LABEL}> "${r}" .`);
  }
  for (const l of labels) lines.push(`<${entity(l)}> <${RDFS_LABEL}> "${ntEscape(l)}" .`);
  // filler so that a cross product is a runaway query
  for (let i = 0; i < extraTriples; i++) lines.push(`<${BASE}filler/${i}> <${BASE}relation/filler> "${i}" .`);
  return lines.join('\n') + '\n';
}

function toTerm(t: StoreTerm): Term {
  if (t.termType === 'NamedNode') return { type: 'uri', value: t.value };
  if (t.termType === 'BlankNode') return { type: 'bnode', value: t.value };
  const out: Term = { type: 'literal', value: t.value };
  if (t.termType === 'Literal') {
    if (t.language) out.lang = t.language;
    else out.datatype = t.datatype.value;
  }
  return out;
}

/** STAND-IN executor: a real Oxigraph store queried in-process (no worker, so no kill on timeout). */
export class InProcessExecutor implements Executor {
  readonly id = 'stand-in:oxigraph-in-process';
  readonly store = new Store();
  down = false;
  constructor(ntriples = miniNTriples()) {
    this.store.load(ntriples, { format: 'application/n-triples' });
  }
  private run(query: string): ReturnType<Store['query']> {
    if (this.down) throw new AskgraphError('ENDPOINT_DOWN', 'stand-in endpoint is down (connection refused)');
    // Deliberately NOT read-only: if the server let an update through, the store would change and
    // the read-only tests would see it.
    if (/^\s*(insert|delete|drop|clear|create)/i.test(query)) {
      this.store.update(query);
      return [];
    }
    return this.store.query(query);
  }
  /** Runs `work` now, as an async method would: what it throws becomes the rejection. */
  private settle<T>(work: () => T): Promise<T> {
    return new Promise((resolve) => resolve(work()));
  }
  select(query: string): Promise<SelectResult> {
    return this.settle(() => this.selectNow(query));
  }
  private selectNow(query: string): SelectResult {
    const rows = this.run(query) as Map<string, StoreTerm>[];
    const vars = new Set<string>();
    const m = /select\s+(distinct\s+)?((\?\w+\s*)+)/i.exec(query);
    if (m) for (const v of m[2]!.trim().split(/\s+/)) vars.add(v.slice(1));
    const out = rows.map((row) => {
      const r: Record<string, Term> = {};
      for (const [k, v] of row) {
        vars.add(k);
        r[k] = toTerm(v);
      }
      return r;
    });
    return { vars: [...vars], rows: out };
  }
  ask(query: string): Promise<boolean> {
    return this.settle(() => this.run(query) as boolean);
  }
  async count(query: string): Promise<number> {
    const r = await this.select(query);
    return Number(Object.values(r.rows[0] ?? {})[0]?.value ?? 0);
  }
  construct(query: string): Promise<Triple[]> {
    return this.settle(() => (this.run(query) as Quad[]).map((q) => ({ s: toTerm(q.subject), p: toTerm(q.predicate), o: toTerm(q.object) })));
  }
  labels(iris: string[]): Promise<Map<string, string>> {
    return this.settle(() => {
      const m = new Map<string, string>();
      for (const iri of iris) {
        const r = this.store.match(null, null, null);
        for (const q of r) if (q.subject.value === iri && q.predicate.value === RDFS_LABEL) m.set(iri, q.object.value);
      }
      return m;
    });
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

const DF = new DataFactory();

/** SPARQL for "who directed <label>" built as a sparqljs AST (the label is one literal term). */
export function directorQuery(label: string): string {
  const v = (n: string) => DF.variable(n);
  const nn = (i: string) => DF.namedNode(i);
  const ast: SelectQuery = {
    type: 'query',
    queryType: 'SELECT',
    prefixes: {},
    distinct: true,
    variables: [v('x')],
    where: [
      {
        type: 'bgp',
        triples: [
          { subject: v('m'), predicate: nn(RDFS_LABEL), object: DF.literal(label, nn('http://www.w3.org/2001/XMLSchema#string')) },
          { subject: v('m'), predicate: nn(relation('directed_by')), object: v('x') },
        ],
      },
    ],
  };
  return new Generator().stringify(ast);
}

export interface StandIn<E extends Executor = InProcessExecutor> extends ServeGateway {
  executor: E;
  askCalls: { question: string; opts: Record<string, unknown> }[];
  /** Artificial latency of ask (ms). */
  delayMs: number;
}

/** STAND-IN gateway: regex "parser" for "who directed X", real store, Answer in the contract's shape. */
export function standInGateway(): StandIn;
export function standInGateway<E extends Executor>(executor: E): StandIn<E>;
export function standInGateway(executor: Executor = new InProcessExecutor()): StandIn<Executor> {
  const g: StandIn<Executor> = {
    executor,
    version: 'stand-in-store+stand-in-model',
    askCalls: [],
    delayMs: 0,
    async ask(question: string, opts: Record<string, unknown> = {}): Promise<Answer> {
      g.askCalls.push({ question, opts });
      if (g.delayMs) await new Promise((r) => setTimeout(r, g.delayMs));
      const t0 = Date.now();
      const m = /directed\s+(.+?)\??$/i.exec(question);
      const label = m ? m[1]!.trim() : question;
      const form = `(JOIN (R directed_by) [ ${label} ])`;
      const sparql = directorQuery(label);
      const res = await executor.select(sparql);
      const iris = res.rows.map((r) => r.x!.value);
      const labels = await executor.labels(iris);
      const answers = iris.map((value) => ({ value, label: labels.get(value) ?? null, type: 'uri' as const }));
      const ms = Date.now() - t0;
      return {
        question,
        answers,
        form,
        groundedForm: `(JOIN (R <${relation('directed_by')}>) <${entity(label)}>)`,
        sparql,
        source: answers.length ? 'parser' : 'none',
        confidence: answers.length ? 0.9 : 0,
        beam: [
          { form, logProb: -0.1 },
          { form: `(JOIN (R starred_actors) [ ${label} ])`, logProb: -2.3 },
        ],
        trace: [
          { stage: 'generate', outcome: 'answers', note: `beam=${typeof opts.beam === 'number' ? opts.beam : 'default'}`, timeMs: 1 },
          { stage: 'execute', beamForm: form, groundedForm: form, sparql, score: -0.1, outcome: answers.length ? 'answers' : 'empty', answerCount: answers.length, timeMs: ms },
        ],
        timings: { generate: 1, ground: 0, execute: ms, fallback: 0, total: ms + 1 },
      };
    },
    parse(question: string, opts: { beam?: number } = {}) {
      const n = opts.beam ?? 4;
      const rels = ['directed_by', 'written_by', 'starred_actors'].slice(0, n);
      return Promise.resolve({ question, timeMs: 0.5, candidates: rels.map((r, rank) => ({ form: `(JOIN (R ${r}) [ ${question} ])`, logProb: -0.1 - rank, rank })) });
    },
    compile(formText: string) {
      const m = /^\(JOIN \(R directed_by\) \[ (.*) \]\)$/s.exec(formText.trim());
      if (!m) throw new AskgraphError('FORM_SYNTAX', 'stand-in compiler only knows (JOIN (R directed_by) [ X ])', { details: { line: 1, column: 1 } });
      return { sparql: directorQuery(m[1]!), answerVar: 'x', kind: 'select' as const, topicEntities: [] };
    },
    close: () => Promise.resolve(),
  };
  return g;
}

/** The real gateway seen through a recorder: every ask is recorded (and, to inject latency, delayed by `delayMs`). */
export interface RecordedGateway extends ServeGateway {
  askCalls: { question: string; opts: Record<string, unknown> }[];
  /** Injected latency of ask (ms): a stand-in for a slow pipeline. */
  delayMs: number;
  /** How many asks the pipeline has finished (a late one still counts when it ends). */
  finished: number;
  /** Writable, so a test can play a changed model or store (answer-cache keys). */
  version: string;
}

export function recordedGateway(real: Gateway): RecordedGateway {
  const g: RecordedGateway = {
    askCalls: [],
    delayMs: 0,
    finished: 0,
    version: real.version,
    get executor() {
      return real.executor;
    },
    get generator() {
      return real.generator;
    },
    get pack() {
      return real.pack;
    },
    async ask(question, opts = {}) {
      g.askCalls.push({ question, opts });
      if (g.delayMs) await new Promise((r) => setTimeout(r, g.delayMs));
      try {
        return await real.ask(question, opts);
      } finally {
        g.finished++;
      }
    },
    parse: (question, opts) => real.parse(question, opts),
    compile: (formText) => real.compile(formText),
    close: () => Promise.resolve(), // the real gateway is shared; its owner closes it
  };
  return g;
}

export async function startTestServer(gateway: ServeGateway, config: ServeConfigInput = {}, logger?: import('pino').Logger): Promise<RunningServer> {
  // rate limiting off unless a test configures it (the suites send hundreds of requests from one address)
  return startServer({ port: 0, host: '127.0.0.1', logLevel: 'silent', rateLimit: { perMinute: 0, burst: 1 }, ...config }, { gateway, logger });
}

/** The body as JSON (typed `any`, as JSON.parse gives it: the tests check its shape), or its text where it is not JSON. */
function jsonOrText(text: string) {
  try {
    return JSON.parse(text);
  } catch {
    return text; // not JSON: keep the text
  }
}

export async function getJson(url: string, init?: RequestInit) {
  const r = await fetch(url, init);
  const text = await r.text();
  return { status: r.status, body: jsonOrText(text), headers: r.headers };
}

export function postJson(url: string, value: unknown, headers: Record<string, string> = {}) {
  return getJson(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(value) });
}

// ---------- the real pipeline with a MOCK generator (the parser model is trained separately) ----------

function labelForm(relationName: string, label: string): Form {
  return {
    kind: 'join',
    relation: { kind: 'reverse', of: { kind: 'rel', ref: { kind: 'name', name: relationName } } },
    arg: { kind: 'entity', ref: { kind: 'label', label } },
  };
}

/**
 * MOCK generator: "who directed X" → (JOIN (R directed_by) [ X ]) then (JOIN (R written_by) [ X ]);
 * "who starred in X" → starred_actors. The label is copied verbatim from the question, like the real
 * parser's copy mechanism, so injection payloads reach grounding and the compiler.
 */
export function mockGenerator(): ScoringGenerator {
  return {
    id: 'mock-generator',
    generate(question: string, opts: { beam?: number } = {}) {
      const m = /(directed|starred in|wrote)\s+([\s\S]+?)\??$/.exec(question);
      const label = m ? m[2]! : question;
      const rels = m?.[1] === 'starred in' ? ['starred_actors', 'directed_by'] : ['directed_by', 'written_by', 'starred_actors'];
      const forms = rels.slice(0, opts.beam ?? 4).map((r) => labelForm(r, label));
      return Promise.resolve({ candidates: forms.map((form, rank) => ({ form, text: printForm(form), logProb: -0.05 - 1.5 * rank, rank })), dropped: 0, timeMs: 0.1 });
    },
  };
}

/** The real gateway (movies store, grounding, compiler, executor, fallback) with the MOCK generator. */
export async function moviesGatewayWithMockGenerator(): Promise<Gateway> {
  return createGateway({ generator: mockGenerator() });
}

/** The answers of a /v1/ask body as sorted "IRI label" keys, to compare one answer with another. */
export function answersOf(body: { answers: { value: string; label: string | null }[] }): string[] {
  return body.answers.map((a) => `${a.value} ${String(a.label)}`).sort();
}
