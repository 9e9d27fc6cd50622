import type { ArtifactStore } from '@clawsmith/artifacts';
import {
  toolResultFromError,
  type AnyToolDefinition,
  type FileChangeRecorder,
  type ResolvedToolSecurity,
  type ToolExecutionResult,
  type ToolProgress,
  type TraceContext,
} from '@clawsmith/tool-protocol';
import { hookInput, runResultHooks, type ToolResultHook } from '../permissions/hooks.js';
import { excludedPaths, type PermissionMode, type PermissionRule } from '../permissions/permission-policy.js';
import { resolveCallFacts, type CallFacts } from '../permissions/call-facts.js';
import type { RequestPath } from '../permissions/request-paths.js';
import { keepInlineBounded } from './large-output.js';
import { runAuthorized } from './run-authorized.js';

/** An allowed call and everything its run needs. */
export interface JudgedCallRun {
  readonly tool: AnyToolDefinition;
  readonly security: ResolvedToolSecurity;
  /** The input as judged (a hook may have updated it), its summary and resolved paths. */
  readonly input: unknown;
  readonly summary: string;
  readonly paths?: readonly RequestPath[];
  /** Everything the call touches, as judged (`CallJudgment.facts`); resolved here only when absent. */
  readonly facts?: CallFacts;
  /** What hooks added before the call, appended to the result for the model. */
  readonly contexts: readonly string[];
  readonly sessionId: string;
  readonly turnId: string;
  readonly toolCallId: string;
  readonly workspaceRoot: string;
  readonly signal: AbortSignal;
  readonly mode: PermissionMode;
  readonly rules: readonly PermissionRule[];
  readonly resultHooks?: readonly ToolResultHook[];
  /** The restore point's recorder: every file change is kept before it lands. */
  readonly fileChanges?: FileChangeRecorder;
  readonly artifacts?: ArtifactStore;
  /** Whether the model can call `read_artifact` (previews name it only then). */
  readonly readArtifactTool: boolean;
  readonly inlineContentLimit?: number;
  /** How long a cancelled tool that ignores its signal is waited for. */
  readonly cancelGraceMs: number;
  readonly reportProgress?: (progress: ToolProgress) => void;
  readonly traceContext?: TraceContext;
  /** Runs after the tool settled and before result hooks (a caller closes its progress stream here). */
  readonly afterSettled?: () => Promise<void>;
}

/**
 * Runs an allowed call: the tool gets `authorized: true`, the recorder, the signal, the paths
 * the rules leave out of a scope and an artifact writer; its result is normalised, result hooks
 * add their feedback, and the large-output rule bounds the content. Never throws.
 */
export async function executeJudgedCall(run: JudgedCallRun): Promise<ToolExecutionResult> {
  let result: ToolExecutionResult;
  try {
    const excluded = excludedPaths(
      run.rules,
      {
        toolName: run.tool.name,
        input: run.input,
        security: run.security,
        facts: run.facts ?? {
          ...resolveCallFacts(run.tool.pathArguments, run.input, run.workspaceRoot),
          ...(run.paths ? { paths: run.paths } : {}),
        },
      },
      run.mode,
    );
    result = await runAuthorized(
      run.tool,
      run.input,
      {
        authorized: true,
        workspaceRoot: run.workspaceRoot,
        sessionId: run.sessionId,
        turnId: run.turnId,
        toolCallId: run.toolCallId,
        signal: run.signal,
        ...(run.reportProgress ? { reportProgress: run.reportProgress } : {}),
        ...(run.fileChanges ? { fileChanges: run.fileChanges } : {}),
        ...(excluded.length > 0 ? { excludedPaths: excluded } : {}),
        ...(run.traceContext ? { traceContext: run.traceContext } : {}),
        ...(run.artifacts
          ? { artifacts: run.artifacts.writerFor({ sessionId: run.sessionId, toolCallId: run.toolCallId }) }
          : {}),
      },
      run.cancelGraceMs,
    );
  } catch (error) {
    // Only resolving what the rules leave out can get here (runAuthorized never throws).
    result = toolResultFromError(error, run.signal);
  }
  await run.afterSettled?.();
  result = await withHookFeedback(run, result);
  return keepInlineBounded(result, {
    ...(run.inlineContentLimit !== undefined ? { limit: run.inlineContentLimit } : {}),
    ...(run.artifacts ? { artifacts: run.artifacts } : {}),
    readArtifactTool: run.readArtifactTool,
    sessionId: run.sessionId,
    toolCallId: run.toolCallId,
  });
}

/** The result with what hooks said for the model: contexts from before the call, then result hooks' feedback. */
async function withHookFeedback(run: JudgedCallRun, result: ToolExecutionResult): Promise<ToolExecutionResult> {
  const resultHooks = run.resultHooks ?? [];
  const notes = [...run.contexts];
  if (resultHooks.length > 0) {
    const call = hookInput(
      {
        toolName: run.tool.name,
        input: run.input,
        summary: run.summary,
        sessionId: run.sessionId,
        turnId: run.turnId,
        toolCallId: run.toolCallId,
      },
      run.security,
      run.facts,
    );
    notes.push(...(await runResultHooks(resultHooks, { ...call, status: result.status, content: result.content })));
  }
  if (notes.length === 0) return result;
  return { ...result, content: `${result.content}\n\n${notes.map((note) => `[hook] ${note}`).join('\n')}` };
}
