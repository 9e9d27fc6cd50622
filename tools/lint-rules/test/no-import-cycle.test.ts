import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { plugin } from '../src/index.mjs';

const repositoryRoot = resolve(import.meta.dirname, '../../..');

/** Lints every file of `dir` with only `clawsmith/no-import-cycle` on; returns `file:line message` lines. */
async function cycleReports(dir: string): Promise<string[]> {
  const eslint = new ESLint({
    cwd: dir,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ['**/*.ts', '**/*.tsx', '**/*.mjs'],
        languageOptions: { parser: tseslint.parser },
        plugins: { clawsmith: plugin },
        rules: { 'clawsmith/no-import-cycle': 'error' },
      },
    ],
  });
  const results = await eslint.lintFiles(['.']);
  return results
    .flatMap((result) =>
      result.messages.map(
        (message) => `${result.filePath.slice(dir.length + 1)}:${message.line}:${message.column} ${message.message}`,
      ),
    )
    .sort();
}

describe('no-import-cycle', () => {
  it('reports both imports of a circle of two files, naming the circle', async () => {
    const dir = testdir({
      'src/session.ts': "import { store } from './store.js';\nexport const session = () => store;\n",
      'src/store.ts': "import { session } from './session.js';\nexport const store = () => session;\n",
    });
    expect(await cycleReports(dir)).toEqual([
      'src/session.ts:1:23 Import circle: src/session.ts -> src/store.ts -> src/session.ts. Move what these files share into a file that imports none of them, so the imports read from the leaves up.',
      'src/store.ts:1:25 Import circle: src/store.ts -> src/session.ts -> src/store.ts. Move what these files share into a file that imports none of them, so the imports read from the leaves up.',
    ]);
  });

  it('follows re-exports, import() and folders with an index across three files', async () => {
    const dir = testdir({
      'src/a.ts': "import { c } from './b.js';\nexport const a = c;\n",
      'src/b.ts': "export { c } from './c/index.js';\n",
      'src/c/index.ts': "export const c = () => import('../a.js');\n",
    });
    const reports = await cycleReports(dir);
    expect(reports.map((line) => line.slice(0, line.indexOf('. Move')))).toEqual([
      'src/a.ts:1:19 Import circle: src/a.ts -> src/b.ts -> src/c/index.ts -> src/a.ts',
      'src/b.ts:1:19 Import circle: src/b.ts -> src/c/index.ts -> src/a.ts -> src/b.ts',
      'src/c/index.ts:1:31 Import circle: src/c/index.ts -> src/a.ts -> src/b.ts -> src/c/index.ts',
    ]);
  });

  it('leaves out imports and re-exports of types only, which the compiled code does not keep', async () => {
    const dir = testdir({
      'src/rows.ts':
        "import { open } from './database.js';\nexport type Row = { id: string };\nexport const rows = open;\n",
      'src/database.ts':
        "import type { Row } from './rows.js';\nimport { type Row as Same } from './rows.js';\nexport type { Row as Again } from './rows.js';\nexport const open = (row: Row, same: Same) => [row, same];\n",
      'src/mixed.ts':
        "import { type Row, rows } from './rows.js';\nexport const mixed = (row: Row) => rows(row, row);\n",
      'src/loop.ts':
        "import { mixed } from './mixed.js';\nimport type { Row } from './rows.js';\nexport const loop = (row: Row) => mixed(row);\n",
    });
    expect(await cycleReports(dir)).toEqual([]);
    // One value import back turns the same files into a circle.
    writeFileSync(join(dir, 'src/database.ts'), "import { rows } from './rows.js';\nexport const open = () => rows;\n");
    expect((await cycleReports(dir)).map((line) => line.slice(0, line.indexOf('. Move')))).toEqual([
      'src/database.ts:1:22 Import circle: src/database.ts -> src/rows.ts -> src/database.ts',
      'src/rows.ts:1:22 Import circle: src/rows.ts -> src/database.ts -> src/rows.ts',
    ]);
  });

  it('reports nothing for imports that share files without a circle, packages, JSON and commented-out imports', async () => {
    const dir = testdir({
      'src/index.ts': "export { left } from './left.js';\nexport { right } from './right.js';\n",
      'src/left.ts': "import { shared } from './shared.js';\nexport const left = shared;\n",
      'src/right.ts':
        "import { shared } from './shared.js';\nimport data from './data.json' with { type: 'json' };\nexport const right = [shared, data];\n",
      'src/shared.ts': "import { z } from 'zod';\n// import { left } from './left.js';\nexport const shared = z;\n",
      'src/data.json': '{}',
    });
    expect(await cycleReports(dir)).toEqual([]);
  });

  it('is an error for the repository’s package sources under its own ESLint config', async () => {
    // A file whose values tool-protocol's index re-exports, linted as if it imported the index
    // back: the index on disk closes the circle, so nothing in the repository is written.
    const index = join(repositoryRoot, 'packages/tool-protocol/src/index.ts');
    const leaf = /^export \{[^}]*\} from '(\.\/[^']+)\.js'/m.exec(readFileSync(index, 'utf8'))?.[1];
    if (leaf === undefined) throw new Error(`${index} has no relative import to close a circle with`);
    const eslint = new ESLint({ cwd: repositoryRoot });
    const [result] = await eslint.lintText("import './index.js';\nexport const probe = 1;\n", {
      filePath: join(repositoryRoot, 'packages/tool-protocol/src', `${leaf}.ts`),
    });
    const cycle = result?.messages.filter((message) => message.ruleId === 'clawsmith/no-import-cycle');
    expect(cycle?.map((message) => [message.severity, message.line])).toEqual([[2, 1]]);
    expect(cycle?.[0]?.message).toContain(
      `Import circle: packages/tool-protocol/src/${leaf.slice(2)}.ts -> packages/tool-protocol/src/index.ts ->`,
    );
  });
});
