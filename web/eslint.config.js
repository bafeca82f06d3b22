// The web app's lint gate (`npm run lint`, a stage of scripts/test).
//
// Besides the TypeScript, hooks and accessibility rules, it holds the app's layering:
// - no import cycles (import-x/no-cycle);
// - a feature (`src/features/X`) reaches another feature only through its public index
//   (`@/features/Y`), never into its files; pages that compose several features live in
//   `src/app/routes/`;
// - shared code (`src/components`, `src/lib`, `src/types`, `src/api`) imports no feature and
//   nothing of `src/app`;
// - no source file over 500 lines (tests excluded).
//
// TypeScript files are linted with type information (typescript-eslint's recommendedTypeChecked,
// through the project service: the same tsconfig files `tsc -b` uses), so a promise nobody awaits
// or hands to an event handler expecting nothing is an error, not a silent failure.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import globals from 'globals';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const FEATURES = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

// One zone per feature: nothing outside it may import its files other than its index.
const featureZones = FEATURES.map((feature) => ({
  target: `./src/features/!(${feature})/**/*`,
  from: `./src/features/${feature}`,
  except: ['./index.ts', './lazy.ts'],
  message: `Import the ${feature} feature through its public index ('@/features/${feature}').`,
}));

// An HTTP answer is typed with its generated type (`@/api/endpoints`: GetPostFollowingApiResponse,
// or `@/api`'s Schemas and Answer), never with a shape written at the call.
const INLINE_ANSWER = ':matches(TSTypeLiteral, TSUnionType:has(> TSTypeLiteral), TSIntersectionType:has(> TSTypeLiteral))';
const INLINE_ANSWER_MESSAGE = 'Type an HTTP answer with its type generated from the OpenAPI document (@/api/endpoints), not inline.';
const inlineAnswerRules = [
  { selector: `CallExpression[callee.object.name='http'] > TSTypeParameterInstantiation > ${INLINE_ANSWER}`, message: INLINE_ANSWER_MESSAGE },
  { selector: `CallExpression[callee.name='request'] > TSTypeParameterInstantiation > ${INLINE_ANSWER}`, message: INLINE_ANSWER_MESSAGE },
];

const sharedZones = ['components', 'lib', 'types', 'api'].flatMap((dir) => [
  {
    target: `./src/${dir}/**/*`,
    from: './src/features',
    message: 'Shared code does not depend on features: move what both need into shared code.',
  },
  {
    target: `./src/${dir}/**/*`,
    from: './src/app',
    message: 'Shared code does not depend on the app shell.',
  },
]);

export default tseslint.config(
  // Generated from src/api/openapi.json (scripts/api-types.mjs, scripts/api-endpoints.mjs).
  { ignores: ['dist/**', 'api-docs/**', 'node_modules/**', 'src/api/schema.d.ts', 'src/api/endpoints.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: fileURLToPath(new URL('.', import.meta.url)) } },
  },
  // Plain JavaScript (scripts, this file, public/) is in no tsconfig: linted without types.
  { files: ['**/*.{js,mjs,cjs}'], ...tseslint.configs.disableTypeChecked },
  reactHooks.configs['recommended-latest'],
  jsxA11y.flatConfigs.recommended,
  importX.flatConfigs.recommended,
  importX.flatConfigs.typescript,
  {
    rules: {
      // TypeScript checks default and named imports itself (and knows `export =` modules).
      'import-x/default': 'off',
      'import-x/no-named-as-default-member': 'off',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: { ...globals.browser },
    },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.app.json' })],
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Named here so that they stay errors whatever the shared configs become.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      'import-x/no-cycle': ['error', { ignoreExternal: true, allowUnsafeDynamicCyclicDependency: true }],
      'import-x/no-restricted-paths': ['error', { zones: [...featureZones, ...sharedZones] }],
      // Focus moves only into what the person has just opened (a dialog, the reply or edit box,
      // the search box) or to the one field of the sign-in form (see docs/decisions.md).
      'jsx-a11y/no-autofocus': 'off',
      'max-lines': ['error', { max: 500, skipBlankLines: false, skipComments: false }],
      'no-restricted-syntax': ['error', ...inlineAnswerRules],
    },
  },
  {
    files: ['src/**/*.test.{ts,tsx}', 'src/test/**/*'],
    languageOptions: { globals: { ...globals.browser, ...globals.node, ...globals.vitest } },
    rules: { 'max-lines': 'off' },
  },
  {
    files: ['public/**/*.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.browser } },
    rules: { '@typescript-eslint/no-unused-vars': ['error', { caughtErrors: 'none' }] },
  },
  {
    files: ['*.{js,mjs,ts}', 'scripts/**/*.{js,mjs}'],
    languageOptions: { globals: { ...globals.node } },
  },
);
