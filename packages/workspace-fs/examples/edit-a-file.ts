import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClawsmithError, type ToolExecutionContext } from '@clawsmith/tool-protocol';
import { createWorkspaceTools } from '@clawsmith/workspace-fs';

const workspaceRoot = mkdtempSync(join(tmpdir(), 'clawsmith-workspace-fs-example-'));
const [read, , , edit, write] = createWorkspaceTools({ workspaceRoot });
const context: ToolExecutionContext = {
  authorized: true, // you decided this call may run: core's permission policy does this for an agent
  workspaceRoot,
  sessionId: 's',
  turnId: 't',
  toolCallId: 'c',
  signal: new AbortController().signal,
};
try {
  await write.execute({ path: 'hello.txt', content: 'hello world\n' }, context);
  await edit.execute({ path: 'hello.txt', oldText: 'world', newText: 'there' }, context);
  const result = await read.execute({ path: 'hello.txt' }, context);
  console.log(result.status, JSON.stringify(result.content)); // success "hello there\n"
  // A refusal is thrown as a ClawsmithError with a stable code; core turns it into a result for the model.
  await edit.execute({ path: '../outside.txt', oldText: 'a', newText: 'b' }, context).catch((error: unknown) => {
    if (!ClawsmithError.isInstance(error)) throw error;
    console.log('refused:', error.code); // refused: path_outside_workspace
  });
} finally {
  rmSync(workspaceRoot, { recursive: true, force: true });
}
