import type { AgentCore, ApprovalAnswer, ApprovalRequest, PermissionMode } from '@clawsmith/core';
import type { SessionEvent } from '@clawsmith/session-protocol';
import type { AgentContext, SessionUpdate } from '@agentclientprotocol/sdk';
import type { McpElicitationAnswer, McpElicitationRequest } from '@clawsmith/mcp';
import type { AgentRuntime } from '../commands/agent-runtime.js';
import { eventUpdates, type EventTranslation } from './event-updates.js';
import { usageUpdate } from './usage-update.js';
import { askEditor } from './permission-bridge.js';
import { askEditorForm } from './elicitation-bridge.js';

/**
 * One clawsmith session opened by an editor on this connection: its mode, the turn it runs, and
 * the ordered queue of `session/update`s (streamed text, then each event's updates, in the order
 * they happened, each sent after the one before).
 */
export class AcpSession {
  readonly id: string;
  readonly workspaceRoot: string;
  /** The core its turns run on: the connection's, or its own when the editor gave it MCP servers. */
  readonly core: AgentCore;
  /** The runtime of that core (its system prompt names the tools of that table). */
  readonly runtime: AgentRuntime;
  mode: PermissionMode;
  /** The running turn's canceller, while one runs. */
  turn: AbortController | undefined;
  /** Settles when the running turn (if any) has ended and its updates were sent. */
  turnEnded: Promise<void> = Promise.resolve();
  readonly #client: AgentContext;
  readonly #translation: EventTranslation;
  readonly #contextWindowTokens: number;
  /** The last model answer's token counts in the running turn: what the context holds now. */
  #lastUsage: { readonly inputTokens: number; readonly outputTokens: number } | undefined;
  #queue: Promise<void> = Promise.resolve();

  constructor(options: {
    runtime: AgentRuntime;
    client: AgentContext;
    id: string;
    workspaceRoot: string;
    mode: PermissionMode;
  }) {
    this.id = options.id;
    this.core = options.runtime.core;
    this.runtime = options.runtime;
    this.workspaceRoot = options.workspaceRoot;
    this.mode = options.mode;
    this.#client = options.client;
    this.#contextWindowTokens = options.runtime.core.contextWindowTokens;
    this.#translation = {
      core: options.runtime.core,
      workspaceRoot: options.workspaceRoot,
      mode: 'live',
      callArguments: new Map(),
      callTools: new Map(),
    };
  }

  /** Queues updates produced by `produce` behind everything queued before. A failing send is dropped (the editor went away). */
  #enqueue(produce: () => Promise<readonly SessionUpdate[]> | readonly SessionUpdate[]): void {
    this.#queue = this.#queue.then(async () => {
      try {
        for (const update of await produce())
          await this.#client.notify('session/update', { sessionId: this.id, update });
      } catch {
        // The connection closed or the editor refused a notification: the record is unaffected.
      }
    });
  }

  /** Sends `updates` in order after everything queued. */
  send(...updates: readonly SessionUpdate[]): void {
    this.#enqueue(() => updates);
  }

  /** Streamed model text. */
  textDelta(text: string): void {
    if (text) this.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
  }

  /** A persisted event of this session; a turn's end also reports how full the context is. */
  event(event: SessionEvent): void {
    this.#enqueue(() => eventUpdates(this.#translation, event));
    if (event.type === 'request.completed' && event.usage) this.#lastUsage = event.usage;
    if (event.type === 'turn.completed' && this.#lastUsage) {
      this.send(usageUpdate(this.#lastUsage, this.#contextWindowTokens));
      this.#lastUsage = undefined;
    }
  }

  /** Asks the editor about a call of this session's turn (or of a subagent it delegated to). */
  approve(request: ApprovalRequest, signal: AbortSignal, timeoutMs?: number): Promise<ApprovalAnswer> {
    return askEditor(
      {
        client: this.#client,
        workspaceRoot: this.workspaceRoot,
        flushUpdates: () => this.flush(),
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
      },
      { ...request, sessionId: this.id },
      signal,
    );
  }

  /** Puts an MCP server's question, asked during this session's call, to the person in the editor. */
  elicit(request: McpElicitationRequest, timeoutMs?: number): Promise<McpElicitationAnswer> {
    return askEditorForm(
      {
        client: this.#client,
        sessionId: this.id,
        flushUpdates: () => this.flush(),
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
      },
      request,
    );
  }

  /** Resolves once everything queued so far was sent. */
  flush(): Promise<void> {
    return this.#queue;
  }
}
