import type { BackgroundNotifiedEvent } from '@clawsmith/session-protocol';
import { defineTool, toolError, toolSuccess, type AnyToolDefinition } from '@clawsmith/tool-protocol';
import { z } from 'zod';
import { childToolResult } from './child-result.js';
import { runChild, type ChildResult, type DelegationRuntime } from './child-runner.js';
import { DELEGATION_LIMITS } from './delegation-options.js';
import type { DelegationRecord } from './delegation-store.js';

interface RunningTask {
  readonly parentSessionId: string;
  readonly controller: AbortController;
  readonly done: Promise<ChildResult | undefined>;
}

/** How long `background_task_cancel` waits for a cancelled child to close. */
const CANCEL_WAIT_MS = 15_000;

function describeTask(record: DelegationRecord) {
  return {
    taskId: record.childSessionId,
    status: record.status,
    prompt: record.prompt.replace(/\s+/g, ' ').slice(0, 120),
    startedAt: record.createdAt,
    completedAt: record.completedAt,
    delivered: record.notifiedAt !== null,
  };
}

/**
 * Background children: `delegate_background` starts a read-only child and returns at once;
 * `background_task_list` lists a session's background tasks; `background_task_cancel` stops one
 * and its tools. A finished task's result is delivered to the parent once, at the start of its
 * next turn ({@link BackgroundTasks.takeNotice}). `close()` stops them all.
 */
export class BackgroundTasks {
  readonly #runtime: DelegationRuntime;
  readonly #running = new Map<string, RunningTask>();
  readonly #limit: number;

  constructor(runtime: DelegationRuntime) {
    this.#runtime = runtime;
    this.#limit = runtime.options.maxBackground ?? DELEGATION_LIMITS.background;
  }

  tools(): AnyToolDefinition[] {
    const start = defineTool({
      name: 'delegate_background',
      description:
        'Start a read-only subagent that works while you go on (it can read, list and search files, never change them). ' +
        'Returns a taskId at once; its result is delivered to you once, at the start of a later turn. List with background_task_list, stop with background_task_cancel.',
      risk: 'read',
      capabilities: ['agent.delegate'],
      concurrencySafe: false,
      inputSchema: z.strictObject({
        prompt: z.string().trim().min(1).max(20_000).describe('The task, complete on its own.'),
        focusPaths: z.array(z.string().min(1).max(4_096)).max(20).optional(),
      }),
      summarize: (input) => `background: ${input.prompt.replace(/\s+/g, ' ').slice(0, 120)}`,
      searchMetadata: { aliases: ['subagent', 'background agent'], tags: ['agent'] },
      // Most turns never start one: found with search_tools, like the background command tools.
      deferred: true,
      execute: async (input, context) => {
        const running = [...this.#running.values()].filter((task) => task.parentSessionId === context.sessionId);
        if (running.length >= this.#limit)
          return toolError(
            'background_task_limit',
            `${running.length} background tasks are already running in this session (at most ${this.#limit}). Wait for one to finish, or cancel one with background_task_cancel.`,
          );
        const controller = new AbortController();
        let started: (id: string) => void = () => undefined;
        const childId = new Promise<string>((resolve) => (started = resolve));
        const done = runChild(this.#runtime, {
          kind: 'background',
          parentSessionId: context.sessionId,
          parentTurnId: context.turnId,
          parentToolCallId: context.toolCallId,
          prompt: input.prompt,
          ...(input.focusPaths ? { focusPaths: input.focusPaths } : {}),
          workspaceRoot: context.workspaceRoot,
          permissionMode: 'read-only',
          signal: controller.signal,
          onStarted: started,
        }).catch(() => undefined);
        const taskId = await Promise.race([childId, done.then(() => undefined)]);
        if (taskId === undefined) return toolError('subagent_failed', 'The background task could not start.');
        const task: RunningTask = { parentSessionId: context.sessionId, controller, done };
        this.#running.set(taskId, task);
        void done.finally(() => this.#running.delete(taskId));
        return toolSuccess(JSON.stringify({ taskId, status: 'running' }), {
          display: { kind: 'text', title: 'background task started', body: taskId },
        });
      },
    });
    const list = defineTool({
      name: 'background_task_list',
      description: 'List the background tasks of this session with their status.',
      risk: 'read',
      capabilities: ['session.read'],
      concurrencySafe: true,
      inputSchema: z.strictObject({}),
      summarize: () => 'list background tasks',
      deferred: true,
      execute: async (_input, context) => {
        const tasks = (await this.#runtime.delegations.list(context.sessionId)).filter(
          (record) => record.kind === 'background',
        );
        return toolSuccess(JSON.stringify(tasks.map(describeTask), null, 2));
      },
    });
    const cancel = defineTool({
      name: 'background_task_cancel',
      description: 'Stop a background task of this session (and its tools); returns its final status.',
      risk: 'read',
      capabilities: ['agent.delegate'],
      concurrencySafe: false,
      inputSchema: z.strictObject({
        taskId: z
          .string()
          .min(1)
          .max(200)
          .describe('The taskId delegate_background returned (or the id of the call that started it).'),
      }),
      summarize: (input) => `cancel background task ${input.taskId}`,
      deferred: true,
      execute: async (input, context) => {
        const record = (await this.#runtime.delegations.list(context.sessionId)).find(
          (candidate) =>
            candidate.kind === 'background' &&
            (candidate.childSessionId === input.taskId || candidate.parentToolCallId === input.taskId),
        );
        if (!record)
          return toolError(
            'background_task_not_found',
            `No background task ${JSON.stringify(input.taskId)} in this session; list them with background_task_list.`,
          );
        const task = this.#running.get(record.childSessionId);
        if (!task)
          return toolSuccess(
            JSON.stringify({ ...describeTask(record), note: 'The task had already ended; nothing to cancel.' }),
          );
        task.controller.abort();
        const result = await Promise.race([
          task.done,
          new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), CANCEL_WAIT_MS).unref()),
        ]);
        // The person (model) who cancelled it has its result now: it is not delivered again.
        await this.#runtime.delegations.markNotified([record.childSessionId]);
        if (!result)
          return toolError(
            'background_task_stuck',
            `The task ${record.childSessionId} did not stop within 15 s of the cancel.`,
          );
        return childToolResult(result);
      },
    });
    return [start, list, cancel];
  }

  /**
   * The results of this session's finished background tasks not delivered yet, marked delivered
   * (each is delivered once), as a message for the next turn and structured results for its event.
   */
  async takeNotice(
    parentSessionId: string,
  ): Promise<{ text: string; results: BackgroundNotifiedEvent['tasks'] } | undefined> {
    const finished = (await this.#runtime.delegations.list(parentSessionId)).filter(
      (record) => record.kind === 'background' && record.status !== 'running' && record.notifiedAt === null,
    );
    if (finished.length === 0) return undefined;
    const delivered = new Set(
      await this.#runtime.delegations.markNotified(finished.map((record) => record.childSessionId)),
    );
    const results = finished
      .filter((record) => delivered.has(record.childSessionId))
      .map((record) => ({ taskId: record.childSessionId, prompt: record.prompt.slice(0, 200), result: record.result }));
    if (results.length === 0) return undefined;
    const text = [
      `[background task notification] ${results.length} background task(s) finished since your last turn:`,
      ...results.map((entry) => JSON.stringify(entry)),
    ].join('\n');
    return { text, results };
  }

  /** Stops every background task and waits for them to close. */
  async close(): Promise<void> {
    const tasks = [...this.#running.values()];
    for (const task of tasks) task.controller.abort();
    await Promise.all(tasks.map((task) => task.done));
  }
}
