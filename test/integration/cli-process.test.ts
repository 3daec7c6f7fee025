/**
 * The CLI as users run it: a real `askgraph` process (bin/askgraph.js → dist, or the sources under tsx),
 * real pipes and sockets. A busy port and every start-up failure of `serve` end quickly with a coded
 * error; a reader that closes the pipe early does not cause a stack trace; --file answers many questions.
 */
import { strict as assert } from 'node:assert';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { packageRoot } from '../../src/core';
import { startServer } from '../../src/serve';

const root = packageRoot();
const CLI = __filename.endsWith('.ts')
  ? ['--require', require.resolve('tsx/cjs'), path.join(root, 'src', 'cli', 'dev.ts')]
  : [path.join(root, 'bin', 'askgraph.js')];

/** Runs askgraph to its end (killed after `ms`, which fails the test): exit code, output and wall time. */
function run(args: string[], opts: { input?: string; ms?: number; shell?: string } = {}): { code: number | null; out: string; err: string; ms: number; timedOut: boolean } {
  const t0 = Date.now();
  const r = opts.shell
    ? spawnSync('bash', ['-c', `askgraph() { ${[process.execPath, ...CLI].map((a) => JSON.stringify(a)).join(' ')} "$@"; }\n${opts.shell}`], { encoding: 'utf8', timeout: opts.ms ?? 60_000 })
    : spawnSync(process.execPath, [...CLI, ...args], { encoding: 'utf8', input: opts.input, timeout: opts.ms ?? 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr, ms: Date.now() - t0, timedOut: r.error !== undefined && String(r.error).includes('ETIMEDOUT') };
}

describe('askgraph CLI process: start-up failures, pipes, batch questions', function () {
  this.timeout(180_000);

  it('serve on a busy port: exit 2 at once with PORT_IN_USE, before loading the store or the model', async () => {
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const r = run(['serve', '--port', String(port)], { ms: 30_000 });
      assert.equal(r.timedOut, false, 'it must not hang');
      assert.equal(r.code, 2, r.err);
      assert.match(r.err, new RegExp(`^askgraph: PORT_IN_USE: 127\\.0\\.0\\.1:${port} is already in use`, 'm'));
      assert.doesNotMatch(r.err, /EADDRINUSE|\n\s+at /, 'no raw error, no stack');
      assert.equal(r.err.trim().split('\n').length, 1, r.err);
    } finally {
      blocker.close();
    }
  });

  it('serve takes the port before loading: a request during the load gets 503 STORE_UNAVAILABLE with Retry-After, then the app answers', async () => {
    let early: Promise<Response> | undefined;
    const srv = await startServer({ port: 0, logLevel: 'silent' }, {
      onListening: (url) => {
        early = fetch(url + '/v1/overview');
      },
    });
    try {
      const r = await early!;
      assert.equal(r.status, 503);
      assert.equal(r.headers.get('retry-after'), '2');
      assert.equal((await r.json()).error.code, 'STORE_UNAVAILABLE');
      assert.equal((await fetch(srv.url + '/v1/overview')).status, 200);
    } finally {
      await srv.close();
    }
  });

  it('every other start-up failure of serve ends with a coded one-line error and exit 2, never a hang', () => {
    const bad = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-bad-store-'));
    fs.writeFileSync(path.join(bad, 'bad.nt'), 'this is not N-Triples <<\n');
    const cases: [string[], RegExp][] = [
      [['serve', '--port', '0', '--store', bad], /^askgraph: DATA_FORMAT: bad\.nt: /m],
      [['serve', '--port', '0', '--store', path.join(os.tmpdir(), 'askgraph-no-such-store')], /^askgraph: NOT_FOUND: no store at /m],
      [['serve', '--port', '0', '--model', path.join(os.tmpdir(), 'askgraph-no-such-model')], /^askgraph: MODEL_UNAVAILABLE: /m],
      [['serve', '--port', '0', '--host', '203.0.113.7'], /^askgraph: LISTEN_FAILED: cannot listen on 203\.0\.113\.7:0/m],
      [['serve', '--port', '0', '--generator', 'not a url'], /^askgraph: BAD_REQUEST: invalid server configuration at generator\.url/m],
      [['serve', '--port', '0', '--generator', 'http://127.0.0.1:9/v1', '--model', 'x'], /^askgraph: BAD_REQUEST: give either a parser model or a generator URL/m],
    ];
    for (const [args, want] of cases) {
      const r = run(args, { ms: 60_000 });
      assert.equal(r.timedOut, false, `${args.join(' ')} must not hang`);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
      assert.match(r.err, want);
      assert.doesNotMatch(r.err, /\n\s+at /, 'no stack');
      // at most the "listening …; loading" line before the error
      assert.ok(r.err.trim().split('\n').length <= 2, r.err);
    }
    fs.rmSync(bad, { recursive: true, force: true });
  });

  it('`askgraph ask … | head -1`: the first line, and no EPIPE error when head closes the pipe', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-pipe-'));
    try {
      // 40 questions in JSON Lines: far more output than head reads, so askgraph writes into a closed pipe
      fs.writeFileSync(path.join(dir, 'q.txt'), 'who directed Forrest Gump\n'.repeat(40));
      const r = run([], { shell: `askgraph ask --file ${dir}/q.txt --json | head -1; echo "status \${PIPESTATUS[*]}" >&2`, ms: 120_000 });
      assert.equal(r.timedOut, false);
      assert.equal(JSON.parse(r.out.trim()).answers[0].label, 'Robert Zemeckis');
      assert.doesNotMatch(r.err, /EPIPE|Error|\n\s+at /, r.err);
      assert.match(r.err, /status 0 0/, 'askgraph exits 0 when its reader is gone');
      const one = run([], { shell: 'askgraph ask "who directed Forrest Gump" | head -1' });
      assert.equal(one.out, 'Robert Zemeckis\n');
      assert.equal(one.err, '');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the text output flags a doubtful answer (confidence below 0.8), says why there is no answer, and not a confident one', () => {
    const doubtful = run(['ask', 'which films did Tom Hanks star in', '--no-parser']);
    assert.equal(doubtful.code, 0, doubtful.err);
    assert.match(doubtful.out, /^source: {5}fallback:\w+ {2}\(confidence 0\.\d\d — doubtful, check the form or the evidence\)$/m);
    const none = run(['ask', 'what is the height of Keanu Reeves']);
    assert.equal(none.code, 1, none.err);
    assert.match(none.out, /^no answer: .*"height"/m);
    const sure = run(['ask', 'who directed Forrest Gump']);
    assert.match(sure.out, /^source: {5}parser {2}\(confidence (0\.9\d|1\.00)\)$/m);
    assert.doesNotMatch(sure.out, /doubtful/);
  });

  it('askgraph ask at a terminal (a pseudo-terminal from util-linux `script`): an interactive loop, answers as lines arrive, Ctrl-D ends it', async () => {
    const cmd = [process.execPath, ...CLI, 'ask'].map((a) => `'${a}'`).join(' ');
    const child = spawn('script', ['-qec', cmd, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    const until = async (re: RegExp) => {
      const t0 = Date.now();
      while (!re.test(out)) {
        if (Date.now() - t0 > 60_000) throw new Error(`no ${re} in ${JSON.stringify(out)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    try {
      await until(/askgraph> /);
      child.stdin.write('who directed Heat\r');
      await until(/Michael Mann/);
      child.stdin.write('what genre is Heat\r');
      await until(/Crime/);
      child.stdin.write('\x04');
      assert.equal(await exited, 0);
      const text = out.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '').replace(/\r/g, '');
      assert.match(text, /one question a line; Ctrl-D ends/);
      assert.match(text, / {2}Michael Mann\n {2}Paul Morrissey\n {2}\(parser, confidence (0\.9\d|1\.00), form \(JOIN \(R directed_by\) \[ Heat \]\)\)/);
    } finally {
      child.kill();
    }
  });

  it('ask --file: one question a line (blank lines and # comments skipped), JSON Lines with --json; a bad line is reported and the rest answered', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-batch-'));
    try {
      const file = path.join(dir, 'questions.txt');
      fs.writeFileSync(file, 'who directed Forrest Gump\n\n# a comment\nwhat films did Michael Mann direct\n' + 'x'.repeat(1001) + '\nwho directed Heat\n');
      const r = run(['ask', '--file', file, '--json']);
      assert.equal(r.code, 2, 'one question failed');
      const lines = r.out.trim().split('\n').map((l) => JSON.parse(l));
      assert.equal(lines.length, 4);
      assert.deepEqual(lines.map((l) => l.question ?? null).slice(0, 2), ['who directed Forrest Gump', 'what films did Michael Mann direct']);
      assert.deepEqual(lines[0].answers.map((a: { label: string }) => a.label), ['Robert Zemeckis']);
      assert.ok(lines[1].answers.some((a: { label: string }) => a.label === 'Heat'), JSON.stringify(lines[1].answers));
      assert.equal(lines[2].error.code, 'INPUT_TOO_LARGE');
      assert.equal(lines[2].line, 5);
      assert.ok(lines[3].answers.some((a: { label: string }) => a.label === 'Michael Mann'));
      assert.match(r.err, /^askgraph: line 5: INPUT_TOO_LARGE: /m);
      // standard input, text output: each question, its answers indented, one line of provenance
      const s = run(['ask', '--file', '-'], { input: 'who directed Forrest Gump\n' });
      assert.equal(s.code, 0, s.err);
      assert.match(s.out, /^who directed Forrest Gump\n {2}Robert Zemeckis\n {2}\(parser, confidence \d\.\d\d, form \(JOIN \(R directed_by\) \[ Forrest Gump \]\)\)\n$/);
      // no question and no terminal: a clear error instead of waiting
      const none = run(['ask'], { input: '' });
      assert.equal(none.code, 2);
      assert.match(none.err, /^askgraph: BAD_REQUEST: no question: give one, or --file/);
      const missing = run(['ask', '--file', path.join(dir, 'nope.txt')]);
      assert.equal(missing.code, 2);
      assert.match(missing.err, /^askgraph: NOT_FOUND: cannot read questions file/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('exit codes as grep: 0 answered, 1 no answer, 2 error; usage errors in the askgraph: CODE: message format', () => {
    const yes = run(['ask', 'who directed Heat']);
    assert.equal(yes.code, 0, yes.err);
    const no = run(['ask', 'who directed Qxzvwpt Jrkllmnq', '--fallback', 'off', '--json']);
    assert.equal(no.code, 1, no.err);
    assert.deepEqual(JSON.parse(no.out).answers, []);
    assert.equal(no.err, '', 'no answer is not an error');
    const cases: [string[], RegExp][] = [
      [['ask', '--bogus', 'who directed Heat'], /^askgraph: BAD_REQUEST: unknown option '--bogus' \(see askgraph ask --help\)$/],
      [['frobnicate'], /^askgraph: BAD_REQUEST: unknown command 'frobnicate' \(see askgraph --help\)$/],
      [['ask', 'who directed Heat', '--beam'], /^askgraph: BAD_REQUEST: option '--beam <k>' argument missing/],
      [['ask', 'who directed Heat', '--beam', '0'], /^askgraph: BAD_REQUEST: --beam must be a positive integer/],
    ];
    for (const [args, want] of cases) {
      const r = run(args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
      assert.equal(r.err.trim().split('\n').length, 1, r.err);
      assert.match(r.err.trim(), want);
      assert.equal(r.out, '');
    }
    // --json: the error as JSON on stdout as well
    const j = run(['ask', 'who directed Heat', '--json', '--frob']);
    assert.equal(j.code, 2);
    assert.equal(JSON.parse(j.out).error.code, 'BAD_REQUEST');
    // a batch: 2 if a line failed (tested above), else 1 if a question had no answer, else 0
    const batch = run(['ask', '--file', '-', '--fallback', 'off'], { input: 'who directed Heat\nwho directed Qxzvwpt Jrkllmnq\n' });
    assert.equal(batch.code, 1, batch.err);
    assert.match(batch.out, /^ {2}Michael Mann$/m);
  });

  it('a question stopped by its time budget is an error (exit 2, QUERY_TIMEOUT), not "no answer" (exit 1)', () => {
    const q = 'which actors starred in movies directed by Ridley Scott';
    const r = run(['ask', q, '--timeout', '1']);
    assert.equal(r.code, 2, r.out + r.err);
    assert.match(r.err.trim(), /^askgraph: QUERY_TIMEOUT: the question could not be answered because its time budget ran out/);
    assert.doesNotMatch(r.out, /^no answer/m);
    const j = run(['ask', q, '--timeout', '1', '--json']);
    assert.equal(j.code, 2);
    assert.equal(JSON.parse(j.out).error.code, 'QUERY_TIMEOUT');
    // in a batch the stopped line is a failed line (exit 2); the other lines are answered
    const batch = run(['ask', '--file', '-', '--timeout', '1'], { input: q + '\n' });
    assert.equal(batch.code, 2, batch.err);
    assert.match(batch.err, /line 1: QUERY_TIMEOUT/);
  });

  it('a question piped on standard input without --file - is answered; an empty pipe is an error before anything loads', () => {
    const r = run(['ask', '--json'], { input: 'who directed Heat\n' });
    assert.equal(r.code, 0, r.err);
    assert.ok(JSON.parse(r.out.trim()).answers.some((a: { label: string }) => a.label === 'Michael Mann'), r.out);
    const two = run(['ask'], { input: 'who directed Heat\n# a comment\nwho directed Forrest Gump' });
    assert.equal(two.code, 0, two.err);
    assert.match(two.out, /^who directed Heat\n {2}Michael Mann\n/);
    assert.match(two.out, /^who directed Forrest Gump\n {2}Robert Zemeckis\n/m);
    const empty = run(['ask'], { input: '\n  \n# only a comment\n' });
    assert.equal(empty.code, 2);
    assert.match(empty.err, /^askgraph: BAD_REQUEST: no question: give one, or --file/);
  });

  it('ask --explain shows where the cold start spent its time, phase by phase (wall and CPU), and the store process CPU', () => {
    const r = run(['ask', 'who directed Heat', '--explain']);
    assert.equal(r.code, 0, r.err);
    const table = r.out.slice(r.out.indexOf('cold start:'));
    for (const phase of ['node start + modules', 'pack', 'entity index', 'parser (tokenizer, ONNX sessions)', 'waiting for the store', 'the question', 'total (this process)']) {
      assert.match(table, new RegExp(`^  ${phase.replace(/[()+]/g, '\\$&')} +\\d+\\.\\d ms +\\d+\\.\\d ms`, 'm'), `${phase} in\n${table}`);
    }
    assert.match(table, /loaded it from (snapshot|sources) in \d+ ms, \d+ ms CPU/);
    assert.match(table, /^  CPU of the store process: \d+\.\d ms; all told \d+\.\d ms$/m);
    assert.match(table, /the question .*generate \d+\.\d ms, ground/);
    const j = run(['ask', 'who directed Heat', '--explain', '--json']);
    const startup = JSON.parse(j.out).startup;
    assert.ok(startup.phases.some((p: { phase: string; cpuMs: number }) => p.phase === 'entity index' && p.cpuMs >= 0), j.out);
    assert.ok(startup.storeProcessCpuMs > 0);
  });
});
