import type { Triple } from '../core';
import type { QueryForm } from './readonly';
import type { BuildInfo } from './loaders';

/** Messages between OxigraphExecutor (main thread) and oxigraph-worker. */
export interface WorkerRequest {
  id: number;
  query: string;
  form: QueryForm;
}

export type WorkerReply =
  | { id: number; ok: true; json: string }
  | { id: number; ok: true; triples: Triple[] }
  | { id: number; ok: false; error: { code: string; message: string } };

export type WorkerStatus = { type: 'ready'; info: BuildInfo } | { type: 'fatal'; error: { code: string; message: string } };
