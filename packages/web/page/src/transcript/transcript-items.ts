// Reduces a session's events into what the transcript shows: prompts, assistant text, one card
// per tool call (started, its latest progress, then completed), a checkpoint card per finished
// turn, and notices.
import type { SessionEvent, ToolResult } from '../api/api-types';

export type TranscriptItem =
  | { readonly kind: 'prompt'; readonly key: string; readonly turnId: string; readonly text: string }
  | { readonly kind: 'assistant'; readonly key: string; readonly text: string }
  | {
      readonly kind: 'tool';
      readonly key: string;
      readonly toolCallId: string;
      readonly toolName: string;
      readonly summary: string;
      readonly result?: ToolResult;
      readonly output: string;
      readonly waitingForApproval: boolean;
      /** The latest `tool.progress` of a call still running (dropped once it completed). */
      readonly progress?: ToolProgress;
    }
  | { readonly kind: 'checkpoint'; readonly key: string; readonly turnId: string; readonly status: string }
  | { readonly kind: 'notice'; readonly key: string; readonly text: string };

/** How far a running call has come, as its latest `tool.progress` event says. */
export interface ToolProgress {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

type ToolItem = Extract<TranscriptItem, { kind: 'tool' }>;

/** A `tool.progress` event's values, or `undefined` when it carries no usable number. */
function progressOf(event: SessionEvent): ToolProgress | undefined {
  const { progress, total, message } = event;
  if (typeof progress !== 'number' || !Number.isFinite(progress)) return undefined;
  return {
    progress,
    ...(typeof total === 'number' && Number.isFinite(total) && total > 0 ? { total } : {}),
    ...(typeof message === 'string' && message !== '' ? { message } : {}),
  };
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** A completion's result; events written before results were structured carry only `status`. */
function completedResult(event: SessionEvent): ToolResult {
  if (typeof event.result === 'object' && event.result !== null) return event.result as ToolResult;
  const status = text(event.status);
  const known = ['success', 'error', 'denied', 'cancelled', 'unknown'] as const;
  return { status: known.find((candidate) => candidate === status) ?? 'unknown' };
}

/** The transcript of `events` (in sequence order; an older page may start mid-turn). */
export function transcriptItems(events: readonly SessionEvent[]): TranscriptItem[] {
  const items: TranscriptItem[] = [];
  const tools = new Map<string, number>();
  const setTool = (callId: string, update: (previous: ToolItem | undefined) => ToolItem) => {
    const index = tools.get(callId);
    if (index === undefined) {
      tools.set(callId, items.length);
      items.push(update(undefined));
    } else items[index] = update(items[index] as ToolItem);
  };
  for (const event of events) {
    const key = `e${event.sequence}`;
    switch (event.type) {
      case 'turn.started':
        items.push({ kind: 'prompt', key, turnId: event.turnId ?? '', text: text(event.prompt) });
        break;
      case 'assistant.message':
        if (text(event.text) !== '') items.push({ kind: 'assistant', key, text: text(event.text) });
        break;
      case 'tool.started':
      case 'approval.requested':
      case 'approval.resolved':
      case 'tool.completed': {
        const callId = text(event.toolCallId);
        setTool(callId, (previous) => ({
          kind: 'tool',
          key: previous?.key ?? key,
          toolCallId: callId,
          toolName: text(event.toolName) || (previous?.toolName ?? ''),
          summary: previous?.summary || text(event.summary),
          output: event.type === 'tool.completed' ? text(event.output) : (previous?.output ?? ''),
          waitingForApproval: event.type === 'approval.requested',
          ...(event.type !== 'tool.completed' && previous?.progress ? { progress: previous.progress } : {}),
          ...(event.type === 'tool.completed'
            ? { result: completedResult(event) }
            : previous?.result
              ? { result: previous.result }
              : {}),
        }));
        break;
      }
      case 'tool.progress': {
        const index = tools.get(text(event.toolCallId));
        const progress = progressOf(event);
        const previous = index === undefined ? undefined : (items[index] as ToolItem);
        // Only a call still running shows progress; a page that starts mid-call has no card to update.
        if (previous && !previous.result && progress) items[index!] = { ...previous, progress };
        break;
      }
      case 'turn.completed':
        items.push({ kind: 'checkpoint', key, turnId: event.turnId ?? '', status: text(event.status) });
        break;
      case 'request.failed':
        items.push({
          kind: 'notice',
          key,
          text: `The model request failed: ${text(event.message) || text(event.code)}`,
        });
        break;
      case 'session.forked':
        items.push({ kind: 'notice', key, text: 'This session was forked from another one.' });
        break;
      case 'session.restored':
        items.push({ kind: 'notice', key, text: `Restored to before a turn (${text(event.scope) || 'restore'}).` });
        break;
      default:
        break;
    }
  }
  return items;
}

/** Whether the latest turn in `events` is still running (started, not completed). */
export function turnRunning(events: readonly SessionEvent[]): boolean {
  for (let index = events.length - 1; index >= 0; index -= 1) {
    const type = events[index]!.type;
    if (type === 'turn.completed') return false;
    if (type === 'turn.started') return true;
  }
  return false;
}
