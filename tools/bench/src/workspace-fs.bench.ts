// Benchmarks search_files and glob_files of @clawsmith/workspace-fs on the real corpus, beside a
// raw floor (the same bytes read synchronously and scanned) and ripgrep with the same skip rules.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolExecutionContext, ToolExecutionResult } from '@clawsmith/tool-protocol';
import { createWorkspaceTools, DEFAULT_WORKSPACE_LIMITS } from '@clawsmith/workspace-fs';
import { corpusDir } from './corpus.js';
import { measure, report } from './measure.js';

const corpus = corpusDir();
const skipped = ['node_modules', '.git', 'dist', 'coverage'];
const rgSkips = ['--no-ignore', '--hidden', '--no-config', ...skipped.flatMap((name) => ['-g', `!${name}`])];
const context: ToolExecutionContext = {
  authorized: false,
  workspaceRoot: corpus,
  sessionId: 'bench',
  turnId: 'bench',
  toolCallId: 'bench',
  signal: new AbortController().signal,
};
const [, searchFiles, globFiles] = createWorkspaceTools({ workspaceRoot: corpus });
const wholeGlob = createWorkspaceTools({
  workspaceRoot: corpus,
  limits: { globResults: 1_000_000, globEntries: 1_000_000 },
})[2]!;

async function run(tool: typeof searchFiles, input: unknown): Promise<ToolExecutionResult> {
  return (await tool!.execute(tool!.inputSchema.parse(input), context)) as ToolExecutionResult;
}

/** The files the budget-exhausting search covers, and how many bytes of each, listed once up front. */
function budgetedFiles(): { path: string; bytes: number }[] {
  const files: { path: string; bytes: number }[] = [];
  let remaining = DEFAULT_WORKSPACE_LIMITS.searchBytes;
  const walk = (folder: string): boolean => {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    )) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!skipped.includes(entry.name) && !walk(path)) return false;
      } else if (entry.isFile()) {
        if (remaining <= 0) return false;
        const bytes = Math.min(statSync(path).size, DEFAULT_WORKSPACE_LIMITS.searchFileBytes, remaining);
        files.push({ path, bytes });
        remaining -= bytes;
      }
    }
    return true;
  };
  walk(corpus);
  return files;
}

const files = budgetedFiles();
const needle = Buffer.from('zq_never_present_qz');
const buffer = Buffer.allocUnsafe(DEFAULT_WORKSPACE_LIMITS.searchFileBytes);
const rawFloor = await measure(
  `raw floor: read+scan ${files.length} files`,
  () => {
    let found = 0;
    for (const file of files) {
      const descriptor = openSync(file.path, 'r');
      const count = readSync(descriptor, buffer, 0, file.bytes, 0);
      closeSync(descriptor);
      if (buffer.subarray(0, count).indexOf(needle) >= 0) found += 1;
    }
    return found;
  },
  40,
  5,
);
const exhausting = await measure(
  'search_files, 2 MiB budget runs out',
  async () => {
    const result = await run(searchFiles, { query: 'zq_never_present_qz' });
    if (!result.content.includes('read budget ran out')) throw new Error(`unexpected: ${result.content}`);
  },
  40,
  5,
);
const exhaustingRegex = await measure(
  'search_files regex, 2 MiB budget runs out',
  () => run(searchFiles, { query: 'zq_never_\\w+_qz', regex: true }),
  40,
  5,
);
const rgWhole = await measure(
  'rg -F over the whole corpus (no budget)',
  () => spawnSync('rg', [...rgSkips, '-F', '-c', 'zq_never_present_qz', corpus]),
  10,
  2,
);
report('search that exhausts its budget', rawFloor, [exhausting, exhaustingRegex, rgWhole]);

function rgFirstLines(args: string[], wanted: number): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn('rg', args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let lines = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      for (const byte of chunk) if (byte === 10) lines += 1;
      if (lines >= wanted) child.kill();
    });
    child.on('close', () => resolve(lines));
  });
}

const spawnOnly = await measure('spawn rg --version', () => spawnSync('rg', ['--version']));
const early = await measure('search_files "function", 50 hits early', async () => {
  const result = await run(searchFiles, { query: 'function' });
  if (!result.content.startsWith('50 results')) throw new Error(`unexpected: ${result.content.slice(0, 200)}`);
});
const earlyRg = await measure('rg -F "function" until 50 lines', () =>
  rgFirstLines([...rgSkips, '-F', '-n', '--sort', 'path', 'function', corpus], 50),
);
const earlyRgUnsorted = await measure('rg -F "function" until 50 lines (unsorted, parallel)', () =>
  rgFirstLines([...rgSkips, '-F', '-n', 'function', corpus], 50),
);
report('search that finds 50 hits early', spawnOnly, [early, earlyRg, earlyRgUnsorted]);

const rawWalk = await measure(
  'raw floor: readdirSync walk',
  () => {
    let count = 0;
    const walk = (folder: string): void => {
      for (const entry of readdirSync(folder, { withFileTypes: true })) {
        if (entry.isDirectory()) {
          if (!skipped.includes(entry.name)) walk(join(folder, entry.name));
        } else if (entry.isFile()) count += 1;
      }
    };
    walk(corpus);
    return count;
  },
  10,
  2,
);
let globCount = 0;
const glob = await measure('glob_files "**/*" over the whole corpus', async () => {
  const result = await run(wholeGlob, { pattern: '**/*' });
  globCount = result.content.split('\n').length;
});
const globJs = await measure(
  'glob_files "**/*.js" over the whole corpus',
  () => run(wholeGlob, { pattern: '**/*.js' }),
  10,
  2,
);
const globDefault = await measure(
  'glob_files "**/*.js", default 1,000-path cap',
  () => run(globFiles, { pattern: '**/*.js' }),
  10,
  2,
);
let rgCount = 0;
const rgFiles = await measure(
  'rg --files (same skips)',
  () => {
    rgCount = spawnSync('rg', ['--files', ...rgSkips, corpus], { maxBuffer: 256 * 1024 * 1024 })
      .stdout.toString()
      .split('\n').length;
  },
  10,
  2,
);
const rgFilesSorted = await measure(
  'rg --files --sort path (same skips)',
  () => spawnSync('rg', ['--files', '--sort', 'path', ...rgSkips, corpus], { maxBuffer: 256 * 1024 * 1024 }),
  10,
  2,
);
report(`glob over the whole corpus (glob_files lines: ${globCount}, rg --files lines: ${rgCount})`, rawWalk, [
  glob,
  globJs,
  globDefault,
  rgFiles,
  rgFilesSorted,
]);
