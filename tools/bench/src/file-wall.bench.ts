// Benchmarks the file wall: write_file, edit_file and delete_file applied in this process (no
// kernel wall) against the same calls through the bubblewrap helper, measured in the same run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWorkspaceWall } from '@clawsmith/command-sandbox';
import { createDirectWorkspaceWall, type ToolExecutionContext, type WorkspaceWall } from '@clawsmith/tool-protocol';
import { createWorkspaceTools } from '@clawsmith/workspace-fs';
import { measure, report, type Timing } from './measure.js';

const RUNS = 200;

async function timeTools(label: string, wall: WorkspaceWall): Promise<Timing[]> {
  const workspace = mkdtempSync(join(tmpdir(), 'clawsmith-bench-wall-'));
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
  let written = 0;
  let edited = 0;
  let deleted = 0;
  try {
    const write = await measure(
      `write_file, ${label}`,
      () => run('write_file', { path: `w${(written += 1)}.txt`, content: 'hello\n' + 'line\n'.repeat(50) }),
      RUNS,
    );
    const edit = await measure(
      `edit_file, ${label}`,
      () => {
        edited += 1;
        return run('edit_file', { path: `w${edited}.txt`, oldText: 'hello', newText: 'bye' });
      },
      RUNS,
    );
    const remove = await measure(
      `delete_file, ${label}`,
      () => run('delete_file', { path: `w${(deleted += 1)}.txt` }),
      RUNS,
    );
    return [write, edit, remove];
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}

const direct = await timeTools('in process', createDirectWorkspaceWall());
const bubblewrap = createWorkspaceWall({ mode: 'bubblewrap' });
try {
  const walled = await timeTools('through the wall', bubblewrap);
  for (const [index, name] of ['write_file', 'edit_file', 'delete_file'].entries())
    report(`${name}: per-call cost of the kernel wall`, direct[index]!, [walled[index]!]);
} finally {
  await bubblewrap.close();
}
