import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestdir, type TemporaryTree } from '@clawsmith/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecordedTurnChanges, TYPESCRIPT_PROJECT, lspTool, runTool, testContext } from './__fixtures__/lsp-fixtures.js';
import { createLspService, type LspService } from './lsp-service.js';

// One real typescript-language-server for the whole file: starting tsserver is the slow part,
// and every test below edits its own file, so sharing it weakens nothing.
let project: TemporaryTree;
let service: LspService;
const changes = new RecordedTurnChanges();

beforeAll(() => {
  project = createTestdir(TYPESCRIPT_PROJECT);
  service = createLspService({ changedFiles: changes });
});

afterAll(async () => {
  await service.close();
  project.remove();
});

describe('lsp tools on typescript-language-server', () => {
  it('reports a type error at its line, and none once the file is fixed', { timeout: 120_000 }, async () => {
    const diagnostics = lspTool(service, 'lsp_diagnostics');
    const context = testContext(project.path);
    const broken = await runTool(diagnostics, { path: 'src/main.ts' }, context);
    expect(broken.status).toBe('success');
    expect(broken.content).toBe(
      [
        '1 error in 1 file (checked: src/main.ts).',
        "src/main.ts:4:7 error TS2322: Type 'number' is not assignable to type 'string'.",
      ].join('\n'),
    );

    writeFileSync(join(project.path, 'src/main.ts'), TYPESCRIPT_PROJECT['src/main.ts'].replace(': string', ': number'));
    const fixed = await runTool(diagnostics, { path: 'src/main.ts' }, context);
    expect(fixed.content).toBe('No diagnostics in src/main.ts.');
  });

  it('finds the definition of an imported function in the other file', { timeout: 60_000 }, async () => {
    const result = await runTool(
      lspTool(service, 'lsp_definition'),
      { path: 'src/main.ts', line: 4, column: 23 },
      testContext(project.path),
    );
    expect(result.content).toBe(
      [
        'Definition of src/main.ts:4:23 (add):',
        'src/math.ts:1:17  export function add(a: number, b: number): number {',
      ].join('\n'),
    );
  });

  it('lists references across files, bounded by the limit', { timeout: 60_000 }, async () => {
    const references = lspTool(service, 'lsp_references');
    const all = await runTool(references, { path: 'src/math.ts', line: 1, column: 17 }, testContext(project.path));
    expect(all.content).toBe(
      [
        '4 references to src/math.ts:1:17 (add) in 2 files:',
        'src/main.ts:1:10  import { add } from "./math.js";',
        'src/main.ts:4:23  const total: number = add(1, 2);',
        'src/main.ts:5:20  console.log(total, add(3, 4));',
        'src/math.ts:1:17  export function add(a: number, b: number): number {',
      ].join('\n'),
    );
    const bounded = await runTool(
      references,
      { path: 'src/math.ts', line: 1, column: 17, limit: 1 },
      testContext(project.path),
    );
    expect(bounded.content.split('\n').at(-1)).toBe('… 3 more not shown (limit 1); raise "limit" (at most 200).');
  });

  it('shows the signature on hover and the outline of a file', { timeout: 60_000 }, async () => {
    const hover = await runTool(
      lspTool(service, 'lsp_hover'),
      { path: 'src/main.ts', line: 4, column: 23 },
      testContext(project.path),
    );
    expect(hover.content).toBe(
      [
        'src/main.ts:4:23 (add):',
        '```typescript',
        '(alias) add(a: number, b: number): number',
        'import add',
        '```',
      ].join('\n'),
    );
    const outline = await runTool(lspTool(service, 'lsp_symbols'), { path: 'src/math.ts' }, testContext(project.path));
    expect(outline.content).toBe(['1 symbol in src/math.ts:', 'function add (line 1)'].join('\n'));
    const search = await runTool(
      lspTool(service, 'lsp_symbols'),
      { path: 'src/main.ts', query: 'add' },
      testContext(project.path),
    );
    expect(search.content.split('\n')[1]).toBe('function add  src/math.ts:1');
  });

  it('checks the files changed in this turn when no path is given', { timeout: 60_000 }, async () => {
    writeFileSync(
      join(project.path, 'src/extra.ts'),
      'export const name: number = "x";\nexport const other: number = true;\n',
    );
    writeFileSync(join(project.path, 'notes.md'), '# notes\n');
    changes.record('session-1', 'turn-2', 'src/extra.ts', 'notes.md');
    const result = await runTool(
      lspTool(service, 'lsp_diagnostics'),
      {},
      testContext(project.path, { turnId: 'turn-2' }),
    );
    expect(result.content).toBe(
      [
        '2 errors in 1 file (checked: src/extra.ts).',
        "src/extra.ts:1:14 error TS2322: Type 'string' is not assignable to type 'number'.",
        "src/extra.ts:2:14 error TS2322: Type 'boolean' is not assignable to type 'number'.",
        '1 changed files have no language server (.md) and were not checked.',
      ].join('\n'),
    );
    const none = await runTool(
      lspTool(service, 'lsp_diagnostics'),
      {},
      testContext(project.path, { turnId: 'turn-3' }),
    );
    expect([none.code, none.content]).toEqual([
      'lsp_no_changed_files',
      'No existing file has changed in this turn, so there is nothing to check by default; pass "path" to check a file.',
    ]);
  });

  it('refuses paths outside the workspace and positions past the end', { timeout: 60_000 }, async () => {
    const outside = await runTool(
      lspTool(service, 'lsp_diagnostics'),
      { path: '../../etc/hostname.ts' },
      testContext(project.path),
    );
    expect([outside.status, outside.code]).toEqual(['error', 'path_outside_workspace']);
    const absolute = await runTool(
      lspTool(service, 'lsp_hover'),
      { path: '/etc/passwd', line: 1, column: 1 },
      testContext(project.path),
    );
    expect(absolute.code).toBe('path_outside_workspace');
    const pastEnd = await runTool(
      lspTool(service, 'lsp_definition'),
      { path: 'src/math.ts', line: 40, column: 1 },
      testContext(project.path),
    );
    expect([pastEnd.code, pastEnd.content]).toEqual([
      'lsp_invalid_position',
      'src/math.ts has 4 lines; line 40 does not exist. Give a line between 1 and 4.',
    ]);
    const noServer = await runTool(
      lspTool(service, 'lsp_diagnostics'),
      { path: 'tsconfig.json' },
      testContext(project.path),
    );
    expect(noServer.code).toBe('lsp_no_server');
  });
});
