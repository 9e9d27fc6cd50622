// Builds a real AgentCore for tests: a temporary workspace and home, the real services, the
// scripted provider. Nothing is mocked.
import { createScriptedProvider, type ScriptedResponse } from '@clawsmith/providers';
import { createTestdir, type TestTree } from '@clawsmith/test-utils';
import { defineTool, type AnyToolDefinition } from '@clawsmith/tool-protocol';
import { onTestFinished } from 'vitest';
import { z } from 'zod';
import { createAgentCore, type AgentCore } from '../agent-core.js';
import type { AgentCoreOptions } from '../agent-core-options.js';
import { createBuiltinTools } from '../builtin-tools.js';
import { openClawsmithHome, type ClawsmithHome } from '../clawsmith-home.js';
import type { SessionEventOf, SessionEventType } from '@clawsmith/session-protocol';
import type { SessionEvent, SessionRecord } from '../store/session-records.js';

export interface Harness {
  readonly core: AgentCore;
  readonly home: ClawsmithHome;
  readonly session: SessionRecord;
  readonly workspace: string;
  events(): Promise<SessionEvent[]>;
  eventsOf<Type extends SessionEventType>(type: Type): Promise<SessionEventOf<Type>[]>;
}

export interface HarnessOptions extends Partial<Omit<AgentCoreOptions, 'db' | 'provider' | 'checkpoints'>> {
  readonly responses: readonly ScriptedResponse[];
  /** Scripts of subagents by delegating call id; turns delegation on (children default to their own script). */
  readonly children?: Readonly<Record<string, readonly ScriptedResponse[]>>;
  readonly files?: TestTree;
  readonly withArtifacts?: boolean;
  /** Another harness's home: this core shares its database (as a second process would). */
  readonly sharedHome?: ClawsmithHome;
}

export async function createHarness(options: HarnessOptions): Promise<Harness> {
  const workspaceDir = createTestdir(options.files ?? {});
  const homeDir = options.sharedHome ? undefined : createTestdir({}, 'clawsmith-home-');
  const home = options.sharedHome ?? (await openClawsmithHome(homeDir!.path));
  const { responses, children, files: _files, withArtifacts, sharedHome, ...rest } = options;
  const provider = createScriptedProvider({
    script: {
      responses: [...responses],
      ...(children
        ? {
            children: Object.fromEntries(
              Object.entries(children).map(([id, childResponses]) => [id, { responses: [...childResponses] }]),
            ),
          }
        : {}),
    },
  });
  const core = createAgentCore({
    db: home.db,
    provider,

    checkpoints: home.checkpoints,
    ...(withArtifacts === false ? {} : { artifacts: home.artifacts }),
    builtinTools: rest.builtinTools ?? createBuiltinTools({ command: { sandbox: 'auto' } }),
    ...rest,
    ...(children
      ? {
          delegation: {
            providerFor: (child: { parentToolCallId: string }) => provider.childProvider(child.parentToolCallId),
            ...rest.delegation,
          },
        }
      : {}),
  });
  onTestFinished(async () => {
    await core.close();
    if (!sharedHome) await home.close();
    workspaceDir.remove();
    homeDir?.remove();
  });
  const session = await core.createSession({ workspaceRoot: workspaceDir.path });
  return {
    core,
    home,
    session,
    workspace: workspaceDir.path,
    events: () => core.listEvents(session.id),
    eventsOf: async <Type extends SessionEventType>(type: Type) =>
      (await core.listEvents(session.id)).filter((event): event is SessionEventOf<Type> => event.type === type),
  };
}

/** A read-only, concurrency-safe tool that waits `ms` and reports how many of its calls overlapped. */
export function createProbeTool(
  name = 'probe',
  options: { concurrencySafe?: boolean; risk?: 'read' | 'workspace-write' } = {},
) {
  const state = { running: 0, maxRunning: 0, calls: [] as string[] };
  const tool = defineTool({
    name,
    description: 'Waits and reports.',
    risk: options.risk ?? 'read',
    capabilities: options.risk === 'workspace-write' ? ['filesystem.write'] : ['filesystem.read'],
    concurrencySafe: options.concurrencySafe ?? true,
    inputSchema: z.object({ label: z.string(), ms: z.number().int().min(0).max(5_000).default(20) }),
    summarize: (input) => `${name} ${input.label}`,
    async execute(input) {
      state.running += 1;
      state.maxRunning = Math.max(state.maxRunning, state.running);
      state.calls.push(input.label);
      await new Promise((resolve) => setTimeout(resolve, input.ms));
      state.running -= 1;
      return `${name} ${input.label} done`;
    },
  });
  return { tool: tool as AnyToolDefinition, state };
}

/** Scripted tool call with object arguments. */
export function call(id: string, name: string, args: Record<string, unknown> | string) {
  return { id, name, arguments: args };
}
