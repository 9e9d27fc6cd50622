import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestdir, type TemporaryTree } from '@clawsmith/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lspTool, runTool, testContext } from './__fixtures__/lsp-fixtures.js';
import { createLspService, type LspService } from './lsp-service.js';

const FILES = 5_000;
const BAD_LINES = 300;

// One server for the file: loading 5,000 files is the slow part, and both tests only read.
let project: TemporaryTree;
let service: LspService;

beforeAll(() => {
  project = createTestdir({
    'tsconfig.json': JSON.stringify({
      compilerOptions: { strict: true, module: 'nodenext', target: 'es2022', lib: ['es2022'], noEmit: true, types: [] },
      include: ['src'],
    }),
    'src/lib.ts': 'export function shared(value: number): number {\n  return value * 2;\n}\n',
    'src/bad.ts': Array.from(
      { length: BAD_LINES },
      (_, index) => `export const wrong${index}: number = ${index % 3 === 0 ? 'undefinedName' : '"text"'};`,
    ).join('\n'),
  });
  mkdirSync(join(project.path, 'src/generated'));
  for (let index = 0; index < FILES; index += 1) {
    const name = `f${String(index).padStart(4, '0')}`;
    writeFileSync(
      join(project.path, 'src/generated', `${name}.ts`),
      `import { shared } from '../lib.js';\nexport const ${name}: number = shared(${index});\n`,
    );
  }
  // A slow machine may need minutes to load 5,000 files once; the answers, not the time, are tested here.
  service = createLspService({ limits: { requestTimeoutMs: 300_000 } });
});

afterAll(async () => {
  await service.close();
  project.remove();
});

describe('a 5,000-file TypeScript project', () => {
  it('lists 100 diagnostics, errors first, and counts the rest', { timeout: 360_000 }, async () => {
    const result = await runTool(
      lspTool(service, 'lsp_diagnostics'),
      { path: 'src/bad.ts' },
      testContext(project.path),
    );
    const lines = result.content.split('\n');
    expect(lines[0]).toBe('300 errors in 1 file (checked: src/bad.ts).');
    expect(lines).toHaveLength(1 + 100 + 1);
    expect(lines[1]).toBe("src/bad.ts:1:31 error TS2552: Cannot find name 'undefinedName'. Did you mean 'undefined'?");
    expect(lines.at(-1)).toBe(
      '… 200 more not shown (200 errors); the first 100 are listed, errors first. Fix these or ask about one file.',
    );
  });

  it('bounds references to 5,001 places and workspace symbols to 200', { timeout: 360_000 }, async () => {
    const references = await runTool(
      lspTool(service, 'lsp_references'),
      { path: 'src/lib.ts', line: 1, column: 17 },
      testContext(project.path),
    );
    const lines = references.content.split('\n');
    expect(lines[0]).toBe('10001 references to src/lib.ts:1:17 (shared) in 5001 files:');
    expect(lines).toHaveLength(1 + 50 + 1);
    expect(lines.at(-1)).toBe('… 9951 more not shown (limit 50); raise "limit" (at most 200).');

    const symbols = await runTool(
      lspTool(service, 'lsp_symbols'),
      { path: 'src/lib.ts', query: 'f0' },
      testContext(project.path),
    );
    const symbolLines = symbols.content.split('\n');
    expect(symbolLines).toHaveLength(1 + 200 + 1);
    expect(symbolLines.at(-1)).toMatch(/^… \d+ more not shown \(limit 200\); narrow the query\.$/);
  });
});
