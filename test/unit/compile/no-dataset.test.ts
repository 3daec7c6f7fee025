/**
 * The compiler (and the rest of src/) names no data set: the movies namespaces live in store/movies/pack.json
 * only, and reach the compiler through packCompileOptions.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { packageRoot } from '../../../src/core';
import { MOVIES_NAMESPACES } from '../../helpers/movies';

function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? tsFiles(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

describe('compile: no data set in src/', () => {
  it("no source file under src/ spells the movies pack's namespaces", () => {
    const namespaces = [MOVIES_NAMESPACES.vocabularyNamespace, MOVIES_NAMESPACES.entityNamespace].filter((x): x is string => !!x);
    assert.equal(namespaces.length, 2);
    const files = tsFiles(path.join(packageRoot(), 'src'));
    assert.ok(files.length > 50, `only ${files.length} files found`);
    const hits = files.flatMap((f) => namespaces.filter((ns) => fs.readFileSync(f, 'utf8').includes(ns)).map((ns) => `${path.relative(packageRoot(), f)}: ${ns}`));
    assert.deepEqual(hits, []);
  });
});
