// Benchmarks the file wall: write_file, edit_file and delete_file applied in this process (no
// kernel wall) against the same calls through the bubblewrap helper. The two are interleaved
// call by call, so a change in the machine's load weighs on both alike.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createWorkspaceWall } from '@clawsmith/command-sandbox';
import { createDirectWorkspaceWall, type ToolExecutionContext, type WorkspaceWall } from '@clawsmith/tool-protocol';
import { createWorkspaceTools } from '@clawsmith/workspace-fs';
import { medianOf, report, timingOf } from './measure.js';

const RUNS = 300;
const WARMUP = 20;

type Call = (index: number) => Promise<unknown>;

/** The three file tools of one workspace, applied through `wall`. */
function fileCalls(
  wall: WorkspaceWall,
  workspace: string,
  folder: string,
): Record<'write_file' | 'edit_file' | 'delete_file', Call> {
  const tools = new Map(createWorkspaceTools({ wall }).map((tool) => [tool.name, tool]));
  const context: ToolExecutionContext = {
    authorized: true,
    workspaceRoot: workspace,
    sessionId: 's',
    turnId: 't',
    toolCallId: 'c',
    signal: new AbortController().signal,
  };
  const run = (name: string, input: Record<string, unknown>) => tools.get(name)!.execute(input as never, context);
  return {
    write_file: (index) =>
      run('write_file', { path: `${folder}w${index}.txt`, content: 'hello\n' + 'line\n'.repeat(50) }),
    edit_file: (index) => run('edit_file', { path: `${folder}w${index}.txt`, oldText: 'hello', newText: 'bye' }),
    delete_file: (index) => run('delete_file', { path: `${folder}w${index}.txt` }),
  };
}

async function timed(call: Call, index: number): Promise<number> {
  const start = performance.now();
  await call(index);
  return performance.now() - start;
}

const workspaces = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'clawsmith-bench-wall-')));
for (const workspace of workspaces) mkdirSync(join(workspace, 'src'));
const bubblewrap = createWorkspaceWall({ mode: 'bubblewrap' });
try {
  // Files in the workspace root change the root folder, so the wall looks for new root-level
  // protected paths before each of those calls; files below it (the usual case) do not.
  for (const [where, folder] of [
    ['in the root', ''],
    ['in a subfolder', 'src/'],
  ] as const) {
    const direct = fileCalls(createDirectWorkspaceWall(), workspaces[0]!, folder);
    const walled = fileCalls(bubblewrap, workspaces[1]!, folder);
    for (const name of ['write_file', 'edit_file', 'delete_file'] as const) {
      const inProcess: number[] = [];
      const throughWall: number[] = [];
      for (let index = 0; index < WARMUP + RUNS; index += 1) {
        const pair = [await timed(direct[name], index), await timed(walled[name], index)];
        if (index < WARMUP) continue;
        inProcess.push(pair[0]!);
        throughWall.push(pair[1]!);
      }
      const added = medianOf(throughWall.map((sample, index) => sample - inProcess[index]!));
      report(
        `${name} ${where}: per-call cost of the kernel wall (median added ${added.toFixed(3)} ms)`,
        timingOf(`${name}, in process`, inProcess),
        [timingOf(`${name}, through the wall`, throughWall)],
      );
    }
  }
  console.log(
    `\nload average ${loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')}`,
  );
} finally {
  await bubblewrap.close();
  for (const workspace of workspaces) rmSync(workspace, { recursive: true, force: true });
}
