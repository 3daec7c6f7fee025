// The layering of src/: a stage imports only stages on lower levels of layers.json, and only through their
// index.ts. One flat-config entry per stage and folder depth (a file in src/<stage>/ writes `../x`, one in
// src/<stage>/<dir>/ writes `../../x`), each with ESLint's built-in no-restricted-imports.
//   npx eslint --no-config-lookup -c eslint.layers.mjs src
// (alone it reports eslint-disable comments for rules it does not run as unused: add
// --report-unused-disable-directives-severity off)
// Spread into eslint.config.mjs: `...(await import('./eslint.layers.mjs')).default,`
// scripts/import-graph.ts prints the graph; test/unit/house/layers.test.ts checks it (require() included).
import * as fs from 'node:fs';
import tseslint from 'typescript-eslint';

const { order } = JSON.parse(fs.readFileSync(new URL('./layers.json', import.meta.url), 'utf8'));
const stages = order.flat().filter((s) => s !== '.');
const levelOf = new Map(order.flatMap((level, i) => level.map((s) => [s, i])));
const MAX_DEPTH = 4;
const alt = (names) => names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
const layerLine = order.map((l) => l.join(' ')).join(' < ');

function entry(stage, depth) {
  const dir = stage === '.' ? 'src/' : `src/${stage}/${'*/'.repeat(depth - 1)}`;
  const up = stage === '.' ? './' : '../'.repeat(depth);
  const prefix = up.replace(/\./g, '\\.');
  const level = levelOf.get(stage);
  const notBelow = stages.filter((s) => s !== stage && levelOf.get(s) >= level);
  const patterns = [
    {
      regex: `^${prefix}(${alt(stages.filter((s) => s !== stage))})/(?!index$).+`,
      message: `import a stage through its index.ts (layers.json: ${layerLine}).`,
    },
  ];
  if (notBelow.length > 0) {
    patterns.push({
      regex: `^${prefix}(${alt(notBelow)})(/.*)?$`,
      message: `${stage === '.' ? 'src/index.ts' : `src/${stage}`} may import only stages below it (layers.json: ${layerLine}).`,
    });
  }
  return {
    name: `askgraph/layers/${stage}/${depth}`,
    files: [`${dir}*.ts`],
    rules: { 'no-restricted-imports': ['error', { patterns }] },
  };
}

export default [
  // TypeScript syntax without type information; the plugin only so that its rules named in eslint-disable comments exist.
  { name: 'askgraph/layers/parser', files: ['src/**/*.ts'], languageOptions: { parser: tseslint.parser }, plugins: { '@typescript-eslint': tseslint.plugin } },
  entry('.', 1),
  ...stages.flatMap((stage) => Array.from({ length: MAX_DEPTH }, (_, i) => entry(stage, i + 1))),
];
