import { randomUUID } from 'node:crypto';
import { createReadArtifactTool } from '@clawsmith/artifacts';
import type { FileDiff, RestorePoint, UndoResult } from '@clawsmith/checkpoints';
import {
  TOOL_RESULT_CODES,
  toModelToolSchema,
  toolCancelled,
  toolDenied,
  toolError,
  type AnyToolDefinition,
  type ToolExecutionResult,
} from '@clawsmith/tool-protocol';
import { parseCallArguments, safeSummary } from '../calls/call-arguments.js';
import { executeJudgedCall } from '../calls/execute-judged-call.js';
import { judgeCall, type CallJudgment } from '../calls/judge-call.js';
import { DEFAULT_INLINE_CONTENT_LIMIT } from '../calls/large-output.js';
import { buildToolTable, type ToolEntry } from '../calls/tool-table.js';
import type { ApprovalAnswer } from '../permissions/approval-handler.js';
import { judgedFacts } from '../permissions/call-facts.js';
import { DecidedCalls } from './decided-calls.js';
import { StepCheckpoints } from './step-checkpoints.js';
import type {
  HostCallOptions,
  HostDecideOptions,
  HostDecision,
  HostToolDescription,
  ToolHostOptions,
} from './tool-host-types.js';

/** One call's whole lifecycle without an agent loop, over one workspace and one session's restore points. */
export interface ToolHost {
  readonly sessionId: string;
  readonly workspaceRoot: string;
  /** Every tool's name, in table order (with `read_artifact` when the host registered it). */
  readonly toolNames: readonly string[];
  /** The tools with their model-facing JSON Schema, zod schema (on `tool`) and resolved security. */
  describe(): HostToolDescription[];
  /**
   * What a call would meet, without running it: validation, hooks (they run), the permission
   * policy and what a person allowed for the session. `ask` means a person must approve. The
   * judgment is kept for the `call()` that follows (within ten minutes), which reuses it instead
   * of running the hooks again: the call with the same `toolCallId` when one is given here (then
   * only that call takes it), else the next call of the same tool and input.
   */
  decide(name: string, input: unknown, options?: HostDecideOptions): Promise<HostDecision>;
  /**
   * Runs one call through the whole lifecycle (validation, hooks, permission, approval,
   * authorisation, recording into the open step's restore point, normalisation, the large-output
   * rule). Never throws: every refusal is a result with its status, code and `retryable`.
   */
  call(name: string, input: unknown, options?: HostCallOptions): Promise<ToolExecutionResult>;
  /** Opens a step: the calls until `endStep` share one restore point. Returns its id (a turn id). */
  beginStep(): Promise<string>;
  /** Ends the open step. Calls made with no step open get a restore point each. */
  endStep(): Promise<void>;
  /** The session's restore points, oldest first, each with its manifest (the files it changed). Ends the open step first, as `diff` and `undo` do. */
  listRestorePoints(): Promise<RestorePoint[]>;
  /** Before and after text of one file a step changed, and a unified diff. */
  diff(stepId: string, path: string): Promise<FileDiff>;
  /** Reverts the files of `stepId` and of every later step; refuses (`checkpoint_conflict`) over a person's later edits. */
  undo(stepId: string): Promise<UndoResult>;
}

function readArtifactRegistered(options: ToolHostOptions): boolean {
  return options.artifacts !== undefined && options.readArtifactTool !== false;
}

function allTools(options: ToolHostOptions): AnyToolDefinition[] {
  const tools = [...options.tools];
  if (readArtifactRegistered(options) && !tools.some((tool) => tool.name === 'read_artifact'))
    tools.push(createReadArtifactTool(options.artifacts!));
  return tools;
}

/**
 * Composes a tool host. The tool table is built once (a duplicate name is a startup error);
 * `read_artifact` joins it when there is an artifact store, so previews of large output name it.
 */
export function createToolHost(options: ToolHostOptions): ToolHost {
  const table = buildToolTable([{ source: 'host', tools: allTools(options) }]);
  const sessionId = options.sessionId ?? `host-${randomUUID()}`;
  const steps = new StepCheckpoints(options.checkpoints, sessionId, options.workspaceRoot);
  const settings = {
    mode: options.permissionMode ?? 'default',
    rules: options.rules ?? [],
    hooks: options.hooks ?? [],
    sessionAllowances: new Set<string>(),
  } as const;
  const readArtifactTool = table.get('read_artifact') !== undefined;
  const decided = new DecidedCalls();

  type Checked = { ok: true; entry: ToolEntry; input: unknown } | { ok: false; result: ToolExecutionResult };
  const check = (name: string, input: unknown): Checked => {
    const entry = table.get(name);
    if (!entry) {
      return {
        ok: false,
        result: toolError(
          TOOL_RESULT_CODES.unknownTool,
          `There is no tool named ${JSON.stringify(String(name).slice(0, 100))}. The tools are: ${table.names.join(', ')}.`,
        ),
      };
    }
    const parsed = parseCallArguments(entry.tool, input);
    return parsed.ok ? { ok: true, entry, input: parsed.input } : parsed;
  };
  const judge = (entry: ToolEntry, input: unknown, turnId: string, toolCallId: string): Promise<CallJudgment> =>
    judgeCall(
      {
        tool: entry.tool,
        security: entry.security,
        input,
        summary: safeSummary(entry.tool, input),
        sessionId,
        turnId,
        toolCallId,
        workspaceRoot: options.workspaceRoot,
      },
      settings,
    );

  async function askPerson(
    entry: ToolEntry,
    judgment: CallJudgment,
    turnId: string,
    toolCallId: string,
    signal: AbortSignal,
  ): Promise<{ allowed: boolean; reason: string }> {
    if (!options.approvalHandler)
      return { allowed: false, reason: `${judgment.reason}; no one was asked to approve it, so it is denied` };
    let answer: ApprovalAnswer;
    try {
      answer = await options.approvalHandler(
        {
          approvalId: randomUUID(),
          sessionId,
          turnId,
          toolCallId,
          toolName: entry.tool.name,
          summary: judgment.summary,
          input: judgment.input,
          risk: entry.security.risk,
          capabilities: entry.security.capabilities,
          reason: judgment.reason,
        },
        signal,
      );
    } catch (error) {
      // Fail closed, never attributed to the person.
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 300);
      return { allowed: false, reason: `approval handler failed: ${message}` };
    }
    if (answer === 'allow-session') settings.sessionAllowances.add(entry.tool.name);
    if (answer === 'allow' || answer === 'allow-session') return { allowed: true, reason: 'allowed by the person' };
    return { allowed: false, reason: 'the person declined' };
  }

  return Object.freeze({
    sessionId,
    workspaceRoot: options.workspaceRoot,
    toolNames: table.names,
    describe: () =>
      table.names.map((name) => {
        const entry = table.get(name)!;
        const schema = toModelToolSchema(entry.tool);
        return {
          name,
          description: schema.description,
          inputSchema: schema.inputSchema,
          tool: entry.tool,
          security: entry.security,
          concurrencySafe: entry.tool.concurrencySafe === true,
        };
      }),
    async decide(name: string, input: unknown, decideOptions: HostDecideOptions = {}): Promise<HostDecision> {
      const checked = check(name, input);
      if (!checked.ok)
        return { action: 'deny', reason: checked.result.content, code: checked.result.code, result: checked.result };
      const judgment = await judge(checked.entry, checked.input, 'decide', `decide_${randomUUID()}`);
      decided.keep(
        DecidedCalls.keyOf(checked.entry.tool.name, checked.input, decideOptions.toolCallId),
        judgment,
        decideOptions.toolCallId !== undefined,
      );
      const touches = judgment.facts ? { touches: judgedFacts(judgment.facts) } : {};
      return judgment.denied
        ? { action: 'deny', reason: judgment.reason, code: judgment.denied.code, result: judgment.denied, ...touches }
        : { action: judgment.action, reason: judgment.reason, ...touches };
    },
    async call(name: string, input: unknown, callOptions: HostCallOptions = {}): Promise<ToolExecutionResult> {
      const signal = callOptions.signal ?? new AbortController().signal;
      const toolCallId = callOptions.toolCallId ?? `call_${randomUUID()}`;
      const checked = check(name, input);
      if (!checked.ok) return checked.result;
      try {
        return await steps.within(async (checkpoint) => {
          const { entry } = checked;
          // A call decided just before (an adapter's approval check) is not judged twice.
          const judgment =
            decided.take(DecidedCalls.keyOf(entry.tool.name, checked.input, callOptions.toolCallId)) ??
            decided.take(DecidedCalls.keyOf(entry.tool.name, checked.input)) ??
            (await judge(entry, checked.input, checkpoint.turnId, toolCallId));
          if (judgment.denied) return judgment.denied;
          if (judgment.action === 'ask' && callOptions.approved !== true) {
            const asked = await askPerson(entry, judgment, checkpoint.turnId, toolCallId, signal);
            if (!asked.allowed)
              return toolDenied(
                TOOL_RESULT_CODES.permissionDenied,
                `Permission denied for ${entry.tool.name}: ${asked.reason}.`,
              );
          }
          if (signal.aborted) return toolCancelled('The call was cancelled before it ran.');
          return executeJudgedCall({
            tool: entry.tool,
            security: entry.security,
            input: judgment.input,
            summary: judgment.summary,
            ...(judgment.paths ? { paths: judgment.paths } : {}),
            ...(judgment.facts ? { facts: judgment.facts } : {}),
            contexts: judgment.contexts,
            sessionId,
            turnId: checkpoint.turnId,
            toolCallId,
            workspaceRoot: options.workspaceRoot,
            signal,
            mode: settings.mode,
            rules: settings.rules,
            ...(options.resultHooks ? { resultHooks: options.resultHooks } : {}),
            fileChanges: checkpoint.recorder,
            ...(options.artifacts ? { artifacts: options.artifacts } : {}),
            readArtifactTool,
            inlineContentLimit: options.inlineContentLimit ?? DEFAULT_INLINE_CONTENT_LIMIT,
            cancelGraceMs: options.cancelGraceMs ?? 2_000,
            ...(callOptions.onProgress ? { reportProgress: callOptions.onProgress } : {}),
          });
        });
      } catch (error) {
        // The restore point could not be opened or completed: nothing ran, or what ran is said.
        const message = error instanceof Error ? error.message : String(error);
        return toolError(
          'restore_point_failed',
          `The restore point for ${name} could not be kept (${message.slice(0, 300)}); check the workspace before relying on this call.`,
        );
      }
    },
    beginStep: () => steps.begin(),
    endStep: () => steps.end(),
    async listRestorePoints() {
      await steps.end();
      const points = await options.checkpoints.listRestorePoints(sessionId);
      return Promise.all(points.map((point) => options.checkpoints.getRestorePoint(sessionId, point.turnId)));
    },
    async diff(stepId: string, path: string) {
      await steps.end();
      return options.checkpoints.diff(sessionId, stepId, path);
    },
    async undo(stepId: string) {
      await steps.end();
      return options.checkpoints.undoFiles(sessionId, stepId);
    },
  });
}
