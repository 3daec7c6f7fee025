import type { Answer, CompiledQuery, Executor } from '../core';

/** gateway.parse's result (pipeline ParseResult). */
export interface ServeParseResult {
  question: string;
  candidates: { form: string; logProb: number; rank: number }[];
  timeMs: number;
}

/**
 * What the server needs from the pipeline's Gateway (src/pipeline: createGateway → Gateway). Typed
 * structurally so the real gateway and test stand-ins both fit.
 */
export interface ServeGateway {
  ask(question: string, opts?: Record<string, unknown>): Promise<Answer>;
  parse(question: string, opts?: { beam?: number }): Promise<ServeParseResult>;
  compile(formText: string): CompiledQuery;
  /** The parser, if any (its id is reported by /v1/parse like `askgraph parse --json`). */
  readonly generator?: { readonly id: string };
  readonly executor: Executor;
  /** Store id + model id: part of every answer-cache key. */
  readonly version: string;
  readonly pack?: unknown;
  close(): Promise<void>;
}
