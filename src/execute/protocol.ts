import type { Triple } from '../core';
import type { QueryForm } from './readonly';
import type { BuildInfo } from './loaders';

/** Messages between OxigraphExecutor (main thread) and oxigraph-worker. */
export type WorkerRequest =
  | { id: number; op: 'query'; query: string; form: QueryForm }
  /** Label lookup straight on the store's indexes (see pickLabels in labels.ts). */
  | { id: number; op: 'labels'; iris: string[]; predicates: string[] };

export type WorkerReply =
  | { id: number; ok: true; json: string }
  | { id: number; ok: true; triples: Triple[] }
  | { id: number; ok: true; labels: [string, string][] }
  | { id: number; ok: false; error: { code: string; message: string } };

export type WorkerStatus = { type: 'ready'; info: BuildInfo } | { type: 'fatal'; error: { code: string; message: string } };
