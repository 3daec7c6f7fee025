import { z } from 'zod';
import { defined } from '../core';
import type { ServeConfig } from './config';
import { AskOptionsSchema, CompileBodySchema, DiffBodySchema, ParseBodySchema } from './schemas';

type JsonSchema = Record<string, unknown> & { properties?: Record<string, JsonSchema> };

/** A request schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect), generated from its zod schema. */
function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const rest = { ...(z.toJSONSchema(schema, { io: 'input' }) as JsonSchema) };
  delete rest.$schema; // the document's dialect is stated once, at its top
  return rest;
}

/** The OpenAPI 3.1 document of every route (served at /openapi.json; a test checks it covers the app's routes). */
export function openApiDocument(cfg: ServeConfig): Record<string, unknown> {
  const error = { $ref: '#/components/responses/Error' };
  const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [String(c), error]));
  const security = cfg.apiKeys.length > 0 ? [{ apiKey: [] }] : [];
  const jsonBody = (ref: string) => ({ required: true, content: { 'application/json': { schema: { $ref: ref } } } });
  const ok = (ref: string, description: string) => ({ description, content: { 'application/json': { schema: { $ref: ref } } } });
  const askOptions = jsonSchemaOf(AskOptionsSchema);
  const askFormat = {
    name: 'format',
    in: 'query',
    description:
      'json (the Answer) | qald (QALD-JSON) | csv | tsv (the answer as a table: a header row of column labels, an IRI column after each entity column, empty cells for absent values; a cell starting with = + - @ gets a leading apostrophe unless it is a plain number). Without it the Accept header picks: text/csv, text/tab-separated-values, else JSON.',
    schema: { type: 'string', enum: ['json', 'qald', 'csv', 'tsv'] },
  };
  const answerResponse = (description: string) => ({
    description,
    content: {
      'application/json': { schema: { $ref: '#/components/schemas/Answer' } },
      'text/csv': { schema: { type: 'string' } },
      'text/tab-separated-values': { schema: { type: 'string' } },
    },
  });
  const options = defined(askOptions.properties, 'properties of the ask options schema');
  const option = (name: string) => options[name];
  const askParams = [
    { name: 'question', in: 'query', required: true, schema: { type: 'string', maxLength: cfg.limits.questionChars } },
    askFormat,
    { name: 'beam', in: 'query', schema: option('beam') },
    { name: 'fallback', in: 'query', description: '"off" or a comma-separated list of reader names', schema: { type: 'string' } },
    { name: 'noParser', in: 'query', schema: option('noParser') },
    { name: 'adaptiveBeam', in: 'query', description: 'false = decode the whole beam first (the inspector default)', schema: option('adaptiveBeam') },
    { name: 'timeoutMs', in: 'query', schema: option('timeoutMs') },
  ];
  const sparqlResults = {
    'application/sparql-results+json': {},
    'application/sparql-results+xml': {},
    'text/csv': {},
    'text/tab-separated-values': {},
    'application/n-triples': {},
    'text/turtle': {},
    'application/rdf+xml': {},
    'application/ld+json': {},
    'application/n-quads': {},
    'application/trig': {},
  };
  const sparqlParams = [
    { name: 'query', in: 'query', schema: { type: 'string' } },
    { name: 'timeout', in: 'query', description: `per-query timeout in ms (≤ ${cfg.timeouts.maxQueryMs})`, schema: { type: 'integer' } },
    { name: 'format', in: 'query', description: 'a format name or media type (overrides Accept): json | xml | csv | tsv for results; nt | ttl | xml (RDF/XML) | json (JSON-LD) | nq | trig for graphs; `output` and `results` are read the same way, other parameters are ignored', schema: { type: 'string' } },
    { name: 'default-graph-uri', in: 'query', description: 'embedded store: the default graph (replaces FROM); refused (400) with a remote store', schema: { type: 'string' } },
    { name: 'named-graph-uri', in: 'query', schema: { type: 'string' } },
  ];
  const qaldParams = [
    { name: 'question', in: 'query', schema: { type: 'string' } },
    { name: 'query', in: 'query', description: 'the question (GERBIL QA name)', schema: { type: 'string' } },
    { name: 'lang', in: 'query', schema: { type: 'string', default: 'en' } },
  ];
  const gerbilBody = {
    required: true,
    content: {
      'application/x-www-form-urlencoded': { schema: { $ref: '#/components/schemas/GerbilForm' } },
      'multipart/form-data': { schema: { $ref: '#/components/schemas/GerbilForm' } },
      'application/json': { schema: { $ref: '#/components/schemas/GerbilForm' } },
    },
  };
  return withOperationIds({
    openapi: '3.1.0',
    info: {
      title: 'askgraph gateway',
      version: '0.1.0',
      description:
        'Natural-language questions over an RDF knowledge graph, a read-only SPARQL 1.1 endpoint, and benchmark interfaces (QALD-JSON, GERBIL QA). Errors are {error:{code,message}}.',
    },
    servers: [{ url: '/' }],
    paths: {
      '/v1/ask': {
        get: { summary: 'Answer a question', parameters: askParams, security, responses: { '200': answerResponse('The answer (same JSON as `askgraph ask --json`), QALD-JSON with format=qald, or CSV / TSV (format=csv|tsv or Accept)'), ...errors(400, 401, 429, 502, 504) } },
        post: {
          summary: 'Answer a question',
          parameters: [askFormat],
          security,
          requestBody: jsonBody('#/components/schemas/AskRequest'),
          responses: { '200': answerResponse('The answer, or CSV / TSV (format=csv|tsv or Accept)'), ...errors(400, 401, 413, 429, 502, 504) },
        },
      },
      '/v1/parse': {
        post: { summary: 'The beam of logical forms for a question', security, requestBody: jsonBody('#/components/schemas/ParseRequest'), responses: { '200': { description: 'The generator result (as `askgraph parse --json`)' }, ...errors(400, 401, 413, 429, 503, 504) } },
      },
      '/v1/compile': {
        post: { summary: 'Compile a logical form to SPARQL', security, requestBody: jsonBody('#/components/schemas/CompileRequest'), responses: { '200': { description: 'The compiled query (as `askgraph compile --json`)' }, ...errors(400, 401, 413, 422, 429) } },
      },
      '/v1/diff': {
        post: { summary: 'Structural diff of two logical forms', security, requestBody: jsonBody('#/components/schemas/DiffRequest'), responses: { '200': { description: 'The diff (as `askgraph diff --json`)' }, ...errors(400, 401, 413, 422, 429) } },
      },
      '/v1/overview': {
        get: { summary: 'What the graph covers (title, description, counts, relations, classes), the model card and example questions (for the inspector)', security, responses: { '200': { description: 'The overview' }, ...errors(401, 429) } },
      },
      '/v1/labels': {
        post: {
          summary: 'Labels of IRIs (at most 500), for showing labels first',
          security,
          requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', properties: { iris: { type: 'array', items: { type: 'string' }, maxItems: 500 } }, required: ['iris'] } } } },
          responses: { '200': { description: '{labels: {iri: label}}' }, ...errors(400, 401, 413, 429, 502, 504) },
        },
      },
      '/v1/query-graph': {
        post: {
          summary: 'The triple patterns of a SPARQL query (for the inspector\'s picture of the query); the query is checked like one sent to /sparql',
          security,
          requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', properties: { sparql: { type: 'string' } }, required: ['sparql'] } } } },
          responses: { '200': { description: '{form, patterns: [{s, p, o}], truncated}; each term {type: var|uri|literal|bnode|path, value}' }, ...errors(400, 401, 413, 429) },
        },
      },
      '/sparql': {
        get: { summary: 'SPARQL 1.1 Protocol query (read-only)', parameters: sparqlParams, security, responses: { '200': { description: 'Results, or the service description without a query', content: sparqlResults }, ...errors(400, 401, 403, 406, 422, 429, 502, 503, 504) } },
        post: {
          summary: 'SPARQL 1.1 Protocol query via POST (read-only; updates are refused with 403)',
          parameters: sparqlParams.slice(1),
          security,
          requestBody: {
            required: true,
            content: {
              'application/sparql-query': { schema: { type: 'string' } },
              'application/x-www-form-urlencoded': { schema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } },
            },
          },
          responses: { '200': { description: 'Results', content: sparqlResults }, ...errors(400, 401, 403, 406, 413, 415, 422, 429, 502, 503, 504) },
        },
      },
      '/qald': {
        get: { summary: 'Answer in QALD-JSON', parameters: qaldParams, security, responses: { '200': ok('#/components/schemas/Qald', 'QALD-JSON'), ...errors(400, 401, 422, 429, 504) } },
        post: {
          summary: 'Answer in QALD-JSON: one question (GERBIL QA form or JSON {query|question, lang}), or every question of a whole QALD-JSON file ({dataset?, questions: [{id, question: [{language, string}]}]}, at most 1,000)',
          security,
          requestBody: { ...gerbilBody, content: { ...gerbilBody.content, 'application/json': { schema: { oneOf: [{ $ref: '#/components/schemas/GerbilForm' }, { $ref: '#/components/schemas/Qald' }] } } } }, responses: { '200': ok('#/components/schemas/Qald', 'QALD-JSON'), ...errors(400, 401, 413, 422, 429, 504) } },
      },
      '/gerbil': {
        post: { summary: "GERBIL QA web-service interface: form POST query=<question>&lang=en → QALD-JSON", security, requestBody: gerbilBody, responses: { '200': ok('#/components/schemas/Qald', 'QALD-JSON'), ...errors(400, 401, 413, 422, 429, 504) } },
      },
      '/healthz': { get: { summary: 'Liveness', responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } } } } },
      '/metrics': { get: { summary: 'Prometheus metrics', responses: { '200': { description: 'text exposition format 0.0.4', content: { 'text/plain': {} } } } } },
      '/openapi.json': { get: { summary: 'This document', responses: { '200': { description: 'OpenAPI 3.1', content: { 'application/json': {} } } } } },
      '/': { get: { summary: 'The web inspector (HTML)', responses: { '200': { description: 'HTML page', content: { 'text/html': {} } } } } },
    },
    components: apiComponents(cfg, askOptions),
  });
}

/** operationIds of the documented operations (clients generated from the document name their methods after them). */
const OPERATION_IDS: Record<string, string> = {
  'get /v1/ask': 'askGet',
  'post /v1/ask': 'ask',
  'post /v1/parse': 'parse',
  'post /v1/compile': 'compile',
  'post /v1/diff': 'diff',
  'get /v1/overview': 'overview',
  'post /v1/labels': 'labels',
  'get /sparql': 'sparqlQueryGet',
  'post /sparql': 'sparqlQuery',
  'get /qald': 'qaldGet',
  'post /qald': 'qald',
  'post /gerbil': 'gerbil',
  'get /healthz': 'health',
  'get /metrics': 'metrics',
  'get /openapi.json': 'openApi',
  'get /': 'inspector',
};

/** Every operation gets an operationId: the name above, else one made of the method and the path (never a duplicate). */
function withOperationIds(doc: Record<string, unknown>): Record<string, unknown> {
  const used = new Set<string>();
  for (const [p, ops] of Object.entries(doc.paths as Record<string, Record<string, Record<string, unknown>>>)) {
    for (const [method, op] of Object.entries(ops)) {
      const words = p.split(/[^A-Za-z0-9]+/).filter(Boolean).map((w) => w.charAt(0).toUpperCase() + w.slice(1));
      let id = (op.operationId as string | undefined) ?? OPERATION_IDS[`${method} ${p}`] ?? method + words.join('');
      while (used.has(id)) id += '_';
      used.add(id);
      op.operationId = id;
    }
  }
  return doc;
}

/** The shared components: security scheme, the error response, and the request / answer schemas. */
function apiComponents(cfg: ServeConfig, askOptions: JsonSchema): Record<string, unknown> {
  return {
  securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
  responses: {
    Error: { description: 'An error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
  },
  schemas: {
    Error: {
      type: 'object',
      required: ['error'],
      properties: { error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' }, details: { type: 'object' } } } },
    },
    AskOptions: askOptions,
    AskRequest: {
      type: 'object',
      additionalProperties: false,
      required: ['question'],
      properties: { question: { type: 'string', minLength: 1, maxLength: cfg.limits.questionChars }, options: { $ref: '#/components/schemas/AskOptions' } },
    },
    ParseRequest: jsonSchemaOf(ParseBodySchema),
    CompileRequest: jsonSchemaOf(CompileBodySchema),
    DiffRequest: jsonSchemaOf(DiffBodySchema),
    GerbilForm: { type: 'object', properties: { query: { type: 'string' }, question: { type: 'string' }, lang: { type: 'string' } } },
    AnswerItem: {
      type: 'object',
      required: ['value', 'label', 'type'],
      properties: { value: { type: 'string' }, label: { type: ['string', 'null'] }, type: { enum: ['uri', 'literal'] }, datatype: { type: 'string' } },
    },
    AnswerTable: {
      type: 'object',
      description: 'The rows of a table answer in order, one cell per column; null is an empty cell (an optional value that is absent).',
      required: ['columns', 'rows'],
      properties: {
        columns: {
          type: 'array',
          items: { type: 'object', required: ['name', 'label'], properties: { name: { type: 'string', description: 'the SPARQL variable (no "?")' }, label: { type: 'string', description: 'a heading for people' } } },
        },
        rows: { type: 'array', items: { type: 'array', items: { oneOf: [{ $ref: '#/components/schemas/AnswerItem' }, { type: 'null' }] } } },
      },
    },
    Answer: {
      type: 'object',
      required: ['question', 'answers', 'form', 'groundedForm', 'sparql', 'source', 'confidence', 'beam', 'trace', 'timings'],
      properties: {
        question: { type: 'string' },
        answers: { type: 'array', description: 'the answers; of a table answer, the distinct values of its first column', items: { $ref: '#/components/schemas/AnswerItem' } },
        answerType: { enum: ['entities', 'number', 'boolean', 'table'] },
        table: { $ref: '#/components/schemas/AnswerTable' },
        form: { type: ['string', 'null'] },
        groundedForm: { type: ['string', 'null'] },
        sparql: { type: ['string', 'null'] },
        source: { type: 'string', description: 'parser | fallback:<reader> | none' },
        confidence: { type: 'number' },
        beam: { type: 'array', items: { type: 'object', properties: { form: { type: 'string' }, logProb: { type: 'number' } } } },
        trace: { type: 'array', items: { type: 'object' } },
        evidence: { type: 'array', items: { type: 'object' } },
        timings: {
          type: 'object',
          properties: { generate: { type: 'number' }, ground: { type: 'number' }, execute: { type: 'number' }, fallback: { type: 'number' }, total: { type: 'number' } },
        },
      },
    },
    Qald: { type: 'object', required: ['questions'], properties: { questions: { type: 'array', items: { type: 'object' } } } },
  },
};
}
