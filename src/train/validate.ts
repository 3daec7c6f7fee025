/**
 * The validation number of a trained model, measured with the decoder the product uses (src/generate:
 * onnxruntime, the grammar-constrained beam search, the pack's labels) — the trainer's own PyTorch
 * decoder follows slightly different rules, so its number is only a training-time probe.
 * The Python trainer runs this file after export: node dist/src/train/validate.js <modelDir> <valid.jsonl>
 * [--beam K] [--limit N] prints one JSON object. For an open-name model (config.json names: open) the gold form is
 * first written as such a model writes it (generate/names.ts openNameForm, the trainer's `canonical(form, True)`).
 */
import * as fs from 'node:fs';
import { AskgraphError } from '../core';
import { formsEqual, parseForm } from '../form';
import { clearParserCache, loadParser, openNameForm } from '../generate';

export interface NodeValidation {
  decoder: 'node';
  /** Validation questions decoded. */
  n: number;
  /** Beam width of the constrained beam search (1 = greedy). */
  beam: number;
  /** Share whose top-1 form equals the gold form (formsEqual). */
  em: number | null;
  /** Share whose gold form is anywhere in the beam. */
  inBeam: number | null;
  seconds: number;
}

/** Decodes the first `limit` questions of a JSON Lines file ({question, form}) with the model folder's parser. */
export async function validateModel(modelDir: string, validFile: string, opts: { beam?: number; limit?: number } = {}): Promise<NodeValidation> {
  const beam = Math.max(1, Math.floor(opts.beam ?? 1));
  let text: string;
  try {
    text = fs.readFileSync(validFile, 'utf8');
  } catch (e) {
    throw new AskgraphError('NOT_FOUND', `no validation file at ${validFile}`, { cause: e });
  }
  const rows = text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { question: string; form: string })
    .slice(0, opts.limit);
  const t0 = Date.now();
  const parser = await loadParser(modelDir);
  const goldText = (form: string): string => (parser.open ? openNameForm(form) : form);
  let top1 = 0;
  let inBeam = 0;
  try {
    for (const r of rows) {
      let gold;
      try {
        gold = parseForm(goldText(r.form));
      } catch {
        continue; // a gold form that does not parse cannot be matched: a miss
      }
      const forms = (await parser.generate(r.question, { beam })).candidates.map((c) => c.form);
      const [first] = forms;
      if (first && formsEqual(first, gold)) top1++;
      if (forms.some((f) => formsEqual(f, gold))) inBeam++;
    }
  } finally {
    await clearParserCache();
  }
  const share = (k: number) => (rows.length ? Math.round((k / rows.length) * 1e5) / 1e5 : null);
  return { decoder: 'node', n: rows.length, beam, em: share(top1), inBeam: share(inBeam), seconds: Math.round((Date.now() - t0) / 100) / 10 };
}

function flag(argv: string[], name: string): number | undefined {
  const i = argv.indexOf(name);
  if (i < 0) return undefined;
  const n = Number(argv[i + 1]);
  if (!Number.isInteger(n) || n < 0) throw new AskgraphError('BAD_REQUEST', `${name} wants a non-negative integer, got ${argv[i + 1]}`);
  return n;
}

/** The command line the trainer calls; one JSON line on stdout, `askgraph: CODE: message` on stderr. */
export async function validateMain(argv: string[], io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream }): Promise<number> {
  try {
    const [modelDir, validFile] = argv.filter((a, i) => !a.startsWith('--') && !(argv[i - 1]?.startsWith('--') ?? false));
    if (!modelDir || !validFile) throw new AskgraphError('BAD_REQUEST', 'usage: validate.js <modelDir> <valid.jsonl> [--beam K] [--limit N]');
    const beam = flag(argv, '--beam');
    const limit = flag(argv, '--limit');
    const r = await validateModel(modelDir, validFile, { ...(beam !== undefined ? { beam } : {}), ...(limit !== undefined ? { limit } : {}) });
    io.stdout.write(JSON.stringify(r) + '\n');
    return 0;
  } catch (e) {
    const code = e instanceof AskgraphError ? e.code : 'INTERNAL';
    io.stderr.write(`askgraph: ${code}: ${(e as Error).message}\n`);
    return 1;
  }
}

if (require.main === module) {
  void validateMain(process.argv.slice(2), process).then((code) => {
    process.exitCode = code;
  });
}
