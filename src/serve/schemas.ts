import { z } from 'zod';
import { AskgraphError, itemAt } from '../core';
import { AskOptionsObject, AskOptionsSchema } from '../pipeline';

/** zod schemas of every request the server accepts; `validate` turns failures into BAD_REQUEST / QUESTION_INVALID. */

/** AskOptions: the pipeline's one schema (src/pipeline/options.ts), bounded so a request cannot ask for unbounded work. */
export { AskOptionsSchema };
export type AskOptionsInput = z.infer<typeof AskOptionsSchema>;

export const AskBodySchema = z.object({ question: z.string(), options: AskOptionsSchema.optional() }).strict();

const boolString = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const intString = z
  .string()
  .regex(/^\d{1,9}$/, 'expected a non-negative integer')
  .transform(Number);

/** The answer format of /v1/ask (`format=`): the Answer JSON, QALD-JSON, or the answer as a CSV / TSV table. */
const AskFormatSchema = z.enum(['json', 'qald', 'csv', 'tsv']);
/** POST /v1/ask?format=… (the question and options are in the body). */
export const AskFormatParamSchema = z.object({ format: AskFormatSchema.optional() });

/** GET /v1/ask?question=…&beam=…&fallback=off|a,b&noParser=true&adaptiveBeam=false&timeoutMs=…&format=json|qald|csv|tsv */
export const AskQuerySchema = z
  .object({
    question: z.string(),
    format: AskFormatSchema.optional(),
    beam: intString.optional(),
    fallback: z.string().max(1024).optional(),
    timeoutMs: intString.optional(),
    noParser: boolString.optional(),
    adaptiveBeam: boolString.optional(),
  })
  .strict();

export const ParseBodySchema = z.object({ question: z.string(), beam: AskOptionsObject.shape.beam }).strict();
export const CompileBodySchema = z.object({ form: z.string().min(1) }).strict();
export const DiffBodySchema = z.object({ a: z.string().min(1), b: z.string().min(1) }).strict();

const formatParam = z.union([z.string().max(64), z.array(z.string().max(64)).max(8)]).optional();

/** SPARQL protocol parameters from the query string or a urlencoded body (strings; the graph and format parameters may repeat). */
export const SparqlParamsSchema = z
  .object({
    query: z.string().optional(),
    update: z.string().optional(),
    'default-graph-uri': z.union([z.string(), z.array(z.string())]).optional(),
    'named-graph-uri': z.union([z.string(), z.array(z.string())]).optional(),
    timeout: intString.optional(),
    /** Result format by name or media type; SPARQLWrapper sends each of format, output and results, some twice (a name and a media type). */
    format: formatParam,
    output: formatParam,
    results: formatParam,
  })
  .strict();

/** The SPARQL protocol parameters /sparql reads; any other parameter is ignored, as the protocol allows. */
export const SPARQL_PARAM_KEYS = ['query', 'update', 'default-graph-uri', 'named-graph-uri', 'timeout', 'format', 'output', 'results'] as const;

/** QALD / GERBIL QA: question in `query` (GERBIL) or `question`, language in `lang`. */
export const QaldParamsSchema = z
  .object({
    query: z.string().optional(),
    question: z.string().optional(),
    lang: z.string().max(16).optional(),
    id: z.string().max(128).optional(),
  })
  .loose();

function describe(e: z.ZodError): string {
  const i = itemAt(e.issues, 0, 'issues of a failed validation');
  return `${i.path.length ? i.path.join('.') + ': ' : ''}${i.message}`;
}

export function validate<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) {
    throw new AskgraphError('BAD_REQUEST', `invalid ${what}: ${describe(r.error)}`, {
      details: { issues: r.error.issues.slice(0, 10).map((i) => ({ path: i.path.join('.'), message: i.message })) },
    });
  }
  return r.data;
}

/** Question text rules (as the pipeline's validateQuestion): at most `maxChars` characters (413), non-empty after trimming. */
export function checkQuestion(q: string, maxChars: number): string {
  const t = q.trim();
  if (t.length === 0) throw new AskgraphError('QUESTION_INVALID', 'question must not be empty');
  if (q.length > maxChars) throw new AskgraphError('INPUT_TOO_LARGE', `the question has ${q.length} characters; at most ${maxChars} are accepted`);
  if (t.includes('\u0000')) throw new AskgraphError('QUESTION_INVALID', 'question contains a NUL character');
  return t;
}
