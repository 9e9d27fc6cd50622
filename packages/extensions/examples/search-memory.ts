import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClawsmithError, type ToolExecutionContext } from '@clawsmith/tool-protocol';
import { createMemorySearch } from '@clawsmith/extensions';

const scratch = mkdtempSync(join(tmpdir(), 'clawsmith-memory-example-'));
const homeDir = join(scratch, 'home'); // notes: <home>/memory/**/*.md; the index: <home>/memory-index/
const workspaceRoot = join(scratch, 'project'); // and this workspace's AGENTS.md / CLAWSMITH.md
mkdirSync(join(homeDir, 'memory/ops'), { recursive: true });
mkdirSync(workspaceRoot);
writeFileSync(
  join(homeDir, 'memory/ops/deploy.md'),
  '# Deploying\n\nDeploys run on Tuesdays.\nRoll back with make rollback.\n',
);
writeFileSync(join(workspaceRoot, 'AGENTS.md'), '# Conventions\n\nTests run with npm test.\n');

const memory = createMemorySearch({ homeDir }); // SQLite is opened at the first search
const context: ToolExecutionContext = {
  authorized: true, // a read-only tool: it does not check this; core sets it after its permission policy
  workspaceRoot,
  sessionId: 's',
  turnId: 't',
  toolCallId: 'c',
  signal: new AbortController().signal,
};
try {
  // execute trusts its input: parse it with the tool's schema first, as core does.
  console.log(
    await memory.tool.execute(memory.tool.inputSchema.parse({ query: 'how do we roll back a deploy' }), context),
  );
  // 1 match, best first:
  //
  // memory/ops/deploy.md:4
  //   ...
  await memory.tool.execute({ query: '*** ?' }, context).catch((error: unknown) => {
    if (!ClawsmithError.isInstance(error)) throw error;
    console.log('refused:', error.code); // refused: memory_query_empty
  });
} finally {
  memory.close(); // closes the index database
  rmSync(scratch, { recursive: true, force: true });
}
