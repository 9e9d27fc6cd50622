import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import {
  assertAuthorized,
  defineTool,
  normalizeToolResult,
  resolveToolSecurity,
  toModelToolSchema,
  toolSuccess,
} from '@clawsmith/tool-protocol';

const touchFile = defineTool({
  name: 'touch_file',
  description: 'Creates an empty file in the workspace.',
  risk: 'read', // raised to 'workspace-write' by the capability below
  capabilities: ['filesystem.write'],
  concurrencySafe: false,
  inputSchema: z.object({ path: z.string().regex(/^[\w.-]+$/) }),
  summarize: (input) => `touch ${input.path}`,
  async execute(input, context) {
    assertAuthorized(context, 'touch_file'); // throws a ClawsmithError coded `unauthorized`
    writeFileSync(join(context.workspaceRoot, input.path), '');
    return toolSuccess(`Created ${input.path}`); // execute's type: Promise<ToolExecutionResult>
  },
});

const workspaceRoot = mkdtempSync(join(tmpdir(), 'clawsmith-tool-protocol-example-'));
try {
  const context = {
    authorized: true, // a host (core) decides this after its permission checks
    workspaceRoot,
    sessionId: 's1',
    turnId: 't1',
    toolCallId: 'c1',
    signal: new AbortController().signal,
  };
  const input = touchFile.inputSchema.parse({ path: 'notes.txt' }); // a direct caller validates
  console.log(resolveToolSecurity(touchFile).risk); // workspace-write
  console.log(toModelToolSchema(touchFile).inputSchema); // { type: 'object', properties: { path: ... }, ... }
  console.log((await touchFile.execute(input, context)).content); // Created notes.txt
  console.log(normalizeToolResult({ anything: 'at all' }).status); // success (serialised and bounded)
} finally {
  rmSync(workspaceRoot, { recursive: true, force: true });
}
