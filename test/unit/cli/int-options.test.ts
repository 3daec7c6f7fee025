import { strict as assert } from 'node:assert';
import { AskgraphError } from '../../../src/core';
import { intArg } from '../../../src/cli/options';
import { cli } from '../../helpers/cli';

describe('cli: integer options (one commander argParser)', () => {
  it('intArg: integers ≥ min pass as numbers; anything else is BAD_REQUEST naming the option', () => {
    assert.equal(intArg('--beam')('4'), 4);
    assert.equal(intArg('--seed', 0)('0'), 0);
    for (const bad of ['', ' ', 'abc', '2.5', '0', '-3', 'Infinity', '1e400']) {
      assert.throws(() => intArg('--beam')(bad), (e: AskgraphError) => e.code === 'BAD_REQUEST' && e.message === `--beam must be a positive integer, got "${bad}"`, bad);
    }
    assert.throws(() => intArg('--limit', 0)('-1'), /--limit must be a non-negative integer, got "-1"/);
    assert.throws(() => intArg('--count', 5)('4'), /--count must be an integer ≥ 5, got "4"/);
  });

  it('every command with integer options refuses a bad value before it runs: one line, exit 2 (--json: {error})', async () => {
    const cases: [string[], RegExp][] = [
      [['compile', '(JOIN r [ a ])', '--limit', 'abc'], /^askgraph: BAD_REQUEST: --limit must be a positive integer, got "abc"$/m],
      [['compile', '(JOIN r [ a ])', '--limit', '2.5'], /--limit must be a positive integer, got "2\.5"/],
      [['run', '(JOIN r [ a ])', '--timeout', '0'], /^askgraph: BAD_REQUEST: --timeout must be a positive integer, got "0"$/m],
      [['ask', 'who made it', '--beam', 'x'], /^askgraph: BAD_REQUEST: --beam must be a positive integer, got "x"$/m],
      [['parse', 'who made it', '--max-length', '-1'], /^askgraph: BAD_REQUEST: --max-length must be a positive integer, got "-1"$/m],
      [['eval', '--dataset', 'none.jsonl', '--sample', 'some'], /^askgraph: BAD_REQUEST: --sample must be a non-negative integer, got "some"$/m],
      [['synth', '--schema', 'none.json', '--out', 'x.jsonl', '--count', '1.5'], /^askgraph: BAD_REQUEST: --count must be a positive integer, got "1\.5"$/m],
      [['train', '--data', 'none.jsonl', '--out', 'none-model', '--threads', 'two'], /^askgraph: BAD_REQUEST: --threads must be a non-negative integer, got "two"$/m],
    ];
    for (const [args, want] of cases) {
      const r = await cli(args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
      assert.match(r.err, want, args.join(' '));
      assert.equal(r.err.trim().split('\n').length, 1, r.err);
      const j = await cli([...args, '--json']);
      assert.equal(JSON.parse(j.out).error.code, 'BAD_REQUEST', args.join(' '));
    }
  });

  it('a good value reaches the command as a number', async () => {
    const r = await cli(['compile', '(JOIN r [ a ])', '--limit', '7']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /LIMIT 7\b/);
  });
});
