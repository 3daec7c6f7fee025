// ESLint flat config: typescript-eslint strict + stylistic, type-checked (projectService reads tsconfig.json, which
// covers src/, test/ and scripts/). `npm run lint` runs it at --max-warnings 0; `npm test` runs it too (test/unit/house/lint.test.ts).
// Every rule relaxed below says why on its own line; keep the list short (fix the code where the fix is sound).
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // dist/ is compiled output; train/ is Python; store/, fixtures/ and .cache/ are data.
  { ignores: ['dist/**', 'node_modules/**', 'train/**', 'store/**', 'fixtures/**', '.cache/**', 'tmp/**'] },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.strictTypeChecked, tseslint.configs.stylisticTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Numbers read naturally in messages (`${n} rows`); objects, undefined and null must still be made strings.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      // One-line arrow callbacks that return a void call (`() => res.end()`) are idiomatic; statements are still checked.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      // Express knows an error handler by its four parameters: an unused one is named `_next`.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      // Lazy loads that keep start-up fast (each command, the parser, oxigraph, compromise) and an untyped CJS module.
      '@typescript-eslint/no-require-imports': ['error', { allow: ['^\\./[a-z-]+$', '^\\.\\./generate$', '^\\.\\./\\.\\./pipeline$', '^oxigraph$', '^compromise$', '^@agnai/sentencepiece-js$'] }],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // Tests read HTTP and CLI output with fetch().json() / JSON.parse (typed `any`) and check its shape with
      // node:assert, which fails the test on a wrong shape; typing every body would repeat each assertion.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // `rows[0]!.x` in a test is an assertion: a missing value fails the test with a TypeError at that line.
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  // The layering of src/ (layers.json): a stage imports only lower stages, through their index.ts.
  ...(await import('./eslint.layers.mjs')).default,
);
