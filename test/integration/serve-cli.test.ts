import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { packageRoot } from '../../src/core';
import { ENV_VARS } from '../../src/serve/config';
import { main } from '../../src/cli/main';

function capture() {
  const out = new PassThrough();
  const err = new PassThrough();
  let stdout = '';
  let stderr = '';
  out.on('data', (d: Buffer) => (stdout += d.toString()));
  err.on('data', (d: Buffer) => (stderr += d.toString()));
  return { io: { stdout: out, stderr: err }, text: () => ({ stdout, stderr }) };
}

describe('askgraph serve (CLI)', function () {
  this.timeout(180_000);

  it('serve --help lists every environment variable of the one table, each on its own line', async () => {
    const a = capture();
    await main(['serve', '--help'], { ...a.io, env: {} });
    const help = a.text().stdout;
    for (const v of ENV_VARS) assert.match(help, new RegExp(`^  ${v.name} \\(`, 'm'), v.name);
    const listed = [...help.matchAll(/^  (ASKGRAPH_[A-Z_]+) \(/gm)].map((m) => m[1]);
    assert.deepEqual(listed, ENV_VARS.map((v) => v.name));
  });

  it('bad flags, env or config file: exit 2 with one line naming the problem, no server', async () => {
    const a = capture();
    assert.equal(await main(['serve', '--port', 'eighty'], { ...a.io, env: {} }), 2);
    assert.match(a.text().stderr, /^askgraph: BAD_REQUEST: config: --port must be a number/m);
    const b = capture();
    assert.equal(await main(['serve'], { ...b.io, env: { ASKGRAPH_RATE_LIMIT_BURST: '0' } }), 2);
    assert.match(b.text().stderr, /rateLimit\.burst/);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-serve-cli-'));
    try {
      const file = path.join(dir, 'bad.json');
      fs.writeFileSync(file, '{"port": 8080, "cors": {"origin": "*"}}');
      const c = capture();
      assert.equal(await main(['serve', '--config', file], { ...c.io, env: {} }), 2);
      assert.match(c.text().stderr, /invalid server configuration at cors/);
      const d = capture();
      assert.equal(await main(['serve', '--config', path.join(dir, 'missing.json')], { ...d.io, env: {} }), 2);
      assert.match(d.text().stderr, /cannot read config file/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('`askgraph serve` as a process: embedded movies pack (real model) on a free port, JSON logs, clean exit on SIGTERM', async () => {
    const root = packageRoot();
    // the build (bin/askgraph.js → dist) under `npm test`, the sources under tsx during development
    const cli = __filename.endsWith('.ts')
      ? ['--require', require.resolve('tsx/cjs'), path.join(root, 'src', 'cli', 'dev.ts')]
      : [path.join(root, 'bin', 'askgraph.js')];
    const child = spawn(process.execPath, [...cli, 'serve', '--port', '0', '--log-level', 'info'], {
      env: { ...process.env, ASKGRAPH_CACHE_MAX: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    try {
      let url: string | undefined;
      for (let i = 0; i < 600 && !url && child.exitCode === null; i++) {
        url = /serving (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr)?.[1];
        if (!url) await new Promise((r) => setTimeout(r, 250));
      }
      assert.ok(url, `no "serving" line; exit ${child.exitCode}; stderr: ${stderr}`);
      const h = await (await fetch(url + '/healthz')).json();
      assert.equal(h.status, 'ok');
      assert.ok(h.model, 'a parser model is loaded');
      const r = await fetch(url + '/v1/ask?question=' + encodeURIComponent('who directed Forrest Gump'));
      assert.equal(r.status, 200);
      const answer = await r.json();
      assert.ok(answer.answers.some((a: { label: string }) => a.label === 'Robert Zemeckis'), JSON.stringify(answer.answers));
      child.kill('SIGTERM');
      assert.equal(await exited, 0, stderr);
      const logs = stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l));
      assert.ok(logs.some((l) => l.msg === 'request' && l.route === '/v1/ask' && l.status === 200), stdout);
      assert.ok(!stdout.includes('Forrest Gump'), 'no question text in info logs');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
