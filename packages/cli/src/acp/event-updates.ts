// The one place the ACP agent reads clawsmith's session events (the typed union of
// @clawsmith/session-protocol): each persisted event becomes the `session/update`s an editor shows.
import { readFileSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import type { AgentCore } from '@clawsmith/core';
import type { SessionEvent, SessionEventOf } from '@clawsmith/session-protocol';
import type { PlanEntry, SessionUpdate, ToolCallContent, ToolCallStatus } from '@agentclientprotocol/sdk';
import { parseArguments, toolCallView } from './tool-call-view.js';

/** Tool output longer than this is cut in the editor's view (the model and the record keep all of it). */
const SHOWN_OUTPUT_BYTES = 64 * 1024;

/** What a translation needs besides the event. */
export interface EventTranslation {
  readonly core: AgentCore;
  readonly workspaceRoot: string;
  /**
   * `live`: the model's text already went out as it streamed, so `assistant.message` adds only its
   * tool calls; `replay` (session/load): the prompt and the text come from the events too.
   */
  readonly mode: 'live' | 'replay';
  /** The model's arguments of each call, by call id (filled from the session's messages). */
  readonly callArguments: Map<string, string>;
  /** The tools of each call seen so far, by call id. */
  readonly callTools: Map<string, string>;
}

/** Fills `translation.callArguments` from the session's messages (the events carry no arguments). */
export async function loadCallArguments(translation: EventTranslation, sessionId: string): Promise<void> {
  for (const message of await translation.core.listMessages(sessionId)) {
    if (message.role !== 'assistant') continue;
    for (const call of message.toolCalls) translation.callArguments.set(call.id, call.argumentsText);
  }
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function cut(text: string): string {
  if (Buffer.byteLength(text) <= SHOWN_OUTPUT_BYTES) return text;
  return `${Buffer.from(text).subarray(0, SHOWN_OUTPUT_BYTES).toString('utf8')}\n… (cut: the full output is in the session)`;
}

function textContent(text: string): ToolCallContent {
  return { type: 'content', content: { type: 'text', text } };
}

/** The file as it is now, when it lies inside the workspace and is small enough to show whole. */
function currentText(workspaceRoot: string, absolute: string): string | undefined {
  const inside = relative(workspaceRoot, absolute);
  if (inside.startsWith('..') || isAbsolute(inside)) return undefined;
  try {
    const body = readFileSync(absolute);
    return body.byteLength <= SHOWN_OUTPUT_BYTES ? body.toString('utf8') : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The diff block of a file call: the file before its turn (from the restore point) and after
 * (the restore point's once the turn closed; while it runs, the file as the call left it); when
 * either side is unknown or too large, the call's own old and new text.
 */
async function diffContent(
  translation: EventTranslation,
  event: SessionEvent,
  toolName: string,
  input: Record<string, unknown>,
): Promise<ToolCallContent[]> {
  const path = textOf(input.path);
  if (!path || event.turnId === null) return [];
  const absolute = toolCallView(translation.workspaceRoot, toolName, input).locations[0]?.path ?? path;
  try {
    const diff = await translation.core.diff(event.sessionId, event.turnId, path);
    const before = diff.before.exists ? diff.before.text : null;
    const after =
      diff.after.text ?? (translation.mode === 'live' ? currentText(translation.workspaceRoot, absolute) : undefined);
    const whole = !diff.binary && !diff.before.truncated && !diff.after.truncated;
    if (whole && (before !== null || !diff.before.exists) && after !== undefined)
      return [{ type: 'diff', path: absolute, oldText: before, newText: after }];
  } catch {
    // A path the turn's restore point does not know: the call's own text still shows the change.
  }
  if (toolName === 'edit_file')
    return [{ type: 'diff', path: absolute, oldText: textOf(input.oldText), newText: textOf(input.newText) }];
  if (toolName === 'write_file')
    return [{ type: 'diff', path: absolute, oldText: null, newText: textOf(input.content) }];
  return [];
}

function inputOf(translation: EventTranslation, toolCallId: string): Record<string, unknown> {
  const parsed = parseArguments(translation.callArguments.get(toolCallId) ?? '{}');
  return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
}

async function completion(
  translation: EventTranslation,
  event: SessionEventOf<'tool.completed'>,
): Promise<SessionUpdate> {
  const { toolCallId, result } = event;
  const toolName = event.toolName || translation.callTools.get(toolCallId) || '';
  const status: ToolCallStatus = result.status === 'success' ? 'completed' : 'failed';
  const output = result.display?.body || event.output;
  const content: ToolCallContent[] = [];
  const input = inputOf(translation, toolCallId);
  const view = toolCallView(translation.workspaceRoot, toolName, input);
  if (status === 'completed' && view.kind === 'edit')
    content.push(...(await diffContent(translation, event, toolName, input)));
  if (status === 'failed')
    content.push(textContent(`${result.code ? `[${result.code}] ` : ''}${cut(event.output || output)}`));
  else if (view.kind === 'execute') content.push(textContent(`\`\`\`\n${cut(output)}\n\`\`\``));
  else if (content.length === 0 && output) content.push(textContent(cut(output)));
  return {
    sessionUpdate: 'tool_call_update',
    toolCallId,
    status,
    content,
    rawOutput: { status: result.status, ...(result.code ? { code: result.code } : {}) },
  };
}

function planOf(event: SessionEventOf<'todos.updated'>): SessionUpdate {
  const entries: PlanEntry[] = event.todos.map((todo) => ({
    content: todo.content,
    priority: 'medium',
    status: todo.status,
  }));
  return { sessionUpdate: 'plan', entries };
}

/** The updates one persisted event becomes (none for bookkeeping events). */
export async function eventUpdates(translation: EventTranslation, event: SessionEvent): Promise<SessionUpdate[]> {
  switch (event.type) {
    case 'turn.started':
      return translation.mode === 'replay'
        ? [{ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: event.prompt } }]
        : [];
    case 'assistant.message': {
      const updates: SessionUpdate[] = [];
      if (translation.mode === 'replay' && event.text)
        updates.push({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: event.text } });
      if (event.toolCalls.some((call) => !translation.callArguments.has(call.id)))
        await loadCallArguments(translation, event.sessionId);
      for (const call of event.toolCalls) {
        translation.callTools.set(call.id, call.name);
        const input = parseArguments(translation.callArguments.get(call.id) ?? '{}');
        updates.push({
          sessionUpdate: 'tool_call',
          toolCallId: call.id,
          ...toolCallView(translation.workspaceRoot, call.name, input),
          status: 'pending',
          rawInput: input,
        });
      }
      return updates;
    }
    case 'tool.started':
      return [{ sessionUpdate: 'tool_call_update', toolCallId: event.toolCallId, status: 'in_progress' }];
    case 'tool.completed':
      return [await completion(translation, event)];
    case 'todos.updated':
      return [planOf(event)];
    default:
      return [];
  }
}

/** The updates of a whole session, oldest first, for `session/load`. */
export async function historyUpdates(
  core: AgentCore,
  sessionId: string,
  workspaceRoot: string,
): Promise<SessionUpdate[]> {
  const translation: EventTranslation = {
    core,
    workspaceRoot,
    mode: 'replay',
    callArguments: new Map(),
    callTools: new Map(),
  };
  await loadCallArguments(translation, sessionId);
  const updates: SessionUpdate[] = [];
  for (const event of await core.listEvents(sessionId)) updates.push(...(await eventUpdates(translation, event)));
  return updates;
}
