import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { defaultPackDir } from '../../../src/core';
import { formsEqual, parseForm } from '../../../src/form';
import { loadParser } from '../../../src/generate';

// The shipped movies parser (store/movies/model). It is part of the product: if it is missing this test fails.
describe('generate/movies-model: the shipped movies parser', function () {
  this.timeout(60000);

  it('exists, loads as the default model and parses "who directed Forrest Gump"', async () => {
    const dir = path.join(defaultPackDir(), 'model');
    for (const f of ['config.json', 'tokenizer.model', 'encoder.onnx', 'decoder.onnx']) {
      assert.ok(fs.existsSync(path.join(dir, f)), `missing ${path.join(dir, f)}`);
    }
    const parser = await loadParser();
    assert.equal(parser.dir, dir);
    const r = await parser.generate('who directed Forrest Gump', { beam: 4 });
    assert.ok(r.candidates.length >= 1);
    const top = r.candidates[0].text;
    assert.ok(top.includes('[ Forrest Gump ]') && top.includes('directed_by'), top);
    assert.ok(formsEqual(r.candidates[0].form, parseForm('(JOIN (R directed_by) [ Forrest Gump ])')), top);
  });
});
