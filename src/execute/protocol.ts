import type { Triple } from '../core';
import type { QueryForm } from './readonly';
import type { BuildInfo, StoreSource } from './loaders';

/** The dataset of a query: the graphs of its default graph and its named graphs (absent: the union of all graphs). */
export interface WorkerDataset {
  default: string[];
  named: string[];
}

/** Messages between OxigraphExecutor (main process) and its store processes (oxigraph-worker). */
export type WorkerRequest =
  | { id: number; op: 'init'; source: StoreSource }
  | {
      id: number;
      op: 'query';
      query: string;
      form: QueryForm;
      dataset?: WorkerDataset;
      /** Result cap: a SELECT JSON text or a graph (N-Triples size) over this many bytes is RESULT_TOO_LARGE. */
      maxBytes?: number;
    }
  /** Label lookup straight on the store's indexes (see pickLabels in labels.ts). */
  | { id: number; op: 'labels'; iris: string[]; predicates: string[] };

export type WorkerReply =
  | { id: number; ok: true; json: string }
  | { id: number; ok: true; triples: Triple[] }
  | { id: number; ok: true; labels: [string, string][] }
  /** fatal: the store itself failed (wasm trap, out of memory …); the process exits after this reply. */
  | { id: number; ok: false; error: { code: string; message: string; details?: Record<string, unknown> }; fatal?: boolean };

export type WorkerStatus = { type: 'ready'; info: BuildInfo } | { type: 'fatal'; error: { code: string; message: string } };
