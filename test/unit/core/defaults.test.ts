import { strict as assert } from 'node:assert';
import { z } from 'zod';
import { DEFAULT_BEAM } from '../../../src/core';
import { AskOptionsObject } from '../../../src/pipeline/options';
import { ASK_DEFAULTS } from '../../../src/pipeline';

/** Each default is written once: the pipeline's, the parsers' and the documented ones are the same value. */
describe('defaults, each in one place', () => {
  it('the pipeline beam is core DEFAULT_BEAM', () => {
    assert.equal(ASK_DEFAULTS.beam, DEFAULT_BEAM);
  });

  it('every "(default X)" of the options schema (CLI help, OpenAPI) is the value in ASK_DEFAULTS', () => {
    const props = (z.toJSONSchema(AskOptionsObject) as { properties: Record<string, { description?: string }> }).properties;
    let checked = 0;
    for (const [key, value] of Object.entries(ASK_DEFAULTS)) {
      const d = props[key]?.description ?? '';
      const m = /\(default ([^,)]+)/.exec(d);
      if (!m) continue;
      assert.equal(m[1], String(value), `${key}: ${d}`);
      checked++;
    }
    assert.ok(checked >= 5, `only ${checked} documented defaults found`);
  });
});
