/**
 * The stage-level import graph of src/: one edge per (importing stage → imported stage) with the number of
 * import statements behind it, plus every import that reaches into another stage past its index.ts.
 *   npx tsx scripts/import-graph.ts            edges with counts, deep imports, upward arrows
 *   node dist/scripts/import-graph.js --dot    the same graph for Graphviz
 * The layer order the arrows must follow is eslint.layers.mjs's (read from layers.json here and there);
 * test/unit/house/layers.test.ts fails when an arrow points up or an import bypasses an index.ts.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { packageRoot } from '../src/core';

/** One import of one source file (static import/export, `import()` or `require()`). */
export interface StageImport {
  /** The importing file, relative to the repository root. */
  file: string;
  /** The importing stage (a directory directly under src/; `.` for src/index.ts). */
  from: string;
  /** The imported stage. */
  to: string;
  /** The import specifier as written. */
  spec: string;
  /** The file the specifier names, relative to the imported stage ('' when the stage itself: its index.ts). */
  inner: string;
}

export interface Layers {
  /** Bottom first; stages on one level do not import each other. */
  order: string[][];
}

const ROOT = packageRoot();

/** The layer table (layers.json at the repository root, shared with eslint.layers.mjs). */
export function readLayers(root = ROOT): Layers {
  return JSON.parse(fs.readFileSync(path.join(root, 'layers.json'), 'utf8')) as Layers;
}

/** Level of each stage (0 = bottom). */
export function levels(layers: Layers): Map<string, number> {
  const out = new Map<string, number>();
  layers.order.forEach((level, i) => {
    for (const stage of level) out.set(stage, i);
  });
  return out;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out.sort();
}

function stageOf(srcDir: string, file: string): { stage: string; inner: string } {
  const rel = path.relative(srcDir, file).split(path.sep);
  if (rel.length === 1) return { stage: '.', inner: rel[0] ?? '' };
  return { stage: rel[0] ?? '.', inner: rel.slice(1).join('/') };
}

/** Every relative import in src/ that crosses from one stage into another. */
export function stageImports(root = ROOT): StageImport[] {
  const srcDir = path.join(root, 'src');
  const out: StageImport[] = [];
  for (const file of sourceFiles(srcDir)) {
    const info = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    const from = stageOf(srcDir, file).stage;
    for (const { fileName: spec } of info.importedFiles) {
      if (!spec.startsWith('.')) continue;
      // A directory names its index.ts.
      const named = path.resolve(path.dirname(file), spec);
      const target = fs.existsSync(named) && fs.statSync(named).isDirectory() ? path.join(named, 'index.ts') : named;
      if (path.relative(srcDir, target).startsWith('..')) continue;
      const { stage: to, inner } = stageOf(srcDir, target);
      if (to === from) continue;
      // `../compile` and `../compile/index` both name the stage's index.ts.
      const innerName = inner.replace(/\.(ts|js)$/, '');
      out.push({ file: path.relative(root, file).split(path.sep).join('/'), from, to, spec, inner: innerName === 'index' ? '' : innerName });
    }
  }
  return out;
}

/** (from → to) → count. */
export function edges(imports: StageImport[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const i of imports) out.set(`${i.from} → ${i.to}`, (out.get(`${i.from} → ${i.to}`) ?? 0) + 1);
  return new Map([...out].sort(([a], [b]) => a.localeCompare(b)));
}

/** Imports that reach a file inside another stage instead of its index.ts. */
export function deepImports(imports: StageImport[]): StageImport[] {
  return imports.filter((i) => i.inner !== '' && i.to !== '.');
}

/** Imports whose target stage is not strictly below the importing stage (or a stage missing from the table). */
export function upwardImports(imports: StageImport[], layers: Layers): StageImport[] {
  const level = levels(layers);
  return imports.filter((i) => {
    const a = level.get(i.from);
    const b = level.get(i.to);
    return a === undefined || b === undefined || b >= a;
  });
}

function main(): void {
  const imports = stageImports();
  const layers = readLayers();
  if (process.argv.includes('--dot')) {
    console.log('digraph stages {\n  rankdir=BT;');
    for (const [edge, n] of edges(imports)) {
      const [a, b] = edge.split(' → ');
      console.log(`  "${a}" -> "${b}" [label=${n}];`);
    }
    console.log('}');
    return;
  }
  console.log(`layers (bottom first): ${layers.order.map((l) => l.join(' ')).join(' < ')}`);
  console.log('\nstage → stage: imports');
  for (const [edge, n] of edges(imports)) console.log(`  ${edge}: ${n}`);
  const deep = deepImports(imports);
  console.log(`\nimports past an index.ts: ${deep.length}`);
  for (const i of deep) console.log(`  ${i.file}: ${i.spec}`);
  const up = upwardImports(imports, layers);
  console.log(`\narrows that do not point down: ${up.length}`);
  for (const i of up) console.log(`  ${i.file}: ${i.spec} (${i.from} → ${i.to})`);
  if (deep.length > 0 || up.length > 0) process.exitCode = 1;
}

if (require.main === module) main();
