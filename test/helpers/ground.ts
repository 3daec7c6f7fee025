/** Helpers of the grounding tests: a beam of parsed forms, and every attempt a grounding generator yields. */
import type { Candidate } from '../../src/core';
import { parseForm } from '../../src/form';
import type { GroundAttempt } from '../../src/ground';

/** A beam from [form text, log-probability] pairs, ranked in order. */
export function beam(...forms: [string, number][]): Candidate[] {
  return forms.map(([text, logProb], rank) => ({ form: parseForm(text), text, logProb, rank }));
}

/** Every attempt of a grounding generator (groundCandidates …), in order. */
export async function collect(gen: AsyncGenerator<GroundAttempt>): Promise<GroundAttempt[]> {
  const out: GroundAttempt[] = [];
  for await (const a of gen) out.push(a);
  return out;
}
