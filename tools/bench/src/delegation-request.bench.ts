// Request size of a fresh session with delegation on, composed as `clawsmith run` composes it
// (base tools, session tools, read_artifact, background command tools, delegation): the JSON of
// the first request's tools as the OpenAI adapter sends them, with and without the two tools of
// the worktree flow (delegate_worktree, apply_patch), and without delegation, from one request.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCommandExecutionService } from '@clawsmith/command-sandbox';
import { createAgentCore, createBuiltinTools, openClawsmithHome } from '@clawsmith/core';
import { createScriptedProvider, toOpenAITools } from '@clawsmith/providers';
import type { ModelToolSchema } from '@clawsmith/tool-protocol';

const WORKTREE_FLOW = new Set(['delegate_worktree', 'apply_patch']);
const DELEGATION = new Set([...WORKTREE_FLOW, 'delegate_task']);

async function firstRequestTools(): Promise<ModelToolSchema[]> {
  const home = mkdtempSync(join(tmpdir(), 'clawsmith-bench-home-'));
  const workspace = mkdtempSync(join(tmpdir(), 'clawsmith-bench-ws-'));
  const opened = await openClawsmithHome(home);
  const commands = createCommandExecutionService({ sandbox: 'auto' });
  const scripted = createScriptedProvider({ script: { responses: [{ text: 'done' }] } });
  let tools: ModelToolSchema[] = [];
  const provider = {
    name: 'recording',
    model: 'recording',
    stream: (request: Parameters<typeof scripted.stream>[0]) => {
      tools = [...request.tools];
      return scripted.stream(request);
    },
  };
  const core = createAgentCore({
    db: opened.db,
    provider,
    checkpoints: opened.checkpoints,
    artifacts: opened.artifacts,
    commands,
    builtinTools: createBuiltinTools({ command: { sandbox: 'auto' } }),
    delegation: {},
  });
  const session = await core.createSession({ workspaceRoot: workspace });
  await core.runTurn({ sessionId: session.id, prompt: 'go' });
  await core.close();
  await commands.close();
  await opened.close();
  rmSync(home, { recursive: true, force: true });
  rmSync(workspace, { recursive: true, force: true });
  return tools;
}

const bytes = (tools: readonly ModelToolSchema[]) => Buffer.byteLength(JSON.stringify(toOpenAITools(tools)));
const all = await firstRequestTools();
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
