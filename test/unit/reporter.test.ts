import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { packageRoot } from '../../src/core';

describe('test/reporter.js: the summary line counts tests that could not run as failed', () => {
  it('a failing before-all hook (a missing dependency) fails every test under it, named with the hook error; skips stay visible', function () {
    this.timeout(30_000);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-reporter-'));
    try {
      fs.writeFileSync(
        path.join(dir, 'fixture.test.js'),
        `describe('needs a browser', function () {
  before(function () { throw new Error('/usr/bin/chromium is missing (apt-get install chromium)'); });
  it('a', () => {}); it('b', () => {});
  describe('inner', () => { it('c', () => {}); });
});
describe('plain', function () { it('passes', () => {}); it('fails', () => { throw new Error('no'); }); it.skip('skipped', () => {}); });
`,
      );
      const root = packageRoot();
      const mocha = path.join(root, 'node_modules', 'mocha', 'bin', 'mocha.js');
      const run = (...args: string[]) =>
        spawnSync(process.execPath, [mocha, '--no-config', '--reporter', path.join(root, 'test', 'reporter.js'), ...args, path.join(dir, 'fixture.test.js')], { encoding: 'utf8' });
      const all = run();
      assert.match(all.stdout, /\n1 passed, 4 failed, 1 skipped\n$/, all.stdout);
      assert.match(all.stdout, /3 test\(s\) could not run because a hook failed \(counted as failed\):\n {2}needs a browser "before all" hook.*: \/usr\/bin\/chromium is missing/);
      assert.notEqual(all.status, 0);
      // --grep: only the selected tests count
      const some = run('--grep', 'plain');
      assert.match(some.stdout, /\n1 passed, 1 failed, 1 skipped\n$/, some.stdout);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
