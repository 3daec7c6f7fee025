import type { Answer, Executor } from '../core';

/**
 * What the server needs from the pipeline's Gateway (CONTRACTS: createGateway → Gateway). Typed
 * structurally so the real gateway and test stand-ins both fit; parse/compile results are passed
 * through as JSON, exactly like the CLI prints them.
 */
export interface ServeGateway {
  ask(question: string, opts?: Record<string, unknown>): Promise<Answer>;
  parse(question: string, opts?: { beam?: number }): Promise<unknown>;
  compile(formText: string): Promise<unknown> | unknown;
  readonly executor: Executor;
  /** Store id + model id: part of every answer-cache key. */
  readonly version: string;
  readonly pack?: unknown;
  close(): Promise<void>;
}
