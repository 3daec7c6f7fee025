import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { packageRoot } from '../../../src/core';
import { deepImports, edges, levels, readLayers, stageImports, upwardImports } from '../../../scripts/import-graph';

/** The stage-level import graph of src/ (scripts/import-graph.ts) against layers.json (eslint.layers.mjs's table). */
describe('house: the layers of src/', () => {
  const root = packageRoot();
  const layers = readLayers(root);

  it('every folder of src/ is a stage of layers.json, listed once', () => {
    const dirs = fs.readdirSync(path.join(root, 'src'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
    const listed = layers.order.flat();
    assert.equal(new Set(listed).size, listed.length, `a stage listed twice: ${listed.join(' ')}`);
    assert.deepEqual(listed.filter((s) => s !== '.').sort(), dirs);
  });

  it('every import between stages points down and goes through the index.ts', () => {
    const imports = stageImports(root);
    assert.ok(edges(imports).size > 20, 'the graph was read');
    const show = (xs: typeof imports) => xs.map((i) => `${i.file}: ${i.spec} (${i.from} → ${i.to})`).join('\n');
    assert.deepEqual(show(upwardImports(imports, layers)), '', 'imports of a stage on the same or a higher level');
    assert.deepEqual(show(deepImports(imports)), '', 'imports that bypass a stage\'s index.ts');
  });

  it('the check sees an upward import, a deep one and a require() (a made-up tree)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-layers-'));
    try {
      const write = (file: string, text: string) => {
        fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        fs.writeFileSync(path.join(dir, file), text);
      };
      write('src/core/index.ts', 'export const a = 1;\n');
      write('src/core/text.ts', 'export const t = 1;\n');
      write('src/ground/index.ts', "import { a } from '../core';\nimport { t } from '../core/text';\nexport const g = a + t;\n");
      write('src/pipeline/index.ts', "import { g } from '../ground';\nexport const p = g;\n");
      write('src/ground/readers/late.ts', "const p = require('../../pipeline');\nexport { p };\n");
      const imports = stageImports(dir);
      const small = { order: [['core'], ['ground'], ['pipeline']] };
      assert.deepEqual(levels(small).get('pipeline'), 2);
      assert.deepEqual(
        upwardImports(imports, small).map((i) => `${i.file} ${i.from}→${i.to}`),
        ['src/ground/readers/late.ts ground→pipeline'],
      );
      assert.deepEqual(deepImports(imports).map((i) => `${i.file} ${i.spec}`), ['src/ground/index.ts ../core/text']);
      assert.deepEqual([...edges(imports)], [['ground → core', 2], ['ground → pipeline', 1], ['pipeline → ground', 1]]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
