/**
 * The only module that imports onnxruntime-node. Wraps session creation (1 intra-op thread by default:
 * measured faster than 2 for one question on this 2-core machine) and checks every input map against
 * the session's declared inputs (names, element types, ranks, fixed dimensions) before running, so a
 * model that does not follow the model-folder contract fails with MODEL_ERROR and a clear message
 * instead of an opaque native error.
 */
import * as fs from 'node:fs';
import * as ort from 'onnxruntime-node';
import { AskgraphError, defined } from '../core';

export type ElementType = 'float32' | 'int64';

/** A tensor as plain data: what callers build and read, without touching onnxruntime types. */
export interface TensorData {
  type: ElementType;
  data: Float32Array | BigInt64Array;
  dims: readonly number[];
}

export function int64Tensor(values: readonly number[], dims: readonly number[]): TensorData {
  return { type: 'int64', data: BigInt64Array.from(values, (v) => BigInt(v)), dims };
}

export function float32Tensor(data: Float32Array, dims: readonly number[]): TensorData {
  return { type: 'float32', data, dims };
}

export interface SessionOptions {
  /** Intra-op threads (default 1, or ASKGRAPH_ORT_THREADS). */
  threads?: number;
}

interface DeclaredInput {
  name: string;
  type?: string;
  shape?: readonly (number | string)[];
}

export class OnnxSession {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  private readonly declared = new Map<string, DeclaredInput>();

  private constructor(
    private readonly session: ort.InferenceSession,
    readonly file: string,
  ) {
    this.inputNames = session.inputNames;
    this.outputNames = session.outputNames;
    // library boundary: onnxruntime-node has inputMetadata at run time but not in its typings
    const meta = (session as unknown as { inputMetadata?: readonly ort.InferenceSession.ValueMetadata[] }).inputMetadata ?? [];
    for (const name of session.inputNames) this.declared.set(name, { name });
    for (const m of meta) {
      if (m.isTensor) this.declared.set(m.name, { name: m.name, type: m.type, shape: m.shape });
    }
  }

  /** Opens an .onnx file: MODEL_UNAVAILABLE if it is missing, MODEL_ERROR if onnxruntime cannot load it. */
  static async open(file: string, opts: SessionOptions = {}): Promise<OnnxSession> {
    if (!fs.existsSync(file)) throw new AskgraphError('MODEL_UNAVAILABLE', `model file not found: ${file}`);
    const envThreads = Number(process.env.ASKGRAPH_ORT_THREADS);
    const threads = opts.threads ?? (Number.isInteger(envThreads) && envThreads > 0 ? envThreads : 1);
    try {
      const session = await ort.InferenceSession.create(file, {
        intraOpNumThreads: threads,
        interOpNumThreads: 1,
        executionMode: 'sequential',
        graphOptimizationLevel: 'all',
      });
      return new OnnxSession(session, file);
    } catch (e) {
      throw new AskgraphError('MODEL_ERROR', `cannot load ${file}: ${(e as Error).message}`, { cause: e });
    }
  }

  /** Declared input shape (numbers for fixed dims, strings for symbolic ones), if the model says. */
  inputShape(name: string): readonly (number | string)[] | undefined {
    return this.declared.get(name)?.shape;
  }

  /** Throws MODEL_ERROR unless the feeds match the declared inputs exactly. */
  checkInputs(feeds: Record<string, TensorData>): void {
    const where = this.file.split(/[\\/]/).pop();
    const given = Object.keys(feeds);
    const missing = this.inputNames.filter((n) => !(n in feeds));
    const extra = given.filter((n) => !this.declared.has(n));
    if (missing.length || extra.length) {
      throw new AskgraphError(
        'MODEL_ERROR',
        `${where}: inputs do not match the model (expects ${this.inputNames.join(', ')}` +
          `${missing.length ? `; missing ${missing.join(', ')}` : ''}${extra.length ? `; unexpected ${extra.join(', ')}` : ''})`,
        { details: { file: this.file, expected: [...this.inputNames], given } },
      );
    }
    for (const name of given) {
      const t = defined(feeds[name], `feed ${name}`);
      const d = defined(this.declared.get(name), `declared input ${name}`); // the names were checked above
      const size = t.dims.reduce((a, b) => a * b, 1);
      const problem =
        d.type !== undefined && d.type !== t.type
          ? `type ${t.type}, expected ${d.type}`
          : t.dims.some((x) => !Number.isInteger(x) || x < 0)
            ? `invalid dims [${t.dims.join(', ')}]`
            : size !== t.data.length
              ? `${t.data.length} values for dims [${t.dims.join(', ')}]`
              : d.shape && d.shape.length > 0 && d.shape.length !== t.dims.length
                ? `rank ${t.dims.length}, expected rank ${d.shape.length}`
                : d.shape?.some((x, i) => typeof x === 'number' && x >= 0 && x !== t.dims[i])
                  ? `dims [${t.dims.join(', ')}], expected [${d.shape.join(', ')}]`
                  : null;
      if (problem) {
        throw new AskgraphError('MODEL_ERROR', `${where}: input "${name}" has ${problem}`, {
          details: { file: this.file, input: name, dims: [...t.dims], expectedShape: d.shape ? [...d.shape] : undefined },
        });
      }
    }
  }

  /** Checks the feeds, runs, and returns every output as plain data. */
  async run(feeds: Record<string, TensorData>): Promise<Record<string, TensorData>> {
    this.checkInputs(feeds);
    const input: Record<string, ort.Tensor> = {};
    for (const [name, t] of Object.entries(feeds)) input[name] = new ort.Tensor(t.type, t.data, t.dims);
    let out: ort.InferenceSession.OnnxValueMapType;
    try {
      out = await this.session.run(input);
    } catch (e) {
      throw new AskgraphError('MODEL_ERROR', `${this.file.split(/[\\/]/).pop()}: run failed: ${(e as Error).message}`, { cause: e });
    }
    const result: Record<string, TensorData> = {};
    for (const [name, v] of Object.entries(out)) {
      const t = v;
      result[name] = { type: t.type as ElementType, data: t.data as Float32Array | BigInt64Array, dims: t.dims };
    }
    return result;
  }

  async close(): Promise<void> {
    await this.session.release();
  }
}
