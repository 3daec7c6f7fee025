import { type Candidate, type GenerateOptions, type GenerateResult } from '../../../src/core';
import { parseForm } from '../../../src/form';
import { type ScoringGenerator } from '../../../src/pipeline';

/**
 * A stand-in parser (no model): a fixed beam per question, and a fixed log-probability per form it is asked to score
 * (`scores`; any other form `unscored`). It records what it was asked: `calls` (question, beam width) and `scored`.
 */
export class FixedBeam implements ScoringGenerator {
  readonly id = 'fixed-beam';
  calls: { question: string; beam?: number }[] = [];
  scored: string[][] = [];
  constructor(
    private readonly beams: Record<string, [string, number][]>,
    private readonly scores: Record<string, number> = {},
    private readonly unscored = -1,
  ) {}
  generate(question: string, opts: GenerateOptions = {}): Promise<GenerateResult> {
    this.calls.push({ question, beam: opts.beam });
    const forms = this.beams[question] ?? [];
    const candidates: Candidate[] = forms.slice(0, opts.beam ?? 4).map(([text, logProb], rank) => ({ form: parseForm(text), text, logProb, rank }));
    return Promise.resolve({ candidates, dropped: 0, timeMs: 0 });
  }
  score(_q: string, forms: string[]): Promise<number[]> {
    this.scored.push(forms);
    return Promise.resolve(forms.map((f) => this.scores[f] ?? this.unscored));
  }
}
