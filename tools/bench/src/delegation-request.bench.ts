// Request size of a fresh session with delegation on, composed as `clawsmith run` composes it
// (base tools, session tools, read_artifact, background command tools, delegation): the JSON of
// the first request's tools as the OpenAI adapter sends them, with and without the two tools of
// the worktree flow (delegate_worktree, apply_patch), and without delegation, from one request.
import { firstRequestTools, requestToolBytes } from './first-request-tools.js';

const WORKTREE_FLOW = new Set(['delegate_worktree', 'apply_patch']);
const DELEGATION = new Set([...WORKTREE_FLOW, 'delegate_task']);

const bytes = requestToolBytes;
const all = await firstRequestTools({ delegation: {} });
const rows = [
  { name: 'delegation off', tools: all.filter((tool) => !DELEGATION.has(tool.name)) },
  {
    name: 'delegation on, before delegate_worktree and apply_patch',
    tools: all.filter((tool) => !WORKTREE_FLOW.has(tool.name)),
  },
  { name: 'delegation on (now)', tools: all },
];
const reference = bytes(rows[1]!.tools);
console.log('\n## first request of a fresh session (tool schemas as sent to an OpenAI-compatible server)');
console.log('| composition | tools | bytes | ratio to delegation on, before |');
console.log('|---|---:|---:|---:|');
for (const row of rows)
  console.log(
    `| ${row.name} | ${row.tools.length} | ${bytes(row.tools)} | ${(bytes(row.tools) / reference).toFixed(2)}x |`,
  );
for (const name of WORKTREE_FLOW) {
  const tool = all.find((candidate) => candidate.name === name);
  console.log(`${name}: ${tool ? bytes([tool]) : 0} bytes`);
}
console.log(`tools sent: ${all.map((tool) => tool.name).join(', ')}`);
