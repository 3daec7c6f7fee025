import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { packageRoot } from '../../../src/core';

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.(ts|js)$/.test(e.name) ? [p] : [];
  });
}

describe('ASKGRAPH_* environment variables', () => {
  const root = packageRoot();
  const readme = fs.readFileSync(path.join(root, 'src', 'core', 'README.md'), 'utf8');
  const documented = new Set([...readme.matchAll(/^\| `(ASKGRAPH_[A-Z0-9_]+)` \|/gm)].map((m) => m[1]!));

  it('every variable read in src/ has a row in src/core/README.md, and every row is read', () => {
    const used = new Map<string, string>();
    for (const f of sourceFiles(path.join(root, 'src'))) {
      const text = fs.readFileSync(f, 'utf8');
      for (const m of text.matchAll(/ASKGRAPH_[A-Z][A-Z0-9_]*/g)) used.set(m[0], path.relative(root, f));
      // src/serve/config.ts builds names: e('PORT') reads ASKGRAPH_PORT
      if (text.includes("'ASKGRAPH_' +")) for (const m of text.matchAll(/\be\('([A-Z][A-Z0-9_]*)'\)/g)) used.set('ASKGRAPH_' + m[1]!, path.relative(root, f));
    }
    const undocumented = [...used].filter(([v]) => !documented.has(v)).map(([v, f]) => `${v} (${f})`);
    assert.deepEqual(undocumented, [], 'add a row to the table in src/core/README.md');
    const stale = [...documented].filter((v) => !used.has(v));
    assert.deepEqual(stale, [], 'documented but never read');
    assert.ok(documented.size >= 20);
  });
});
