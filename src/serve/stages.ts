/**
 * The one file of src/serve that reaches into other stages, so an API move elsewhere is adapted here only.
 */
import { parseForm } from '../form';
import { diffForms, type FormDiff } from '../form';
import { ASK_DEFAULTS, createGateway } from '../pipeline';
import type { ServeGateway } from './gateway';

export { QueryChecker, runUserQuery, OxigraphExecutor, EndpointExecutor, type CheckedQuery, type UserQueryResult, type StoreHealth } from '../execute';

/** The structural diff of two forms, as `askgraph diff a b --json` prints it (FORM_SYNTAX when one does not parse). */
export function diffFormsText(a: string, b: string): FormDiff {
  return diffForms(parseForm(a), parseForm(b));
}

/** The pipeline's gateway for a server config (store / model / pack). */
export async function openGateway(cfg: { store?: string; model?: string; pack?: string; generator?: { url: string; model?: string } }): Promise<ServeGateway> {
  const generator = cfg.generator ? { generatorUrl: cfg.generator.url, generatorModel: cfg.generator.model } : {};
  // a server warms at open: its first questions do not pay for the lazily built lookups (GatewayOptions.warm)
  return createGateway({ store: cfg.store, model: cfg.model, pack: cfg.pack, ...generator, warm: true });
}

/** The parser's default beam width (reported by /v1/parse when the request gives none). */
export { DEFAULT_BEAM } from '../core';
/** The pipeline's defaults of one question's options (asks that widen them run in the tuned lane). */
export const ASK_OPTION_DEFAULTS = { beam: ASK_DEFAULTS.beam, maxAttempts: ASK_DEFAULTS.maxAttempts, bestOf: ASK_DEFAULTS.bestOf, timeoutMs: ASK_DEFAULTS.timeoutMs, queryTimeoutMs: ASK_DEFAULTS.queryTimeoutMs };
/** The pipeline's default budget of one question (the server caps it at its request timeout). */
export const DEFAULT_ASK_TIMEOUT_MS: number = ASK_DEFAULTS.timeoutMs;
