import { z } from 'zod';
import { AskgraphError, DEFAULT_BEAM } from '../core';
import type { GroundOptions } from '../ground';

/**
 * Options of one question: ONE zod schema with the bounds, used by the pipeline (checkAskOptions), the
 * server (request bodies, src/serve/schemas.ts) and the OpenAPI document (generated from it by
 * z.toJSONSchema, src/serve/openapi.ts). Defaults are ASK_DEFAULTS (its beam is core's DEFAULT_BEAM) and GROUND_DEFAULTS in
 * src/ground/search.ts (Algorithm 1: kE/tE/kR/tR/k1/t1/k2/t2).
 */
/** The defaults of AskOptions (the `describe` texts below are made from them). */
export const ASK_DEFAULTS = {
  beam: DEFAULT_BEAM,
  timeoutMs: 10000,
  strategy: 'first-nonempty' as 'first-nonempty' | 'best-of-n',
  bestOf: 3,
  maxAttempts: 24,
  queryTimeoutMs: 3000,
  adaptiveBeam: true,
};

const count = (max: number) => z.number().int().min(1).max(max);
const unit = z.number().min(0).max(1);

export const AskOptionsObject = z.object({
  beam: count(32).optional().describe(`beam width of the parser (default ${ASK_DEFAULTS.beam})`),
  fallback: z
    .union([z.literal('off'), z.array(z.string().min(1).max(64)).max(16)])
    .optional()
    .describe("reader chain after the parser: 'off' or reader names (default: the default chain)"),
  timeoutMs: count(600_000).optional().describe(`budget of the whole question: generation, grounding, execution, fallback (default ${ASK_DEFAULTS.timeoutMs})`),
  kE: count(100).optional().describe('Algorithm 1: entity candidates per mention'),
  tE: unit.optional().describe('Algorithm 1: entity score threshold'),
  kR: count(100).optional().describe('Algorithm 1: relation candidates per slot'),
  tR: unit.optional().describe('Algorithm 1: relation score threshold'),
  k1: count(1000).optional().describe('Algorithm 1: entity permutations kept'),
  t1: unit.optional().describe('Algorithm 1: entity permutation threshold'),
  k2: count(10_000).optional().describe('Algorithm 1: relation permutations kept'),
  t2: unit.optional().describe('Algorithm 1: relation permutation threshold'),
  noParser: z.boolean().optional().describe('skip the parser: straight to the fallback chain'),
  strategy: z
    .enum(['first-nonempty', 'best-of-n'])
    .optional()
    .describe("'first-nonempty' (default, ChatKBQA) or 'best-of-n': execute until bestOf forms gave answers and keep the best-scored one"),
  bestOf: count(100).optional().describe(`forms with answers compared by best-of-n (default ${ASK_DEFAULTS.bestOf})`),
  maxAttempts: count(1000).optional().describe(`grounded forms executed at most (default ${ASK_DEFAULTS.maxAttempts})`),
  adaptiveBeam: z
    .boolean()
    .optional()
    .describe(`greedy form first (exact grounding only), the full beam and Algorithm 1 only if it does not answer (default ${ASK_DEFAULTS.adaptiveBeam})`),
  queryTimeoutMs: count(600_000).optional().describe(`per-query timeout of each executed form (default ${ASK_DEFAULTS.queryTimeoutMs}, bounded by what is left of timeoutMs)`),
  entityRetrieval: z.boolean().optional().describe('ablation: ground entities through the entity index (default true)'),
  relationRetrieval: z.boolean().optional().describe('ablation: retrieve relations among the grounded entities\' neighbours (default true)'),
  hops: z.union([z.literal(1), z.literal(2)]).optional().describe('neighbourhood depth of relation retrieval'),
  bridges: z.boolean().optional().describe('ablation: bridge an entity to a relation it never takes by one hop (src/ground, with phase 3; default true)'),
  noAbstain: z
    .boolean()
    .optional()
    .describe('answer even when the question has words the parser was never shown or the calibrated confidence is below the threshold (calibration, ablations)'),
});

/** The schema of requests: unknown options are an error. */
export const AskOptionsSchema = AskOptionsObject.strict();

export type AskOptions = z.infer<typeof AskOptionsObject>;

// The grounding options are GroundOptions' own (checked here at compile time).
type GroundKeys = 'kE' | 'tE' | 'kR' | 'tR' | 'k1' | 't1' | 'k2' | 't2' | 'entityRetrieval' | 'relationRetrieval' | 'hops' | 'bridges';
export type AskGroundOptions = Pick<GroundOptions, GroundKeys>; // fails to compile on a key GroundOptions lacks


export const MAX_QUESTION_LENGTH = 1000;

// C0/C1 controls except tab, line feed and carriage return (those are folded into spaces).
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** Checks and tidies a question: QUESTION_INVALID (empty, not text, control characters), INPUT_TOO_LARGE (> 1,000 characters). */
export function validateQuestion(question: unknown): string {
  if (typeof question !== 'string') throw new AskgraphError('QUESTION_INVALID', 'the question must be a string');
  if (question.length > MAX_QUESTION_LENGTH) {
    throw new AskgraphError('INPUT_TOO_LARGE', `the question has ${question.length} characters; at most ${MAX_QUESTION_LENGTH} are accepted`, {
      details: { length: question.length, max: MAX_QUESTION_LENGTH },
    });
  }
  if (CONTROL.test(question)) throw new AskgraphError('QUESTION_INVALID', 'the question contains control characters');
  const q = question.replace(/[\t\r\n]+/g, ' ').trim();
  if (q === '') throw new AskgraphError('QUESTION_INVALID', 'the question is empty');
  return q;
}

/** BAD_REQUEST for out-of-range options (they come from HTTP bodies and CLI flags); unknown keys are ignored here. */
export function checkAskOptions(o: AskOptions): void {
  const r = AskOptionsObject.safeParse(o);
  if (!r.success) {
    const i = r.error.issues[0];
    throw new AskgraphError('BAD_REQUEST', `invalid options: ${i?.path.length ? `${i.path.join('.')}: ` : ''}${i?.message ?? 'invalid'}`, {
      details: { issues: r.error.issues.slice(0, 10).map((x) => ({ path: x.path.join('.'), message: x.message })) },
    });
  }
}
