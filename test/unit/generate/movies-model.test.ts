import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { defaultPackDir, packageRoot } from '../../../src/core';
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
    const top = r.candidates[0]!.text;
    assert.ok(top.includes('[ Forrest Gump ]') && top.includes('directed_by'), top);
    assert.ok(formsEqual(r.candidates[0]!.form, parseForm('(JOIN (R directed_by) [ Forrest Gump ])')), top);
  });

  it('keeps its accuracy: greedy top-1 exact match >= 98% on every 10th MetaQA validation question (196; measured 100% on 2026-11-23)', async () => {
    const rows = fs
      .readFileSync(path.join(packageRoot(), 'fixtures', 'metaqa', 'valid.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as { question: string; form: string })
      .filter((_, i) => i % 10 === 0);
    assert.equal(rows.length, 196);
    const parser = await loadParser();
    const misses: string[] = [];
    for (const r of rows) {
      const top = (await parser.generate(r.question, { beam: 1 })).candidates[0];
      if (!top || !formsEqual(top.form, parseForm(r.form))) misses.push(`${r.question} → ${top?.text ?? '(none)'}`);
    }
    assert.ok(misses.length <= Math.floor(0.02 * rows.length), `${misses.length} of ${rows.length} wrong:\n${misses.join('\n')}`);
  });
});
