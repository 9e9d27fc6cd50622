// A second process for the two-process test: search_files with an index over argv[2], kept in
// argv[3]; reads one JSON search input per stdin line and answers one JSON line with the result.
import { createInterface } from 'node:readline';
import { createWorkspaceTools } from '../../create-workspace-tools.js';

const [root, home] = process.argv.slice(2);
const search = createWorkspaceTools({ workspaceRoot: root!, searchIndex: { folder: home!, settledMs: 0 } })[1];
const context = {
  authorized: true,
  workspaceRoot: root!,
  sessionId: 'child',
  turnId: 'child',
  toolCallId: 'child',
  signal: new AbortController().signal,
};
for await (const line of createInterface({ input: process.stdin })) {
  const result = (await search.execute(search.inputSchema.parse(JSON.parse(line)), context)) as { content: string };
  process.stdout.write(`${JSON.stringify({ content: result.content })}\n`);
}
