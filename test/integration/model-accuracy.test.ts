import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { packageRoot } from '../../src/core';
import { formsEqual, parseForm } from '../../src/form';
import { loadParser, readLabelsFile } from '../../src/generate';

/**
 * Guards the shipped movies parser: if a retrained model (or a decoder change) loses accuracy, this fails.
 * 300 questions at an even stride over the MetaQA validation split (brackets removed; the split was used
 * to choose settings, never trained on). The floor sits a little under the measured number (README).
 */
const FLOOR_EM = 0.97;
const N = 300;

describe('shipped movies model accuracy', function () {
  this.timeout(120_000);

  it(`greedy exact match on ${N} MetaQA validation questions stays ≥ ${FLOOR_EM * 100}%`, async () => {
    const root = packageRoot();
    const model = path.join(root, 'store', 'movies', 'model');
    const parser = await loadParser(model, { labels: readLabelsFile(path.join(root, 'store', 'movies', 'kb.txt')) });
    const lines = fs.readFileSync(path.join(root, 'fixtures', 'metaqa', 'valid.jsonl'), 'utf8').split('\n').filter(Boolean);
    const stride = Math.floor(lines.length / N);
    let ok = 0;
    let n = 0;
    for (let i = 0; i < lines.length && n < N; i += stride, n++) {
      const ex = JSON.parse(lines[i]!) as { question: string; form: string };
      const res = await parser.generate(ex.question, { beam: 1 });
      const top = res.candidates[0];
      if (top && formsEqual(top.form, parseForm(ex.form))) ok++;
    }
    const em = ok / n;
    assert.ok(em >= FLOOR_EM, `exact match ${(100 * em).toFixed(1)}% (${ok}/${n}) is below the floor ${FLOOR_EM * 100}%`);
  });
});
