import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ESLint } from 'eslint';
import { packageRoot } from '../../../src/core';

/**
 * The house rules run in `npm test`: typescript-eslint strict + stylistic, type-checked (eslint.config.mjs, the
 * layer rules of eslint.layers.mjs included) at zero findings, and the compiler's noUncheckedIndexedAccess (the
 * build of `npm test` fails on any error of it).
 */
describe('house: strict type-checked lint and noUncheckedIndexedAccess', function () {
  this.timeout(600_000);
  const root = packageRoot();

  it('tsconfig.json has strict and noUncheckedIndexedAccess on (the build npm test runs checks them)', () => {
    const config = JSON.parse(fs.readFileSync(path.join(root, 'tsconfig.json'), 'utf8')) as { compilerOptions?: Record<string, unknown> };
    assert.equal(config.compilerOptions?.strict, true);
    assert.equal(config.compilerOptions.noUncheckedIndexedAccess, true);
  });

  it('the whole tree (src, test, scripts) has no eslint finding', async () => {
    const eslint = new ESLint({ cwd: root });
    const results = await eslint.lintFiles(['.']);
    assert.ok(results.length > 200, `${results.length} files linted`);
    const findings = results.flatMap((r) => r.messages.map((m) => `${path.relative(root, r.filePath)}:${m.line}:${m.column} ${m.ruleId ?? 'parse'} ${m.message}`));
    assert.deepEqual(findings.slice(0, 40), [], `${findings.length} findings`);
  });

  it('the check sees a finding: a floating promise, a non-null assertion and an upward import in a made-up file of src/', async () => {
    const eslint = new ESLint({ cwd: root });
    // the project service types only files on disk: the probe is written beside core's files and always removed
    const file = path.join(root, 'src', 'core', `lint-probe-${String(process.pid)}.ts`);
    const text = [
      "import { createGateway } from '../pipeline';",
      'export function probe(xs: number[]): number {',
      '  void createGateway;',
      '  Promise.resolve(1);',
      '  return xs[0]!;',
      '}',
      '',
    ].join('\n');
    fs.writeFileSync(file, text);
    try {
      const [result] = await eslint.lintFiles([file]);
      const rules = new Set(result?.messages.map((m) => m.ruleId));
      assert.ok(rules.has('@typescript-eslint/no-floating-promises'), [...rules].join(' '));
      assert.ok(rules.has('@typescript-eslint/no-non-null-assertion'), [...rules].join(' '));
      assert.ok(rules.has('no-restricted-imports'), [...rules].join(' '));
    } finally {
      fs.rmSync(file, { force: true });
    }
  });
});
