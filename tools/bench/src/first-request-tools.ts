// The tools of a fresh session's first model request, composed as `clawsmith run` composes them
// (base tools, session tools, read_artifact, background command tools, plus what `extra` adds),
// and their size as the OpenAI adapter sends them. Shared by the request-size benchmarks.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCommandExecutionService } from '@clawsmith/command-sandbox';
import { createAgentCore, createBuiltinTools, openClawsmithHome, type AgentCoreOptions } from '@clawsmith/core';
import { createScriptedProvider, toOpenAITools } from '@clawsmith/providers';
import type { ModelToolSchema } from '@clawsmith/tool-protocol';

/** The options a request-size benchmark varies. */
export type CompositionOptions = Pick<AgentCoreOptions, 'alwaysLoadedTools' | 'delegation'>;

/** Runs one scripted turn in a temporary home and workspace and returns the tools its first request carried. */
export async function firstRequestTools(extra: CompositionOptions = {}): Promise<ModelToolSchema[]> {
  const home = mkdtempSync(join(tmpdir(), 'clawsmith-bench-home-'));
  const workspace = mkdtempSync(join(tmpdir(), 'clawsmith-bench-ws-'));
  const opened = await openClawsmithHome(home);
  const commands = createCommandExecutionService({ sandbox: 'auto' });
  const scripted = createScriptedProvider({ script: { responses: [{ text: 'done' }] } });
  let tools: ModelToolSchema[] = [];
  const core = createAgentCore({
    db: opened.db,
    provider: {
      name: 'recording',
      model: 'recording',
      stream: (request) => {
        tools = [...request.tools];
        return scripted.stream(request);
      },
    },
    checkpoints: opened.checkpoints,
    artifacts: opened.artifacts,
    commands,
    builtinTools: createBuiltinTools({ command: { sandbox: 'auto' } }),
    ...extra,
  });
  try {
    const session = await core.createSession({ workspaceRoot: workspace });
    await core.runTurn({ sessionId: session.id, prompt: 'go' });
  } finally {
    await core.close();
    await commands.close();
    await opened.close();
    rmSync(home, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  }
  return tools;
}

/** Bytes of `tools` as the OpenAI adapter sends them. */
export function requestToolBytes(tools: readonly ModelToolSchema[]): number {
  return Buffer.byteLength(JSON.stringify(toOpenAITools(tools)));
}
