/**
 * The shipped parser: a model folder (config.json, tokenizer.model, encoder.onnx, decoder.onnx; see the
 * model-folder contract in src/core/README.md) loaded once and used through the Generator interface.
 *
 * generate(): encode the question (sentencepiece ids), run the encoder once (cross-attention keys and
 * values), then the grammar-constrained beam search over the one-step decoder with its KV cache.
 * score(): teacher-forced log-probabilities of given forms (entity labels are tokenised as the
 * question's pieces that spell them when they occur in it, else as the label's own pieces).
 */
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { AskgraphError, itemAt, Candidate, DEFAULT_BEAM, Form, GenerateOptions, GenerateResult, Generator, Ref, Relation, defaultPackDir, foldCase, looksLikeTriples, readTriples } from '../core';
import { canonicalText, mapRefs, parseForm, printForm, printLiteral } from '../form';
import { beamSearch, logMass, StepDecoder, teacherForce } from './beam';
import { GrammarConstraint, TargetVocabulary, tokensToFormText } from './constraint';
import { nameTrie, NameTrieNode, openNameText, openNameToken } from './names';
import { float32Tensor, int64Tensor, OnnxSession, SessionOptions, TensorData } from './onnx';
import { SentencePieceTokenizer } from './tokenizer';

const ConfigSchema = z
  .object({
    format: z.literal('askgraph-seq2seq/1'),
    tokenizer: z.string().default('tokenizer.model'),
    pieces: z.number().int().positive(),
    pad: z.number().int(),
    bos: z.number().int(),
    eos: z.number().int(),
    unk: z.number().int(),
    symbols: z.array(z.string()).min(4),
    relations: z.array(z.string()),
    /** Bare class names the model may write in expression position (each also in symbols). */
    classes: z.array(z.string()).default([]),
    /**
     * "open": an open-name model (askgraph-base, issue 20) — relations, classes and literals are written as
     * pieces followed by the symbol nameEnd (relations and classes are then empty).
     */
    names: z.literal('open').optional(),
    nameEnd: z.string().default('</n>'),
    dModel: z.number().int().positive(),
    heads: z.number().int().positive(),
    encoderLayers: z.number().int().positive(),
    decoderLayers: z.number().int().positive(),
    headDim: z.number().int().positive(),
    maxSourceLength: z.number().int().positive(),
    maxTargetLength: z.number().int().positive(),
    version: z.string(),
    encoder: z.string().default('encoder.onnx'),
    decoder: z.string().default('decoder.onnx'),
  })
  .loose();

export type ModelConfig = z.infer<typeof ConfigSchema>;

/**
 * The names of a graph an open-name model may write (the graph-name restriction): relation and class names as
 * identifiers or words ("birthPlace", "place of birth"), each tokenised as the trainer writes it (its words).
 */
export interface GraphNames {
  relations?: Iterable<string>;
  classes?: Iterable<string>;
}

export interface ParserOptions extends SessionOptions {
  /** Restrict relation slots to these relation names (e.g. the relations of the store). Closed models. */
  relations?: Iterable<string>;
  /**
   * Open-name models: restrict relation slots and class names to these names (a trie of their pieces; a kind
   * left out stays free). Default: free — any name the model writes.
   */
  names?: GraphNames;
  /** Length normalisation exponent for ranking beams (default 0: raw log-prob sums). */
  lengthPenalty?: number;
  /** Renormalise each step over the grammar-allowed tokens (see BeamOptions.renormalize). */
  renormalize?: boolean;
  /** Drop live beams this many nats below the best hypothesis (see BeamOptions.prune; default off). */
  prune?: number;
  /**
   * Entity labels of the graph: copied spans must spell one of them (compared case- and
   * space-insensitively) whenever some span of the question does; otherwise any span may be copied.
   * 'pack' (the default) reads them from the triple files (`head|relation|tail`) of the pack the model
   * folder sits in (<modelDir>/../pack.json), if there is one; 'none' turns the restriction off.
   */
  labels?: Iterable<string> | 'pack' | 'none';
  /**
   * How labels act: a soft prior (default: copying a span that is not a (maximal) label costs
   * labelPenalty nats, so a name missing from the graph can still be copied when the model is sure of
   * it) or 'hard' (only label spans, whenever the question contains one).
   */
  labelMode?: 'soft' | 'hard';
  /** Nats a non-label span costs in soft mode (default 8). */
  labelPenalty?: number;
  /**
   * With labels: only label spans not strictly inside another label span of the question may be
   * copied ("Boy" is not offered when "Boy A" is a label there too). Default true.
   */
  maximalSpans?: boolean;
}

/** Normalised label sets read from files, shared by parsers (keyed by path and mtime). */
const labelSetCache = new WeakSet<Set<string>>();
const labelFiles = new Map<string, { mtimeMs: number; set: Set<string> }>();

/** The normalised labels of the triple files of the pack holding a model folder, or undefined. */
export function packLabels(modelDir: string): Set<string> | undefined {
  const packFile = path.join(path.dirname(path.resolve(modelDir)), 'pack.json');
  if (!fs.existsSync(packFile)) return undefined;
  let data: unknown;
  try {
    data = (JSON.parse(fs.readFileSync(packFile, 'utf8')) as { data?: unknown }).data;
  } catch {
    return undefined;
  }
  if (!Array.isArray(data)) return undefined;
  const files = data.filter((f): f is string => typeof f === 'string' && /\.(txt|tsv)$/i.test(f)).map((f) => path.join(path.dirname(packFile), f));
  if (files.length === 0) return undefined;
  const out = new Set<string>();
  for (const f of files) {
    if (!fs.existsSync(f)) continue;
    const mtimeMs = fs.statSync(f).mtimeMs;
    let hit = labelFiles.get(f);
    if (hit?.mtimeMs !== mtimeMs) {
      const set = new Set([...readLabelsFile(f)].map(foldCase));
      labelSetCache.add(set);
      hit = { mtimeMs, set };
      labelFiles.set(f, hit);
    }
    if (files.length === 1) return hit.set;
    for (const l of hit.set) out.add(l);
  }
  labelSetCache.add(out);
  return out.size ? out : undefined;
}

/** Labels from a file: a triple file (src/core/triples.ts) gives its heads and tails, any other file one label per line. */
export function readLabelsFile(file: string): Set<string> {
  if (!fs.existsSync(file)) throw new AskgraphError('NOT_FOUND', `labels file not found: ${file}`);
  const text = fs.readFileSync(file, 'utf8');
  const out = new Set<string>();
  if (looksLikeTriples(text)) {
    for (const { triple } of readTriples(text, path.basename(file))) {
      out.add(triple[0]);
      out.add(triple[2]);
    }
  } else {
    for (const line of text.split('\n')) if (line.trim()) out.add(line.trim());
  }
  return out;
}

export interface ParserGenerateOptions extends GenerateOptions {
  /** Restrict relation slots for this call (intersected with the parser's relations). */
  relations?: Iterable<string>;
  /** Open-name models: the graph-name restriction for this call (instead of the parser's). */
  names?: GraphNames;
}

/** The graph-name restriction of an open-name model: piece tries, and decoded form token → the graph's own name. */
export interface NameTries {
  relations?: NameTrieNode;
  classes?: NameTrieNode;
  relationNames?: Map<string, string>;
  classNames?: Map<string, string>;
}

/** A bare name of the form grammar ([21]): what a graph's own name must be to stand in a form. */
const FORM_NAME = /^[A-Za-z_][A-Za-z0-9_.:\-/#%]*$/;

/** The ONNX seq2seq parser behind the Generator interface. */
export class OnnxParser implements Generator {
  readonly vocab: TargetVocabulary;
  private readonly symbolId = new Map<string, number>();
  private readonly labelSet?: Set<string>;
  /** Open-name models: the tries of the parser's graph-name restriction (ParserOptions.names). */
  private readonly tries?: NameTries;

  constructor(
    readonly id: string,
    readonly dir: string,
    readonly config: ModelConfig,
    readonly tokenizer: SentencePieceTokenizer,
    private readonly encoder: OnnxSession,
    private readonly decoder: OnnxSession,
    private readonly opts: ParserOptions = {},
  ) {
    this.vocab = {
      pieces: config.pieces,
      symbols: config.symbols,
      relations: config.relations,
      classes: config.classes,
      eos: config.eos,
      special: [config.bos, config.eos, config.pad].filter((x) => x >= 0),
      ...(this.open ? { names: { end: config.nameEnd, pieces: tokenizer.pieceStrings(config.pieces) }, unk: config.unk } : {}),
    };
    if (this.open && opts.names) this.tries = this.nameTries(opts.names);
    config.symbols.forEach((s, i) => {
      if (!this.symbolId.has(s)) this.symbolId.set(s, config.pieces + i);
    });
    const labels = opts.labels;
    if (labels !== undefined && labels !== 'pack' && labels !== 'none') {
      this.labelSet = labels instanceof Set && labelSetCache.has(labels as Set<string>) ? (labels as Set<string>) : new Set([...labels].map(foldCase));
    }
  }

  /** An open-name model (config.json names: open). */
  get open(): boolean {
    return this.config.names === 'open';
  }

  /** The piece tries of graph names (open-name models): each name's words encoded as the trainer encodes them. */
  nameTries(names: GraphNames): NameTries {
    const never = new Set([this.config.unk, this.config.bos, this.config.eos, this.config.pad]);
    const build = (list: Iterable<string>): { trie: NameTrieNode; own: Map<string, string> } => {
      const own = new Map<string, string>();
      const seqs = [...list].flatMap((n) => {
        const name = n.trim();
        const text = openNameText(name);
        const ids = text === undefined ? [] : this.tokenizer.encode(text);
        if (!ids.length || ids.some((i) => never.has(i) || i >= this.config.pieces)) return [];
        // the decoded words' form token → the graph's own name, when that is a form name ([21]) itself
        const token = openNameToken(this.tokenizer.decode(ids));
        if (FORM_NAME.test(name) && !own.has(token)) own.set(token, name);
        return [ids];
      });
      return { trie: nameTrie(seqs), own };
    };
    const rel = names.relations ? build(names.relations) : undefined;
    const cls = names.classes ? build(names.classes) : undefined;
    return {
      ...(rel ? { relations: rel.trie, relationNames: rel.own } : {}),
      ...(cls ? { classes: cls.trie, classNames: cls.own } : {}),
    };
  }

  /** Number of graph labels copied spans are restricted to (0 = no restriction). */
  get labelCount(): number {
    return this.labelSet?.size ?? 0;
  }

  /** Beams are scored with the grammar-constrained distribution unless turned off (ParserOptions.renormalize). */
  get renormalize(): boolean {
    return this.opts.renormalize ?? true;
  }

  /** The grammar/copy constraint for a question. */
  constraint(question: string, src: readonly number[], relations?: Iterable<string>, names?: GraphNames): GrammarConstraint {
    const pieces = this.tokenizer.encodePieces(question).slice(0, src.length);
    const spanFilter = this.labelSet ? this.labelSpans(pieces) : undefined;
    const tries = this.open ? (names ? this.nameTries(names) : this.tries) : undefined;
    return new GrammarConstraint(this.vocab, src, {
      ...(tries ? { nameTries: { ...(tries.relations ? { relations: tries.relations } : {}), ...(tries.classes ? { classes: tries.classes } : {}) } } : {}),
      relations: intersect(this.opts.relations, relations),
      sourcePieces: pieces,
      spanFilter,
      spanPenalty: this.opts.labelMode === 'hard' ? undefined : (this.opts.labelPenalty ?? 8),
    });
  }

  /** The span test for graph labels: the span spells a label (and is maximal, unless turned off). */
  private labelSpans(pieces: readonly string[]): (a: number, e: number) => boolean {
    const labels = this.labelSet ?? new Set<string>(); // only called with a label set
    const n = pieces.length;
    const spans: [number, number][] = [];
    for (let a = 0; a < n; a++) {
      let text = '';
      for (let e = a; e < n && e - a < 64; e++) {
        text += itemAt(pieces, e).replace(/▁/g, ' ');
        if (labels.has(foldCase(text))) spans.push([a, e]);
      }
    }
    const keep = new Set<number>();
    for (const [a, e] of spans) {
      const inside = this.opts.maximalSpans !== false && spans.some(([a2, e2]) => a2 <= a && e <= e2 && (a2 < a || e < e2));
      if (!inside) keep.add(a * n + e);
    }
    return (a, e) => keep.has(a * n + e);
  }

  /** Sentencepiece ids of the question as the encoder sees them (truncated to maxSourceLength). */
  sourceIds(question: string): number[] {
    return this.tokenizer.encode(question).slice(0, this.config.maxSourceLength);
  }

  /** Runs the encoder: cross-attention keys and values [L, 1, H, S, Dh]. */
  async encode(src: readonly number[]): Promise<{ k: TensorData; v: TensorData }> {
    const out = await this.encoder.run({ src: int64Tensor(src, [1, src.length]) });
    if (!out.cross_k || !out.cross_v) throw new AskgraphError('MODEL_ERROR', 'encoder.onnx: outputs cross_k/cross_v missing');
    return { k: out.cross_k, v: out.cross_v };
  }

  /** A step decoder over the decoder graph for one encoded source. */
  stepDecoder(cross: { k: TensorData; v: TensorData }): OnnxStepDecoder {
    return new OnnxStepDecoder(this.decoder, cross, this.config.pieces + this.config.symbols.length);
  }

  async generate(question: string, opts: ParserGenerateOptions = {}): Promise<GenerateResult> {
    const t0 = performance.now();
    const beam = Math.max(1, Math.floor(opts.beam ?? DEFAULT_BEAM));
    const maxLength = Math.max(2, Math.floor(opts.maxLength ?? this.config.maxTargetLength));
    const src = this.sourceIds(question.trim());
    if (src.length === 0) return { candidates: [], dropped: 0, timeMs: performance.now() - t0 };
    const constraint = this.constraint(question.trim(), src, opts.relations, opts.names);
    const cross = await this.encode(src);
    const hyps = await beamSearch(this.stepDecoder(cross), constraint, {
      beam,
      maxLength,
      bos: this.config.bos,
      eos: this.config.eos,
      lengthPenalty: this.opts.lengthPenalty,
      renormalize: this.renormalize,
      prune: this.opts.prune,
    });
    const candidates: Candidate[] = [];
    const seen = new Set<string>();
    let dropped = 0;
    // graph-restricted names are written back as the graph's own names (place of birth → placeOfBirth)
    const tries = this.open ? (opts.names ? this.nameTries(opts.names) : this.tries) : undefined;
    const own = (map: Map<string, string> | undefined) => (ref: Ref): Ref => (ref.kind === 'name' ? { kind: 'name', name: map?.get(ref.name) ?? ref.name } : ref);
    for (const h of hyps) {
      let form: Form;
      try {
        form = parseForm(tokensToFormText(h.tokens, this.vocab, (ids) => this.tokenizer.decode(ids)));
        if (tries?.relationNames || tries?.classNames) form = mapRefs(form, { relation: own(tries.relationNames), cls: own(tries.classNames) });
      } catch {
        dropped++; // cannot happen with the constraint; counted rather than thrown
        continue;
      }
      const key = canonicalText(form);
      if (seen.has(key)) continue;
      seen.add(key);
      candidates.push({ form, text: printForm(form), logProb: h.logProb, rank: candidates.length });
    }
    return { candidates, dropped, timeMs: performance.now() - t0 };
  }

  /**
   * Teacher-forced sum of log-probabilities (eos included) of each form for the question — on the same
   * scale as generate()'s candidates: with renormalisation on, each step is renormalised over the
   * grammar-allowed tokens when the form is one the constrained decoder could produce (entity copied
   * from the question at word boundaries); other forms get the raw model log-probability (lower).
   * Forms that cannot be written in the target vocabulary (unknown relation, IRI, literal not in the
   * symbols, unparseable text) get -Infinity.
   */
  async score(question: string, forms: string[]): Promise<number[]> {
    const q = question.trim();
    const src = this.sourceIds(q);
    const result = new Array<number>(forms.length).fill(-Infinity);
    if (src.length === 0 || forms.length === 0) return result;
    const seqs: number[][] = [];
    const index: number[] = [];
    forms.forEach((text, i) => {
      const seq = this.targetIds(q, src, text);
      if (seq) {
        seqs.push(seq);
        index.push(i);
      }
    });
    if (seqs.length === 0) return result;
    const cross = await this.encode(src);
    const constraint = this.constraint(q, src);
    const renorm = this.renormalize;
    // per sequence: the allowed sets along the form (eos step included), or null when not producible
    const allowedAlong = seqs.map((seq) => {
      try {
        let st = constraint.initial();
        const sets: { allowed: number[]; bonus: number }[] = [];
        for (const t of [...seq, this.config.eos]) {
          const allowed = constraint.allowed(st);
          if (!allowed.includes(t)) return null;
          sets.push({ allowed, bonus: constraint.tokenBonus(st, t) });
          st = constraint.advance(st, t);
        }
        return sets;
      } catch {
        return null;
      }
    });
    const CHUNK = 16;
    for (let a = 0; a < seqs.length; a += CHUNK) {
      const part = seqs.slice(a, a + CHUNK);
      const sets = allowedAlong.slice(a, a + CHUNK);
      const norm = (b: number, step: number, logp: Float32Array, offset: number): number => {
        const at = sets[b]?.[step];
        if (!at) return 0;
        return (renorm ? logMass(logp, offset, at.allowed) : 0) - at.bonus;
      };
      const scores = await teacherForce(this.stepDecoder(cross), part, this.config.bos, this.config.eos, norm);
      scores.forEach((s, j) => (result[itemAt(index, a + j, 'scored index')] = s));
    }
    return result;
  }

  /** Target ids of a form (eos excluded), or null if it cannot be written in the target vocabulary. */
  targetIds(question: string, src: readonly number[], text: string): number[] | null {
    let form: Form;
    try {
      form = parseForm(text);
    } catch {
      return null;
    }
    const out: number[] = [];
    const sym = (s: string): boolean => {
      const id = this.symbolId.get(s);
      if (id === undefined) return false;
      out.push(id);
      return true;
    };
    const open = this.open;
    const never = new Set([this.config.unk, this.config.bos, this.config.eos, this.config.pad]);
    /** Open-name models: a relation, class or literal as the pieces of its words, then nameEnd (as the trainer writes it). */
    const name = (token: string): boolean => {
      const text = openNameText(token);
      const ids = text === undefined ? [] : this.tokenizer.encode(text);
      if (ids.length === 0 || ids.some((i) => never.has(i) || i >= this.config.pieces)) return false;
      out.push(...ids);
      return sym(this.config.nameEnd);
    };
    /** A literal (or a row count): a symbol, or an open name. */
    const lit = (token: string): boolean => (open ? name(token) : sym(token));
    const rel = (r: Relation): boolean => {
      if (r.kind === 'rel' && open) return r.ref.kind === 'name' && name(r.ref.name);
      if (r.kind === 'rel') return r.ref.kind === 'name' && this.config.relations.includes(r.ref.name) && sym(r.ref.name);
      if (r.kind === 'reverse') return sym('(') && sym('R') && rel(r.of) && sym(')');
      return false;
    };
    /** `[ … ]`: a label (or a CONTAINS text) as the question's pieces that spell it. */
    const span = (label: string): boolean => {
      const ids = this.labelPieces(question, src, label);
      if (ids.length === 0 || !sym('[')) return false;
      out.push(...ids);
      return sym(']');
    };
    const walk = (f: Form): boolean => {
      switch (f.kind) {
        case 'entity':
          return f.ref.kind === 'label' && span(f.ref.label);
        case 'literal':
          return lit(printLiteral(f));
        case 'class':
          if (open) return f.ref.kind === 'name' && name(f.ref.name);
          return f.ref.kind === 'name' && this.config.classes.includes(f.ref.name) && sym(f.ref.name);
        case 'join':
          return sym('(') && sym('JOIN') && rel(f.relation) && walk(f.arg) && sym(')');
        case 'and':
          return sym('(') && sym('AND') && walk(f.args[0]) && walk(f.args[1]) && sym(')');
        case 'count':
          return sym('(') && sym('COUNT') && walk(f.arg) && sym(')');
        case 'arg':
          return sym('(') && sym(f.op) && walk(f.arg) && rel(f.relation) && sym(')');
        case 'compare':
          return sym('(') && sym(f.op) && rel(f.relation) && lit(printLiteral(f.value)) && sym(')');
        case 'tc':
          return sym('(') && sym('TC') && walk(f.arg) && rel(f.relation) && lit(printLiteral(f.value)) && sym(')');
        case 'ask':
          return sym('(') && sym('ASK') && walk(f.arg) && sym(')');
        case 'diff':
        case 'or':
          return sym('(') && sym(f.kind.toUpperCase()) && walk(f.args[0]) && walk(f.args[1]) && sym(')');
        case 'aggregate':
          return sym('(') && sym(f.op) && walk(f.arg) && sym(')');
        case 'ratio':
        case 'arith':
          return sym('(') && sym(f.op) && walk(f.args[0]) && walk(f.args[1]) && sym(')');
        case 'common':
        case 'argcount':
          return sym('(') && sym(f.op) && walk(f.arg) && rel(f.relation) && sym(')');
        case 'has':
          return sym('(') && sym('HAS') && rel(f.relation) && sym(')');
        case 'table':
          return sym('(') && sym('TABLE') && walk(f.arg) && f.columns.every((c) => (c.kind === 'minus' ? sym('(') && sym('MINUS') && rel(c.args[0]) && rel(c.args[1]) && sym(')') : rel(c))) && sym(')');
        case 'group':
          return sym('(') && sym(f.op) && walk(f.arg) && rel(f.by) && (!f.value || rel(f.value)) && sym(')');
        case 'having':
          return sym('(') && sym('HAVING') && walk(f.arg) && sym(f.op) && lit(printLiteral(f.value)) && sym(')');
        case 'order':
          return sym('(') && sym(f.op) && walk(f.arg) && (!f.relation || rel(f.relation)) && sym(')');
        case 'slice':
          return sym('(') && sym(f.op) && lit(String(f.n)) && walk(f.arg) && sym(')');
        case 'attrcompare':
          return sym('(') && sym(f.op) && rel(f.relation) && rel(f.other) && sym(')');
        case 'more':
          return sym('(') && sym(f.op) && walk(f.args[0]) && walk(f.args[1]) && sym(')');
        case 'contains':
          // the text is copied from the question like an entity label
          return sym('(') && sym('CONTAINS') && (!f.relation || rel(f.relation)) && span(f.text) && sym(')');
      }
    };
    return walk(form) ? out : null;
  }

  /**
   * The pieces of a label as the model copies them: the shortest run of the question's pieces that
   * decodes to the label, without whitespace-only pieces (as the trainer builds targets), else the
   * label's own pieces.
   */
  private labelPieces(question: string, src: readonly number[], label: string): number[] {
    const want = label.trim();
    if (question.includes(want)) {
      const pieces = this.tokenizer.encodePieces(question).slice(0, src.length);
      let best: [number, number] | null = null;
      for (let i = 0; i < src.length; i++) {
        if (pieces[i] === '▁') continue;
        for (let j = i; j < src.length; j++) {
          const text = this.tokenizer.decode(src.slice(i, j + 1)).trim();
          if (text === want) {
            if (!best || j - i < best[1] - best[0]) best = [i, j];
            break;
          }
          if (text.length > want.length) break;
        }
      }
      if (best) return src.slice(best[0], best[1] + 1).filter((_, k) => pieces[best[0] + k] !== '▁');
    }
    return this.tokenizer.encode(want);
  }

  /** Releases the ONNX sessions; the parser is dropped from loadParser's cache. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const [key, p] of cache) if (cacheOwner.get(p) === this) cache.delete(key);
    await Promise.all([this.encoder.close(), this.decoder.close()]);
  }

  private closed = false;
}

/** The decoder graph as a StepDecoder: tiles the cross keys/values to the beam and gathers the cache. */
export class OnnxStepDecoder implements StepDecoder {
  private pastK: TensorData;
  private pastV: TensorData;
  private crossB = 0;
  private crossK!: TensorData;
  private crossV!: TensorData;
  private readonly L: number;
  private readonly H: number;
  private readonly Dh: number;

  constructor(
    private readonly session: OnnxSession,
    private readonly cross: { k: TensorData; v: TensorData },
    readonly vocabSize: number,
  ) {
    const [L, , H, , Dh] = cross.k.dims;
    if (L === undefined || H === undefined || Dh === undefined) {
      throw new AskgraphError('MODEL_ERROR', `decoder cross-attention keys have dims [${cross.k.dims.join(', ')}], expected rank 5`);
    }
    this.L = L;
    this.H = H;
    this.Dh = Dh;
    this.pastK = float32Tensor(new Float32Array(0), [L, 1, H, 0, Dh]);
    this.pastV = float32Tensor(new Float32Array(0), [L, 1, H, 0, Dh]);
  }

  async step(tokens: readonly number[], position: number): Promise<Float32Array> {
    const B = tokens.length;
    if (this.crossB !== B) {
      this.crossK = tile(this.cross.k, B);
      this.crossV = tile(this.cross.v, B);
      this.crossB = B;
    }
    if (this.pastK.dims[3] === 0 && this.pastK.dims[1] !== B) {
      this.pastK = float32Tensor(new Float32Array(0), [this.L, B, this.H, 0, this.Dh]);
      this.pastV = float32Tensor(new Float32Array(0), [this.L, B, this.H, 0, this.Dh]);
    }
    if (this.pastK.dims[1] !== B) throw new AskgraphError('INTERNAL', `beam of ${B} but a cache of ${this.pastK.dims[1]}`);
    const out = await this.session.run({
      tokens: int64Tensor(tokens, [B, 1]),
      position: int64Tensor([position], [1]),
      cross_k: this.crossK,
      cross_v: this.crossV,
      past_k: this.pastK,
      past_v: this.pastV,
    });
    if (!out.logprobs || !out.present_k || !out.present_v) {
      throw new AskgraphError('MODEL_ERROR', 'decoder.onnx: outputs logprobs/present_k/present_v missing');
    }
    if (out.logprobs.dims[1] !== this.vocabSize) {
      throw new AskgraphError('MODEL_ERROR', `decoder.onnx: ${out.logprobs.dims[1]} target logits, config says ${this.vocabSize}`);
    }
    this.pastK = out.present_k;
    this.pastV = out.present_v;
    return out.logprobs.data as Float32Array;
  }

  reorder(order: readonly number[]): void {
    const B = this.pastK.dims[1];
    if (order.length === B && order.every((b, i) => b === i)) return;
    this.pastK = gatherBatch(this.pastK, order);
    this.pastV = gatherBatch(this.pastV, order);
  }

  /** Shape facts, for tests. */
  get cacheDims(): readonly number[] {
    return this.pastK.dims;
  }
  get layout(): { L: number; H: number; Dh: number } {
    return { L: this.L, H: this.H, Dh: this.Dh };
  }
}

/** [L, 1, ...rest] → [L, B, ...rest] (every beam sees the same source). */
function tile(t: TensorData, B: number): TensorData {
  const [L, one, ...rest] = t.dims;
  if (L === undefined || one !== 1) throw new AskgraphError('MODEL_ERROR', `encoder output batch is ${one}, expected 1`);
  const block = rest.reduce((a, b) => a * b, 1);
  const src = t.data as Float32Array;
  const out = new Float32Array(L * B * block);
  for (let l = 0; l < L; l++) {
    const from = src.subarray(l * block, (l + 1) * block);
    for (let b = 0; b < B; b++) out.set(from, (l * B + b) * block);
  }
  return float32Tensor(out, [L, B, ...rest]);
}

/** Gathers along axis 1: out[l, i] = in[l, order[i]]. */
export function gatherBatch(t: TensorData, order: readonly number[]): TensorData {
  const [L, B, ...rest] = t.dims;
  if (L === undefined || B === undefined) throw new AskgraphError('MODEL_ERROR', `decoder cache has dims [${t.dims.join(', ')}], expected rank 2 or more`);
  const block = rest.reduce((a, b) => a * b, 1);
  const src = t.data as Float32Array;
  const nb = order.length;
  const out = new Float32Array(L * nb * block);
  for (let l = 0; l < L; l++) {
    for (const [i, o] of order.entries()) {
      if (o < 0 || o >= B) throw new AskgraphError('INTERNAL', `beam reorder index ${o} out of 0..${B - 1}`);
      const s = (l * B + o) * block;
      out.set(src.subarray(s, s + block), (l * nb + i) * block);
    }
  }
  return float32Tensor(out, [L, nb, ...rest]);
}

function intersect(a?: Iterable<string>, b?: Iterable<string>): Set<string> | undefined {
  if (!a && !b) return undefined;
  if (!a) return new Set(b);
  if (!b) return new Set(a);
  const sb = new Set(b);
  return new Set([...a].filter((x) => sb.has(x)));
}

/** Reads and validates <dir>/config.json (MODEL_UNAVAILABLE if missing, MODEL_ERROR if malformed). */
export function readModelConfig(dir: string): ModelConfig {
  const file = path.join(dir, 'config.json');
  if (!fs.existsSync(dir)) throw new AskgraphError('MODEL_UNAVAILABLE', `model folder not found: ${dir}`);
  if (!fs.existsSync(file)) throw new AskgraphError('MODEL_UNAVAILABLE', `model config not found: ${file}`);
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new AskgraphError('MODEL_ERROR', `${file}: not JSON: ${(e as Error).message}`, { cause: e });
  }
  const parsed = ConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AskgraphError('MODEL_ERROR', `${file}: ${issue?.path.length ? issue.path.join('.') : '(root)'}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

/** The default model folder: the embedded movies pack's model. */
export function defaultModelDir(): string {
  return path.join(defaultPackDir(), 'model');
}

const ids = new WeakMap<object, number>();
let nextId = 1;
function objectId(o: object): number {
  let id = ids.get(o);
  if (id === undefined) ids.set(o, (id = nextId++));
  return id;
}

const cache = new Map<string, Promise<OnnxParser>>();
const cacheOwner = new WeakMap<Promise<OnnxParser>, OnnxParser>();

/** Loads (once per folder and options) the parser of a model folder; default = store/movies/model. */
export function loadParser(modelDir?: string, opts: ParserOptions = {}): Promise<OnnxParser> {
  const dir = path.resolve(modelDir ?? defaultModelDir());
  const key = JSON.stringify([
    dir,
    opts.threads ?? null,
    opts.relations ? [...opts.relations].sort() : null,
    opts.lengthPenalty ?? null,
    opts.renormalize ?? null,
    opts.labels === undefined || typeof opts.labels === 'string' ? (opts.labels ?? 'pack') : objectId(opts.labels),
    opts.maximalSpans ?? null,
    opts.labelMode ?? null,
    opts.labelPenalty ?? null,
    opts.prune ?? null,
    opts.names ? [opts.names.relations ? [...opts.names.relations].sort() : null, opts.names.classes ? [...opts.names.classes].sort() : null] : null,
  ]);
  let p = cache.get(key);
  if (!p) {
    const created = openParser(dir, opts);
    p = created;
    cache.set(key, created);
    created.then(
      (parser) => cacheOwner.set(created, parser),
      () => cache.delete(key),
    );
  }
  return p;
}

/** Drops cached parsers (closing them); for tests and long-running servers that swap models. */
export async function clearParserCache(): Promise<void> {
  const all = [...cache.values()];
  cache.clear();
  await Promise.all(all.map((p) => p.then((x) => x.close()).catch(() => undefined)));
}

async function openParser(dir: string, opts: ParserOptions): Promise<OnnxParser> {
  const config = readModelConfig(dir);
  const [tokenizerFile, encoderFile, decoderFile] = [path.join(dir, config.tokenizer), path.join(dir, config.encoder), path.join(dir, config.decoder)];
  const files = [tokenizerFile, encoderFile, decoderFile];
  for (const f of files) if (!fs.existsSync(f)) throw new AskgraphError('MODEL_UNAVAILABLE', `model file not found: ${f}`);
  const hash = crypto.createHash('sha256');
  hash.update(fs.readFileSync(path.join(dir, 'config.json')));
  for (const f of files) hash.update(fs.readFileSync(f));
  const id = `${config.version}-${hash.digest('hex').slice(0, 12)}`;
  if (opts.labels === undefined || opts.labels === 'pack') {
    const labels = packLabels(dir);
    opts = { ...opts, labels: labels ?? 'none' };
  }
  const [tokenizer, encoder, decoder] = await Promise.all([
    SentencePieceTokenizer.load(tokenizerFile),
    OnnxSession.open(encoderFile, opts),
    OnnxSession.open(decoderFile, opts),
  ]);
  return new OnnxParser(id, dir, config, tokenizer, encoder, decoder, opts);
}
