import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { packageRoot } from '../../src/core';
import { parseForm } from '../../src/form';
import { diffForms, diffPredictions, renderDiffTree } from '../../src/form';
import { cli } from '../helpers/cli';

const root = path.join(packageRoot(), 'fixtures', 'diff');
const read = (dir: string, f: string) => fs.readFileSync(path.join(dir, f), 'utf8');
const readRows = (dir: string, f: string) =>
  read(dir, f)
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));


const cases = fs.readdirSync(root).filter((n) => fs.statSync(path.join(root, n)).isDirectory()).sort();

describe('form diff: golden cases (fixtures/diff)', () => {
  it('has a case for every kind of change', () => {
    const kinds = new Set<string>();
    for (const name of cases) {
      const e = JSON.parse(read(path.join(root, name), 'expected.json'));
      for (const c of e.changes ?? []) kinds.add(`${c.change} ${c.kind}`);
    }
    for (const k of [
      'substituted entity', 'substituted relation', 'substituted class', 'substituted literal', 'substituted operator',
      'substituted subtree', 'added operator', 'removed operator', 'added subtree', 'removed subtree',
    ]) assert.ok(kinds.has(k), `no golden case for "${k}"`);
  });

  for (const name of cases) {
    const dir = path.join(root, name);
    if (fs.existsSync(path.join(dir, 'a.sexpr'))) {
      it(`${name}: diff equals expected.json, and the CLI exit code follows it`, async () => {
        const expected = JSON.parse(read(dir, 'expected.json'));
        const d = diffForms(parseForm(read(dir, 'a.sexpr')), parseForm(read(dir, 'b.sexpr')));
        assert.deepEqual(
          { equal: d.equal, equalNormalized: d.equalNormalized, sameSkeleton: d.sameSkeleton, counts: d.counts, changes: d.changes, tree: renderDiffTree(d.tree).split('\n') },
          expected,
        );
        const r = await cli(['diff', path.join(dir, 'a.sexpr'), path.join(dir, 'b.sexpr'), '--json']);
        assert.equal(r.code, expected.equalNormalized ? 0 : 1);
        assert.deepEqual(JSON.parse(r.out).changes, expected.changes);
      });
    } else {
      it(`${name}: prediction files diff equals expected.json, and the CLI exit code follows it`, async () => {
        const expected = JSON.parse(read(dir, 'expected.json'));
        assert.deepEqual(diffPredictions(readRows(dir, 'a.jsonl'), readRows(dir, 'b.jsonl'), parseForm), expected);
        const r = await cli(['diff', path.join(dir, 'a.jsonl'), path.join(dir, 'b.jsonl'), '--json']);
        assert.equal(r.code, expected.totals.same === expected.totals.total ? 0 : 1);
        assert.deepEqual(JSON.parse(r.out), expected);
      });
    }
  }
});

describe('askgraph diff (CLI)', () => {
  const a = '(JOIN (R directed_by) [ Forrest Gump ])';
  const b = '(JOIN (R written_by) [ Forrest Gump ])';

  it('prints the aligned tree without colour when not a TTY', async () => {
    const r = await cli(['diff', a, b]);
    assert.equal(r.code, 1);
    assert.match(r.out, /same skeleton: yes/);
    assert.match(r.out, /~ \(JOIN \(R directed_by\) → \(JOIN \(R written_by\)/);
    assert.ok(!r.out.includes('\x1b['), 'no escape codes off a TTY');
  });

  it('colours on a TTY, and NO_COLOR turns it off', async () => {
    const coloured = await cli(['diff', a, b], {}, { tty: true });
    assert.ok(coloured.out.includes('\x1b[33m'), 'substitution in yellow');
    const plain = await cli(['diff', a, b], { NO_COLOR: '1' }, { tty: true });
    assert.ok(!plain.out.includes('\x1b['));
  });

  it('exit 0 for forms equal after normalisation', async () => {
    const r = await cli(['diff', '(AND a (JOIN r [ x ]))', '(AND (JOIN r [ x ]) a)']);
    assert.equal(r.code, 0);
    assert.match(r.out, /equal after normalisation: yes/);
  });

  it('exit 2 on bad input: a form that does not parse, or a form against a file', async () => {
    const bad = await cli(['diff', '(JOIN (R directed_by) [ x ]', a]);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /^askgraph: FORM_SYNTAX: /);
    const mixed = await cli(['diff', a, path.join(root, 'files', 'a.jsonl')]);
    assert.equal(mixed.code, 2);
    assert.match(mixed.err, /BAD_REQUEST/);
  });

  it('exit 2 (DATA_FORMAT) for a prediction line whose "id" is an object, not a string or number', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-diff-'));
    try {
      const bad = path.join(dir, 'bad.jsonl');
      const good = path.join(dir, 'good.jsonl');
      fs.writeFileSync(bad, '{"id": {"n": 1}, "form": "(R a)"}\n{"id": {"n": 2}, "form": "(R b)"}\n');
      fs.writeFileSync(good, '{"id": "x", "form": "(R a)"}\n');
      const r = await cli(['diff', bad, good]);
      assert.equal(r.code, 2);
      assert.match(r.err, /DATA_FORMAT: .*bad\.jsonl:1: "id" must be a string or a number/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lists the changed examples of two prediction files', async () => {
    const r = await cli(['diff', path.join(root, 'files', 'a.jsonl'), path.join(root, 'files', 'b.jsonl')]);
    assert.equal(r.code, 1);
    assert.match(r.out, /examples: 8 {3}same: 3 {3}same skeleton: 1 {3}different: 2 {3}only in a: 1 {3}only in b: 1/);
    assert.match(r.out, /q3 {2}\[same-skeleton\]/);
    assert.ok(!/^q1 /m.test(r.out), 'unchanged examples are not listed');
  });
});
