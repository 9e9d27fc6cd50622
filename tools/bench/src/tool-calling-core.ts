// The core the call benchmarks time: a home's database, checkpoints and artifacts, the built-in
// tools, no model (calls come through callTool), edits accepted without asking.
import { createAgentCore, createBuiltinTools, type AgentCore, type ClawsmithHome } from '@clawsmith/core';
import { createScriptedProvider } from '@clawsmith/providers';

/** A core over `home` that runs tool calls directly, as the call benchmarks time them. */
export function toolCallingCore(home: ClawsmithHome): AgentCore {
  return createAgentCore({
    db: home.db,
    provider: createScriptedProvider({ script: { responses: [] } }),
    checkpoints: home.checkpoints,
    artifacts: home.artifacts,
    builtinTools: createBuiltinTools({ command: { sandbox: 'auto' } }),
    permissionMode: 'accept-edits',
  });
}
