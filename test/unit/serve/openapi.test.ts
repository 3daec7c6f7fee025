import { strict as assert } from 'node:assert';
import { AskgraphError } from '../../../src/core';
import { AskOptionsSchema, checkAskOptions } from '../../../src/pipeline';
import { parseServeConfig } from '../../../src/serve/config';
import { openApiDocument } from '../../../src/serve/openapi';
import { validate } from '../../../src/serve/schemas';

describe('ask options: one schema for pipeline, server and OpenAPI', () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document is walked as untyped JSON, as a client reads it; node:assert checks each shape
  const doc = openApiDocument(parseServeConfig({})) as { components: { schemas: Record<string, any> }; paths: Record<string, any> };
  const askOptions = doc.components.schemas.AskOptions;

  it('the OpenAPI AskOptions lists every option of the zod schema with its bounds', () => {
    assert.deepEqual(Object.keys(askOptions.properties).sort(), Object.keys(AskOptionsSchema.shape).sort());
    assert.equal(askOptions.additionalProperties, false);
    assert.deepEqual([askOptions.properties.beam.minimum, askOptions.properties.beam.maximum], [1, 32]);
    assert.equal(askOptions.properties.tE.maximum, 1);
    const beamParam = doc.paths['/v1/ask'].get.parameters.find((p: { name: string }) => p.name === 'beam');
    assert.deepEqual(beamParam.schema, askOptions.properties.beam);
  });

  it('the pipeline and the server reject the same out-of-range option', () => {
    for (const bad of [{ beam: 33 }, { tE: 1.5 }, { fallback: 'paths' }, { strategy: 'best' }, { hops: 3 }]) {
      assert.throws(() => checkAskOptions(bad as never), (e: unknown) => e instanceof AskgraphError && e.code === 'BAD_REQUEST', JSON.stringify(bad));
      assert.throws(() => validate(AskOptionsSchema, bad, 'options'), (e: unknown) => e instanceof AskgraphError && e.code === 'BAD_REQUEST', JSON.stringify(bad));
    }
    checkAskOptions({ beam: 32, tE: 1, fallback: ['paths'], hops: 2, noAbstain: true });
    assert.throws(() => validate(AskOptionsSchema, { beem: 4 }, 'options'), /beem|unrecognized/i);
  });

  it('the OpenAPI document describes table answers: Answer.answerType and .table (AnswerTable, null cells), and CSV / TSV from /v1/ask by format or Accept', () => {
    const schemas = doc.components.schemas;
    assert.deepEqual(schemas.Answer.properties.answerType.enum, ['entities', 'number', 'boolean', 'table']);
    assert.equal(schemas.Answer.properties.table.$ref, '#/components/schemas/AnswerTable');
    assert.deepEqual(schemas.AnswerTable.required, ['columns', 'rows']);
    assert.deepEqual(schemas.AnswerTable.properties.rows.items.items.oneOf, [{ $ref: '#/components/schemas/AnswerItem' }, { type: 'null' }]);
    for (const method of ['get', 'post']) {
      const op = doc.paths['/v1/ask'][method];
      assert.deepEqual(Object.keys(op.responses['200'].content).sort(), ['application/json', 'text/csv', 'text/tab-separated-values'], method);
      assert.deepEqual(op.parameters.find((p: { name: string }) => p.name === 'format').schema.enum, ['json', 'qald', 'csv', 'tsv'], method);
    }
  });
});
