// One ESLint flat config for the whole repository. The layer rules of ARCHITECTURE.md are lint
// errors here: a package may import only the layers below it, never a sibling service, and never
// by relative path or into another package's src.
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';
// By path, not by package name: ESLint loads this config before anything is built or linked.
import { plugin as clawsmith } from './tools/lint-rules/src/index.mjs';

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', '**/test-results/**', '**/.nx/**', '**/coverage/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.mjs', '**/*.js'],
    plugins: { '@nx': nx },
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly' },
    },
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          banTransitiveDependencies: false,
          checkDynamicDependenciesExceptions: [],
          depConstraints: [
            // layer 0 imports no workspace package but the platform beside it, which imports none
            { sourceTag: 'layer:contract', onlyDependOnLibsWithTags: ['layer:platform'] },
            // the platform imports no workspace package (its tests use the repository's test helpers)
            { sourceTag: 'layer:platform', onlyDependOnLibsWithTags: ['layer:tooling'] },
            // layer 0, libraries: engines with domain knowledge but no contract of their own (the
            // search index), which a service may depend on; they import only the platform
            { sourceTag: 'layer:library', onlyDependOnLibsWithTags: ['layer:platform', 'layer:tooling'] },
            // layer 1 imports only layer 0; services never import each other
            {
              sourceTag: 'layer:service',
              onlyDependOnLibsWithTags: ['layer:contract', 'layer:platform', 'layer:library', 'layer:tooling'],
            },
            // layer 2, below core: the tool host (one call's lifecycle without a loop) wires services
            {
              sourceTag: 'layer:host',
              onlyDependOnLibsWithTags: [
                'layer:contract',
                'layer:platform',
                'layer:library',
                'layer:service',
                'layer:tooling',
              ],
            },
            // layer 2, the agent loop: core imports layers 0-1 and the tool host
            {
              sourceTag: 'layer:composition',
              onlyDependOnLibsWithTags: [
                'layer:contract',
                'layer:platform',
                'layer:library',
                'layer:service',
                'layer:host',
                'layer:tooling',
              ],
            },
            // layer 3, framework adapters: the tool host and what is below it, never core or an app
            {
              sourceTag: 'layer:adapter',
              onlyDependOnLibsWithTags: [
                'layer:contract',
                'layer:platform',
                'layer:library',
                'layer:service',
                'layer:host',
                'layer:tooling',
              ],
            },
            // apps import anything below, and an app that is also a library (web's server, which
            // `clawsmith web` starts); no app imports the cli
            {
              sourceTag: 'layer:app',
              onlyDependOnLibsWithTags: [
                'layer:contract',
                'layer:platform',
                'layer:library',
                'layer:service',
                'layer:host',
                'layer:composition',
                'layer:adapter',
                'layer:tooling',
                'layer:app-library',
              ],
            },
            // repository tooling (test helpers, benchmarks) may use any package
            {
              sourceTag: 'layer:tooling',
              onlyDependOnLibsWithTags: [
                'layer:contract',
                'layer:platform',
                'layer:library',
                'layer:service',
                'layer:host',
                'layer:composition',
                'layer:adapter',
                'layer:app',
                'layer:tooling',
              ],
            },
          ],
        },
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@clawsmith/*/src', '@clawsmith/*/src/*', '**/packages/*/src/*', '../../packages/*'],
              message: "Import another package only through its published entry point ('@clawsmith/<name>').",
            },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // The web page shows what models and tools wrote: it must reach the DOM as React text nodes
    // only. No HTML from strings, no code from strings, anywhere in the web package.
    files: ['packages/web/**/*.ts', 'packages/web/**/*.tsx'],
    rules: {
      'no-eval': 'error',
      'no-implied-eval': 'error',
      'no-new-func': 'error',
      'no-restricted-syntax': [
        'error',
        {
          selector: "JSXAttribute[name.name='dangerouslySetInnerHTML'], Property[key.name='dangerouslySetInnerHTML']",
          message: 'dangerouslySetInnerHTML is forbidden in @clawsmith/web: render untrusted text as React children.',
        },
        {
          selector: 'MemberExpression[property.name=/^(innerHTML|outerHTML)$/]',
          message: 'innerHTML/outerHTML are forbidden in @clawsmith/web: use textContent or React children.',
        },
        {
          selector:
            "CallExpression[callee.property.name=/^(insertAdjacentHTML|createContextualFragment)$/], CallExpression[callee.object.name='document'][callee.property.name=/^(write|writeln)$/]",
          message: 'Parsing HTML from strings is forbidden in @clawsmith/web.',
        },
        {
          selector:
            "CallExpression[callee.name='eval'], NewExpression[callee.name='Function'], CallExpression[callee.name='Function']",
          message: 'eval and new Function are forbidden in @clawsmith/web.',
        },
      ],
    },
  },
  {
    // No import circle among the files of a package: each file's imports form a tree that can be
    // read from the leaves up (a circle is a concept split in the wrong place). Across packages
    // the layer rules above already forbid circles. Imports of types only are compiled away and
    // do not count (tools/lint-rules/README.md).
    files: [
      'packages/*/src/**/*.ts',
      'packages/*/src/**/*.tsx',
      'packages/web/page/src/**/*.ts',
      'packages/web/page/src/**/*.tsx',
    ],
    plugins: { clawsmith },
    rules: { 'clawsmith/no-import-cycle': 'error' },
  },
  {
    // Package config files extend the one shared root config by relative path, on purpose.
    files: ['**/vitest.config.ts'],
    rules: { '@nx/enforce-module-boundaries': 'off' },
  },
  {
    // README examples are consumer code: they import their own package by its published name,
    // exactly as a team would, so the layer rules (written for package sources) do not apply.
    files: ['packages/*/examples/**'],
    rules: { '@nx/enforce-module-boundaries': 'off' },
  },
  {
    files: ['**/*.test.ts', '**/*.test.tsx'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
