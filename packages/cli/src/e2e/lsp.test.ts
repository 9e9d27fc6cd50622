import { existsSync, readdirSync, readlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { parseJsonLines, runCli, writeScript } from './cli-harness.js';

// Its `lib` leaves out the DOM (its target's default), about a quarter of each server start's
// processor time; `src/console.d.ts` declares the one global it uses.
const PROJECT = {
  'tsconfig.json': JSON.stringify({
    compilerOptions: { strict: true, module: 'nodenext', target: 'es2022', lib: ['es2022'], noEmit: true, types: [] },
    include: ['src'],
  }),
  'src/console.d.ts': 'declare const console: { log(...values: unknown[]): void };\n',
  'src/math.ts': 'export function add(a: number, b: number): number {\n  return a + b;\n}\n',
  'src/main.ts': 'import { add } from "./math.js";\n\nconst total: string = add(1, 2);\nconsole.log(total);\n',
};

/** Processes whose current folder is `folder` (language servers run with the workspace as theirs). */
function processesIn(folder: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readlinkSync(`/proc/${entry}/cwd`) === folder) pids.push(Number(entry));
    } catch {
      // Gone, or not ours to read.
    }
  }
  return pids;
}

function toolOutputs(stdout: string): [unknown, unknown, unknown][] {
  return parseJsonLines(stdout)
    .filter((event) => event.type === 'tool.completed')
    .map((event) => [event.toolName, event.status, event.output]);
}

describe('clawsmith with language servers', () => {
  it(
    'reports a type error, and none after edit_file fixes it; the server ends with the run',
    { timeout: 240_000 },
    async () => {
      const home = testdir();
      const workspace = testdir(PROJECT);
      const first = writeScript(
        home,
        [
          { toolCalls: [{ name: 'search_tools', arguments: { query: 'select:lsp_diagnostics,lsp_definition' } }] },
          {
            toolCalls: [
              { name: 'lsp_diagnostics', arguments: { path: 'src/main.ts' } },
              { name: 'lsp_definition', arguments: { path: 'src/main.ts', line: 3, column: 23 } },
            ],
          },
          { text: 'found it' },
        ],
        'first.json',
      );
      const one = await runCli(['run', '--json', '--script', first, '--workspace', workspace, 'check'], { home });
      expect(one.code, one.stderr).toBe(0);
      expect(toolOutputs(one.stdout).slice(1)).toEqual([
        [
          'lsp_diagnostics',
          'success',
          "1 error in 1 file (checked: src/main.ts).\nsrc/main.ts:3:7 error TS2322: Type 'number' is not assignable to type 'string'.",
        ],
        [
          'lsp_definition',
          'success',
          'Definition of src/main.ts:3:23 (add):\nsrc/math.ts:1:17  export function add(a: number, b: number): number {',
        ],
      ]);
      const sessionId = String(parseJsonLines(one.stdout)[0]!.sessionId);
      expect(processesIn(workspace)).toEqual([]);

      const second = writeScript(
        home,
        [
          {
            toolCalls: [
              { name: 'edit_file', arguments: { path: 'src/main.ts', oldText: ': string', newText: ': number' } },
            ],
          },
          { toolCalls: [{ name: 'lsp_diagnostics', arguments: {} }] },
          { text: 'fixed' },
        ],
        'second.json',
      );
      const two = await runCli(
        ['run', '--json', '--permission-mode', 'accept-edits', '--script', second, '--session', sessionId, 'fix'],
        { home },
      );
      expect(two.code, two.stderr).toBe(0);
      // Without a path: the files this turn changed, as its checkpoint lists them.
      expect(toolOutputs(two.stdout)[1]).toEqual(['lsp_diagnostics', 'success', 'No diagnostics in src/main.ts.']);
      expect(processesIn(workspace)).toEqual([]);
    },
  );

  it(
    "runs none of a repository's own TypeScript until `clawsmith lsp trust`, and the result says why",
    { timeout: 240_000 },
    async () => {
      const home = testdir();
      const markers = testdir();
      const marker = join(markers, 'ran');
      const realTsserver = createRequire(import.meta.url).resolve('typescript/lib/tsserver.js');
      const workspace = testdir({
        ...PROJECT,
        'node_modules/typescript/package.json': JSON.stringify({ name: 'typescript', version: '5.9.3' }),
        'node_modules/typescript/lib/tsserver.js': `require('node:fs').appendFileSync(${JSON.stringify(marker)}, 'ran\\n');\nrequire(${JSON.stringify(realTsserver)});\n`,
        '.clawsmith/lsp.json': JSON.stringify({
          servers: { typescript: { initializationOptions: { preferences: { quotePreference: 'single' } } } },
        }),
      });
      const script = writeScript(home, [
        { toolCalls: [{ name: 'search_tools', arguments: { query: 'select:lsp_diagnostics' } }] },
        { toolCalls: [{ name: 'lsp_diagnostics', arguments: { path: 'src/main.ts' } }] },
        { text: 'checked' },
      ]);
      const untrusted = await runCli(['run', '--json', '--script', script, '--workspace', workspace, 'check'], {
        home,
      });
      expect(untrusted.code, untrusted.stderr).toBe(0);
      const [, [, status, output]] = toolOutputs(untrusted.stdout) as [unknown, [unknown, unknown, string]];
      expect(status).toBe('success');
      expect(output).toContain("src/main.ts:3:7 error TS2322: Type 'number' is not assignable to type 'string'.");
      expect(output).toContain('.clawsmith/lsp.json were ignored');
      expect(output).toContain('`clawsmith lsp trust`');
      expect(existsSync(marker)).toBe(false);

      const trust = await runCli(['lsp', 'trust', '--workspace', workspace], { home });
      expect(trust.code, trust.stderr).toBe(0);
      const trusted = await runCli(['run', '--json', '--script', script, '--workspace', workspace, 'check'], { home });
      expect(trusted.code, trusted.stderr).toBe(0);
      expect(toolOutputs(trusted.stdout)[1]).toEqual([
        'lsp_diagnostics',
        'success',
        "1 error in 1 file (checked: src/main.ts).\nsrc/main.ts:3:7 error TS2322: Type 'number' is not assignable to type 'string'.",
      ]);
      expect(existsSync(marker)).toBe(true);
    },
  );
});
