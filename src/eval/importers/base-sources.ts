/**
 * The sources of askgraph-base's corpus and the build over them: which files of the shared data folder are read,
 * how each record becomes a (question, named form) pair (base-corpus.ts names the terms), which pairs are kept
 * for validation, and which are held out (leave one graph out).
 *
 * - Only the files listed here are read, each through `dataPath`, which refuses the development-only sets
 *   (`DEV_ONLY_SETS`: movies-real and restaurants) wherever they appear in the path, symbolic links followed.
 * - A source whose files are absent is skipped and listed as absent; whatever is present is converted.
 * - A pair is dropped with a short countable reason (the source has no form, the form language cannot say it, a
 *   relation has no word name, an entity is not a span of the question, the written form does not read back …).
 * - Validation: one named form in 20 by hash (base-corpus.ts `splitOf`); MetaQA, PathQuestion and WC2014 by their
 *   own line rule (line % 20 == 7).
 * - Held out: every pair whose graph, source or group is named in `holdOut` goes to `heldOut` instead of
 *   train/valid; a base trained on train.jsonl has then never seen that graph.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AskgraphError, defined } from '../../core';
import { classRefs, parseForm, relationRefs } from '../../form';
import type { Example } from '../types';
import { importMetaqaSplit } from './metaqa';
import { importPathDataset, PATH_DATASETS } from './pathquestion';
import {
  type BaseGraph,
  type BasePair,
  type Conversion,
  type Naming,
  freebaseNaming,
  fromSexpr,
  fromSparql,
  labelTableNaming,
  localNameNaming,
  splitOf,
  standardCount,
  wordNaming,
} from './base-corpus';

/** Folders of the shared data that are development-only (measure, never train): never read by the corpus build. */
export const DEV_ONLY_SETS = ['movies-real', 'restaurants'] as const;

/**
 * The real path of `rel` under the data folder, refused (BAD_REQUEST, details.reason 'development-only set') when
 * the path or its target after symbolic links has a folder or file named by DEV_ONLY_SETS.
 */
export function dataPath(data: string, rel: string): string {
  const full = path.resolve(data, rel);
  const check = (p: string): void => {
    const parts = p.split(/[\\/]+/).map((s) => s.toLowerCase());
    const hit = DEV_ONLY_SETS.find((d) => parts.some((s) => s === d || s.startsWith(`${d}.`)));
    if (hit !== undefined) throw new AskgraphError('BAD_REQUEST', `${rel}: ${hit} is a development-only set and is never read for training`, { details: { reason: 'development-only set', set: hit, path: p } });
  };
  check(full);
  let real = full;
  try {
    real = fs.realpathSync(full);
  } catch {
    // absent: the caller's existence check says so
  }
  check(real);
  return real;
}

export type Group = 'wc2014' | 'pathquestion' | 'grailqa-dev' | 'cwq';
export const GROUPS: Record<Group, string> = {
  wc2014: 'WC2014 questions: a graph left out (leave-one-graph-out)',
  pathquestion: 'PathQuestion / PathQuestion-Large questions: a graph left out (leave-one-graph-out)',
  'grailqa-dev': 'grailqa_dev.json and the dev_extra questions with the same form (same_lf_as_held_dev): leave out when grailqa_dev measures',
  cwq: 'CWQ TEST questions (those built on WebQSP train): leave out when CWQ measures',
};

/** The graphs held out by default: the leave-one-graph-out graphs of issue 20 that the data has (restaurants is never read). */
export const DEFAULT_HOLD_OUT = ['wc2014', 'pathquestion'];

type Json = Record<string, unknown>;
const str = (x: unknown): string => (typeof x === 'string' ? x : '');
const num = (x: unknown): string => (typeof x === 'number' || typeof x === 'string' ? String(x) : '');
const obj = (x: unknown): Json => (typeof x === 'object' && x !== null && !Array.isArray(x) ? (x as Json) : {});
const list = (x: unknown): Json[] => (Array.isArray(x) ? x.map(obj) : []);
const strings = (x: unknown): [string, string][] => Object.entries(obj(x)).flatMap(([k, v]): [string, string][] => (typeof v === 'string' ? [[k, v]] : []));

interface Item {
  id: string;
  question: string;
  original: string;
  conversion: Conversion;
  /** A split fixed by the source's own rule (MetaQA, PathQuestion); else by the form's hash. */
  split?: 'train' | 'valid';
  group?: Group;
}

/** Reads the data folder through dataPath, each JSON file once. */
class DataReader {
  private readonly cache = new Map<string, Json[]>();
  constructor(readonly dir: string) {}
  has(rel: string): boolean {
    return fs.existsSync(dataPath(this.dir, rel));
  }
  json(rel: string): Json[] {
    const hit = this.cache.get(rel);
    if (hit) return hit;
    const file = dataPath(this.dir, rel);
    let d: unknown;
    try {
      d = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch (e) {
      throw new AskgraphError('DATA_FORMAT', `${rel}: ${(e as Error).message}`, { cause: e });
    }
    if (!Array.isArray(d)) throw new AskgraphError('DATA_FORMAT', `${rel}: expected a list of records`);
    const rows = d.map(obj);
    this.cache.set(rel, rows);
    return rows;
  }
  /** The records of `rel`, or none when it is absent (for tables gathered from whatever is present). */
  jsonIfPresent(rel: string): Json[] {
    return this.has(rel) ? this.json(rel) : [];
  }
}

interface Source {
  name: string;
  graph: BaseGraph;
  /** Files (relative to the data folder) that must all be present for the source to be read. */
  files: string[];
  items: (data: DataReader, ctx: Context) => Item[];
}

/** Tables shared by the sources of one graph, made on first use from the files present. */
class Context {
  private fb: Map<string, string[]> | undefined;
  private wd: Map<string, string> | undefined;
  constructor(
    readonly data: DataReader,
    readonly metaqaTestIds: ReadonlySet<string>,
  ) {}

  /** Freebase mid → names, from every Freebase source that carries names (GrailQA, WebQSP, AgentBench). */
  fbNames(): Map<string, string[]> {
    if (this.fb) return this.fb;
    const names = new Map<string, string[]>();
    const add = (mid: string, name: string): void => {
      if (!/^[mg]\./.test(mid) || name.trim() === '') return;
      const l = names.get(mid) ?? [];
      if (!l.includes(name)) l.push(name);
      names.set(mid, l);
    };
    for (const r of [...this.data.jsonIfPresent(GRAIL_DEV), ...this.data.jsonIfPresent(GRAIL_EXTRA)]) {
      for (const [m, n] of grailNames(r)) add(m, n);
      for (const a of list(r.answer)) add(str(a.answer_argument), str(a.entity_name));
    }
    for (const r of this.data.jsonIfPresent(WEBQSP)) for (const [m, n] of strings(r.entity_names)) add(m, n);
    for (const r of this.data.jsonIfPresent(AGENT)) {
      for (const [n, m] of strings(r.entities)) add(m, n);
      for (const a of list(r.answer)) add(str(a.answer_argument), str(a.entity_name));
    }
    this.fb = names;
    return names;
  }

  /** Freebase naming: the record's own names first, then the shared table. */
  freebase(pairs: [string, string][]): Naming {
    const local = new Map<string, string[]>();
    for (const [m, n] of pairs) if (n !== '') local.set(m, [...(local.get(m) ?? []), n]);
    const shared = this.fbNames();
    return freebaseNaming((mid) => [...new Set([...(local.get(mid) ?? []), ...(shared.get(mid) ?? [])])]);
  }

  /** Wikidata P/Q labels: only where the data carries them (LC-QuAD 2.0's brace questions, alignBraceLabels). */
  wdLabels(): Map<string, string> {
    this.wd ??= alignBraceLabels(
      this.data
        .jsonIfPresent(LCQUAD2)
        .filter((r) => typeof r.NNQT_question === 'string')
        .map((r) => ({ text: str(r.NNQT_question), query: str(r.sparql_wikidata), template: num(r.template_id) })),
    );
    return this.wd;
  }

  wikidata(): Naming {
    const labels = this.wdLabels();
    return labelTableNaming(
      (id) => labels.get(id),
      (ref) => ref.kind === 'iri' && WD_INSTANCE_OF.has(ref.iri),
    );
  }
}

const GRAIL_DEV = 'grailqa/grailqa_dev.json';
const GRAIL_EXTRA = 'grailqa/grailqa_dev_extra.json';
const WEBQSP = 'webqsp/webqsp_train.json';
const AGENT = 'agentbench-kg/kg_freebase_sexpr.json';
const LCQUAD2 = 'lcquad2/train_subset.json';

/** Wikidata's "instance of" (P31), direct and statement forms: membership in a class. */
const WD_INSTANCE_OF = new Set(['http://www.wikidata.org/prop/direct/P31', 'http://www.wikidata.org/prop/P31', 'http://www.wikidata.org/prop/statement/P31']);

const WD_PREFIXES = [
  'PREFIX wd: <http://www.wikidata.org/entity/>',
  'PREFIX wdt: <http://www.wikidata.org/prop/direct/>',
  'PREFIX p: <http://www.wikidata.org/prop/>',
  'PREFIX ps: <http://www.wikidata.org/prop/statement/>',
  'PREFIX pq: <http://www.wikidata.org/prop/qualifier/>',
  'PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>',
  'PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>',
].join('\n');

function grailNames(r: Json): [string, string][] {
  const out: [string, string][] = [];
  for (const n of list(obj(r.graph_query).nodes)) if (n.node_type === 'entity') out.push([str(n.id), str(n.friendly_name)]);
  for (const [m, n] of strings(r.topic_entity)) out.push([m, n]);
  return out;
}

/**
 * LC-QuAD 2.0's NNQT question writes each label of its query in braces ("How many {employer} are for {Edward
 * Snowden}"), in its template's order. Ids and brace texts are matched across records, repeated until nothing
 * changes: (1) an id takes the one text present in every record that has it (less the texts already given to the
 * record's other ids), and a record left with one id and one text pairs them; (2) per template (template id, the
 * kinds of its ids in query order, the number of braces), the id positions → brace positions that the labelled
 * ids vote for are applied to the template's other records.
 */
export function alignBraceLabels(records: { text: string; query: string; template: string }[]): Map<string, string> {
  const recs = records.map((r) => {
    const ids = [...new Set([...r.query.matchAll(/\b(?:wd|wdt|p|ps|pq):([PQ]\d+)\b/g)].map((m) => m.at(1) ?? ''))].filter((x) => x !== '');
    const texts = [...new Set([...r.text.matchAll(/\{([^{}]+)\}/g)].map((m) => (m.at(1) ?? '').trim()))].filter((x) => x !== '');
    return { ids, texts, key: `${r.template}|${ids.map((i) => i.charAt(0)).join('')}|${texts.length}` };
  });
  const label = new Map<string, string>();
  const give = (id: string, text: string): boolean => {
    if (label.has(id)) return false;
    label.set(id, text);
    return true;
  };
  for (let round = 0; round < 20; round++) {
    let changed = false;
    const candidates = new Map<string, Set<string>>();
    for (const r of recs) {
      const given = new Set(r.ids.flatMap((i) => label.get(i) ?? []));
      const ids = r.ids.filter((i) => !label.has(i));
      const texts = r.texts.filter((t) => !given.has(t));
      for (const i of ids) {
        const prev = candidates.get(i);
        candidates.set(i, prev ? new Set([...prev].filter((t) => texts.includes(t))) : new Set(texts));
      }
      const onlyId = ids.at(0);
      const onlyText = texts.at(0);
      if (ids.length === 1 && texts.length === 1 && onlyId !== undefined && onlyText !== undefined) changed = give(onlyId, onlyText) || changed;
    }
    for (const [i, ts] of candidates) {
      const t = [...ts].at(0);
      if (ts.size === 1 && t !== undefined) changed = give(i, t) || changed;
    }
    // template votes: position of an id in the query → position of its text among the braces
    const votes = new Map<string, Map<string, number>>();
    for (const r of recs) {
      const v = votes.get(r.key) ?? new Map<string, number>();
      votes.set(r.key, v);
      r.ids.forEach((id, p) => {
        const t = label.get(id);
        const q = t === undefined ? -1 : r.texts.indexOf(t);
        if (q >= 0) v.set(`${p}>${q}`, (v.get(`${p}>${q}`) ?? 0) + 1);
      });
    }
    for (const r of recs) {
      const v = votes.get(r.key);
      if (!v) continue;
      r.ids.forEach((id, p) => {
        let best = -1;
        let bestVotes = 0;
        let total = 0;
        for (const [pq, n] of v) {
          if (!pq.startsWith(`${p}>`)) continue;
          total += n;
          if (n > bestVotes) [best, bestVotes] = [Number(pq.slice(pq.indexOf('>') + 1)), n];
        }
        const t = r.texts.at(best);
        // a clear majority of at least two labelled records of the template
        if (best >= 0 && bestVotes >= 2 && bestVotes * 4 >= total * 3 && t !== undefined) changed = give(id, t) || changed;
      });
    }
    if (!changed) break;
  }
  return label;
}

const NOW: Conversion = { ok: false, reason: 'TC NOW (no literal for the present)' };
/** A ChatKBQA S-expression: `(TC … NOW)` ("at present") has no literal in the form language. */
const chatKbqa = (sexpr: string | null, question: string, naming: () => Naming): Conversion => (sexpr !== null && /\bNOW\)/.test(sexpr) ? NOW : fromSexpr(sexpr, question, naming()));

const grailItem =
  (group: (r: Json) => Group | undefined) =>
  (r: Json, ctx: Context): Item => {
    const g = group(r);
    return { id: num(r.qid), question: str(r.question), original: str(r.s_expression), conversion: fromSexpr(str(r.s_expression), str(r.question), ctx.freebase(grailNames(r))), ...(g ? { group: g } : {}) };
  };

/** An example of the path importers (MetaQA, PathQuestion, WC2014) as an item, its split by its line rule. */
const lineItem = (e: Example, split: 'train' | 'valid', conversion: Conversion, group?: Group): Item => ({ id: e.id, question: e.question, original: e.form ?? '', conversion, split, ...(group ? { group } : {}) });

const pathSource = (name: string): Source => {
  const spec = defined(PATH_DATASETS[name], `path data set ${name}`);
  const wc = spec.kind === 'wc';
  return {
    name: wc ? 'wc2014' : `pathquestion-${name}`,
    graph: wc ? 'wc2014' : 'pathquestion',
    files: [spec.questions],
    items: (data) =>
      importPathDataset(data.dir, name).map((e) => {
        const index = Number(e.id.slice(e.id.lastIndexOf('-') + 1));
        return lineItem(e, index % 20 === 7 ? 'valid' : 'train', fromSexpr(e.form, e.question, wordNaming()), wc ? 'wc2014' : 'pathquestion');
      }),
  };
};

const METAQA_FILES = [1, 2, 3].flatMap((h) => [`metaqa/${h}-hop/qa_dev.txt`, `metaqa/${h}-hop/qa_dev_qtype.txt`]);

/** Every source the build knows, in output order. */
export const BASE_SOURCES: readonly Source[] = [
  { name: 'grailqa-dev', graph: 'freebase', files: [GRAIL_DEV], items: (d, ctx) => d.json(GRAIL_DEV).map((r) => grailItem(() => 'grailqa-dev')(r, ctx)) },
  { name: 'grailqa-dev-extra', graph: 'freebase', files: [GRAIL_EXTRA], items: (d, ctx) => d.json(GRAIL_EXTRA).map((r) => grailItem((x) => (x.same_lf_as_held_dev === true ? 'grailqa-dev' : undefined))(r, ctx)) },
  {
    name: 'webqsp-train',
    graph: 'freebase',
    files: [WEBQSP],
    items: (d, ctx) =>
      d.json(WEBQSP).map((r) => {
        const sexpr = typeof r.sexpr === 'string' ? r.sexpr : null;
        return { id: str(r.id), question: str(r.question), original: sexpr ?? '', conversion: chatKbqa(sexpr, str(r.question), () => ctx.freebase(strings(r.entity_names))) };
      }),
  },
  {
    name: 'agentbench-kg',
    graph: 'freebase',
    files: [AGENT],
    items: (d, ctx) =>
      d.json(AGENT).map((r) => ({
        id: num(r.qid),
        question: str(r.question),
        original: str(r.s_expression),
        conversion: fromSexpr(str(r.s_expression), str(r.question), ctx.freebase(strings(r.entities).map(([n, m]): [string, string] => [m, n]))),
      })),
  },
  {
    // CWQ here is its TEST split; only questions built on WebQSP train questions (WebQTrn-*) are read, in group 'cwq'
    name: 'cwq-test-on-webqsp-train',
    graph: 'freebase',
    files: ['cwq/cwq_test_sexpr.json'],
    items: (d, ctx) =>
      d
        .json('cwq/cwq_test_sexpr.json')
        .filter((r) => str(r.id).startsWith('WebQTrn-'))
        .map((r) => {
          const sexpr = typeof r.sexpr === 'string' ? r.sexpr : null;
          return { id: str(r.id), question: str(r.question), original: sexpr ?? '', conversion: chatKbqa(sexpr, str(r.question), () => ctx.freebase([])), group: 'cwq' };
        }),
  },
  {
    name: 'simplequestions-fb-valid',
    graph: 'freebase',
    files: ['simplequestions/fb_valid.json'],
    items: (d, ctx) => d.json('simplequestions/fb_valid.json').map((r) => ({ id: num(r.id), question: str(r.question), original: str(r.s_expression), conversion: fromSexpr(str(r.s_expression), str(r.question), ctx.freebase([])) })),
  },
  {
    name: 'lcquad1-train',
    graph: 'dbpedia',
    files: ['lcquad1/train.json'],
    items: (d) => d.json('lcquad1/train.json').map((r) => ({ id: num(r.id), question: str(r.question), original: str(r.sparql_dbpedia), conversion: fromSparql(standardCount(str(r.sparql_dbpedia)), str(r.question), localNameNaming()) })),
  },
  {
    name: 'qald9-dbpedia-train',
    graph: 'dbpedia',
    files: ['qald/qald9_train_dbpedia.json'],
    items: (d) => d.json('qald/qald9_train_dbpedia.json').map((r) => ({ id: num(r.id), question: str(r.question), original: str(r.sparql), conversion: fromSparql(str(r.sparql), str(r.question), localNameNaming()) })),
  },
  {
    name: 'qald7-wikidata-train',
    graph: 'wikidata',
    files: ['qald/qald7_train_wikidata.json'],
    items: (d, ctx) => d.json('qald/qald7_train_wikidata.json').map((r) => ({ id: num(r.id), question: str(r.question), original: str(r.sparql), conversion: fromSparql(str(r.sparql), str(r.question), ctx.wikidata()) })),
  },
  {
    name: 'lcquad2-subset',
    graph: 'wikidata',
    files: [LCQUAD2],
    items: (d, ctx) =>
      d.json(LCQUAD2).map((r) => {
        const q = str(r.question).trim();
        const conversion: Conversion = q === '' || q.toLowerCase() === 'n/a' ? { ok: false, reason: 'no question text' } : fromSparql(WD_PREFIXES + '\n' + str(r.sparql_wikidata), q, ctx.wikidata());
        return { id: num(r.uid), question: q, original: str(r.sparql_wikidata), conversion };
      }),
  },
  ...(['train', 'valid'] as const).map(
    (split): Source => ({
      name: `simplequestions-wd-${split}`,
      graph: 'wikidata',
      files: [`simplequestions/wd_${split}.json`],
      items: (d, ctx) =>
        d.json(`simplequestions/wd_${split}.json`).map((r) => ({
          id: num(r.id),
          question: str(r.question),
          original: str(r.sparql_wikidata),
          conversion: r.answerable !== true ? { ok: false, reason: 'not answerable on Wikidata' } : fromSparql(WD_PREFIXES + '\n' + str(r.sparql_wikidata), str(r.question), ctx.wikidata()),
        })),
    }),
  ),
  {
    name: 'metaqa-dev',
    graph: 'metaqa',
    files: METAQA_FILES,
    items: (d, ctx) => {
      const { train, valid } = importMetaqaSplit(dataPath(d.dir, 'metaqa'));
      const item = (split: 'train' | 'valid') => (e: Example) =>
        lineItem(e, split, ctx.metaqaTestIds.has(e.id) ? { ok: false, reason: 'MetaQA test slice (never trained on)' } : fromSexpr(e.form, e.question, wordNaming()));
      return [...train.map(item('train')), ...valid.map(item('valid'))];
    },
  },
  ...['pq-2h', 'pq-3h', 'pql-2h', 'pql-3h', 'wc-p2'].map(pathSource),
];

/** Per source: records read, pairs converted, drops by reason, where the pairs went, distinct names. */
export interface SourceStat {
  source: string;
  graph: BaseGraph;
  read: number;
  converted: number;
  rejected: Record<string, number>;
  train: number;
  valid: number;
  heldOut: number;
  relations: number;
  classes: number;
}

export interface BaseCorpus {
  train: BasePair[];
  valid: BasePair[];
  /** Pairs of the held-out graphs / sources / groups (never in train or valid). */
  heldOut: BasePair[];
  stats: SourceStat[];
  /** Sources skipped because a file of theirs is absent: name → the first missing file. */
  absent: Record<string, string>;
  groups: Record<Group, string[]>;
  relations: number;
  classes: number;
  wikidataLabels: number;
}

export interface BaseCorpusOptions {
  /** Graphs (freebase, wc2014, …), source names or groups whose pairs are held out; DEFAULT_HOLD_OUT when absent. */
  holdOut?: readonly string[];
  /** MetaQA example ids never trained on (the repo's MetaQA test slice, fixtures/metaqa/test.jsonl). */
  metaqaTestIds?: ReadonlySet<string>;
  /** Only these sources (by name); all when absent. */
  sources?: readonly string[];
}

/** The names `holdOut` and `sources` may use; anything else is a BAD_REQUEST. */
export function holdOutNames(): { graphs: string[]; sources: string[]; groups: string[] } {
  return { graphs: [...new Set(BASE_SOURCES.map((s) => s.graph))], sources: BASE_SOURCES.map((s) => s.name), groups: Object.keys(GROUPS) };
}

/** Builds the corpus from the data folder `data` (see the module comment). */
export function buildBaseCorpus(data: string, options: BaseCorpusOptions = {}): BaseCorpus {
  const known = holdOutNames();
  const holdOut = new Set(options.holdOut ?? DEFAULT_HOLD_OUT);
  for (const h of holdOut)
    if (![...known.graphs, ...known.sources, ...known.groups].includes(h))
      throw new AskgraphError('BAD_REQUEST', `cannot hold out '${h}': not a graph (${known.graphs.join(', ')}), a source or a group (${known.groups.join(', ')})`);
  for (const s of options.sources ?? []) if (!known.sources.includes(s)) throw new AskgraphError('BAD_REQUEST', `unknown source '${s}' (one of ${known.sources.join(', ')})`);
  if (!fs.existsSync(dataPath(data, '.'))) throw new AskgraphError('NOT_FOUND', `data folder ${data} does not exist`);

  const reader = new DataReader(data);
  const ctx = new Context(reader, options.metaqaTestIds ?? new Set());
  const out: BaseCorpus = { train: [], valid: [], heldOut: [], stats: [], absent: {}, groups: { wc2014: [], pathquestion: [], 'grailqa-dev': [], cwq: [] }, relations: 0, classes: 0, wikidataLabels: 0 };
  const allRelations = new Set<string>();
  const allClasses = new Set<string>();
  for (const s of BASE_SOURCES) {
    if (options.sources && !options.sources.includes(s.name)) continue;
    const missing = s.files.find((f) => !reader.has(f));
    if (missing !== undefined) {
      out.absent[s.name] = missing;
      continue;
    }
    const items = s.items(reader, ctx);
    const stat: SourceStat = { source: s.name, graph: s.graph, read: items.length, converted: 0, rejected: {}, train: 0, valid: 0, heldOut: 0, relations: 0, classes: 0 };
    const reject = (reason: string): void => {
      stat.rejected[reason] = (stat.rejected[reason] ?? 0) + 1;
    };
    const rels = new Set<string>();
    const classes = new Set<string>();
    const seen = new Set<string>();
    for (const it of items) {
      if (!it.conversion.ok) {
        reject(it.conversion.reason);
        continue;
      }
      const id = `${s.name}:${it.id}`;
      if (seen.has(id)) {
        reject('duplicate id');
        continue;
      }
      seen.add(id);
      stat.converted++;
      const form = parseForm(it.conversion.form);
      for (const r of relationRefs(form)) if (r.kind === 'name') rels.add(r.name);
      for (const c of classRefs(form)) if (c.kind === 'name') classes.add(c.name);
      const pair: BasePair = { id, source: s.name, graph: s.graph, question: it.question, form: it.conversion.form, original: it.original };
      if (it.group) out.groups[it.group].push(id);
      if (holdOut.has(s.graph) || holdOut.has(s.name) || (it.group !== undefined && holdOut.has(it.group))) {
        out.heldOut.push(pair);
        stat.heldOut++;
      } else if ((it.split ?? splitOf(s.name, it.conversion.form)) === 'valid') {
        out.valid.push(pair);
        stat.valid++;
      } else {
        out.train.push(pair);
        stat.train++;
      }
    }
    stat.relations = rels.size;
    stat.classes = classes.size;
    rels.forEach((r) => allRelations.add(r));
    classes.forEach((c) => allClasses.add(c));
    out.stats.push(stat);
  }
  out.relations = allRelations.size;
  out.classes = allClasses.size;
  out.wikidataLabels = reader.has(LCQUAD2) ? ctx.wdLabels().size : 0;
  return out;
}
