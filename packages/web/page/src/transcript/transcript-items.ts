// Reduces a session's events into what the transcript shows: prompts, assistant text, one card
// per tool call (started, its latest progress, then completed), a checkpoint card per finished
// turn, and notices.
import type { SessionEvent, SessionEventOf, ToolResult } from '../api/api-types';
import { wholeNumber } from '../display/whole-number';

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
      /** When the first event of the call this page loaded was recorded (ISO). */
      readonly startedAt: string;
      /** When the call completed (ISO). */
      readonly completedAt?: string;
    }
  | {
      readonly kind: 'checkpoint';
      readonly key: string;
      readonly turnId: string;
      readonly status: string;
      /** The tokens the turn's model requests used, when the turn recorded them. */
      readonly usage?: TurnUsage;
    }
  | { readonly kind: 'notice'; readonly key: string; readonly text: string }
  /** The model's view was compacted here: what it is sent from now on changed; the transcript did not. */
  | { readonly kind: 'compaction'; readonly key: string; readonly text: string };

/** A turn's token usage, as `turn.completed` records it. */
export type TurnUsage = NonNullable<SessionEventOf<'turn.completed'>['usage']>;

/** How far a running call has come, as its latest `tool.progress` event says. */
export interface ToolProgress {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

type ToolItem = Extract<TranscriptItem, { kind: 'tool' }>;

/** A `tool.progress` event's values, or `undefined` when it carries no usable number. */
function progressOf(event: SessionEventOf<'tool.progress'>): ToolProgress | undefined {
  const { progress, total, message } = event;
  if (!Number.isFinite(progress)) return undefined;
  return {
    progress,
    ...(total !== undefined && Number.isFinite(total) && total > 0 ? { total } : {}),
    ...(message ? { message } : {}),
  };
}

type CallEvent = SessionEventOf<'tool.started' | 'approval.requested' | 'approval.resolved' | 'tool.completed'>;

/** The tool a call event names (an approval's answer does not repeat it). */
const toolNameOf = (event: CallEvent): string => (event.type === 'approval.resolved' ? '' : event.toolName);
const summaryOf = (event: CallEvent): string =>
  event.type === 'tool.started' || event.type === 'approval.requested' ? event.summary : '';

const RESTORED_WHAT: Record<SessionEventOf<'session.restored'>['scope'], string> = {
  files: 'the files',
  session: 'the conversation',
  all: 'the files and the conversation',
};

/** The line a restore leaves in the transcript, with the files it put back. */
function restoredNotice(event: SessionEventOf<'session.restored'>): string {
  const what = RESTORED_WHAT[event.scope];
  const paths = event.restoredPaths;
  const files =
    event.scope === 'session'
      ? ''
      : paths.length === 0
        ? ' No file needed putting back.'
        : ` Put back: ${paths.join(', ')}.`;
  return `Restored ${what} to before a turn (${event.scope}).${files}`;
}

const count = wholeNumber;

/** The marker a compaction leaves: what the model is no longer sent in full, and the tokens before and after. */
export function compactionText(event: SessionEventOf<'context.compacted'>): string {
  const why = {
    threshold: 'near the context window',
    overflow: 'the model refused a request as too long',
    manual: 'on demand',
  }[event.reason];
  const parts: string[] = [];
  if (event.prunedToolResults > 0)
    parts.push(
      `${count(event.prunedToolResults)} older tool result${event.prunedToolResults === 1 ? '' : 's'} now sent as a pointer to its artifact`,
    );
  if (event.summary !== undefined)
    parts.push(`the conversation before message ${count(event.summarizedThroughMessage ?? 0)} sent as a summary`);
  return `Context compacted (${why}): ${parts.join('; ') || 'nothing taken out'}. About ${count(event.tokensBefore)} → ${count(event.tokensAfter)} of ${count(event.contextWindow)} tokens. The transcript keeps everything.`;
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
        items.push({ kind: 'prompt', key, turnId: event.turnId ?? '', text: event.prompt });
        break;
      case 'assistant.message':
        if (event.text !== '') items.push({ kind: 'assistant', key, text: event.text });
        break;
      case 'tool.started':
      case 'approval.requested':
      case 'approval.resolved':
      case 'tool.completed': {
        const callId = event.toolCallId;
        setTool(callId, (previous) => ({
          kind: 'tool',
          key: previous?.key ?? key,
          toolCallId: callId,
          toolName: toolNameOf(event) || (previous?.toolName ?? ''),
          summary: previous?.summary || summaryOf(event),
          output: event.type === 'tool.completed' ? event.output : (previous?.output ?? ''),
          waitingForApproval: event.type === 'approval.requested',
          startedAt: previous?.startedAt ?? event.createdAt,
          ...(event.type === 'tool.completed' ? { completedAt: event.createdAt } : {}),
          ...(event.type !== 'tool.completed' && previous?.progress ? { progress: previous.progress } : {}),
          ...(event.type === 'tool.completed'
            ? { result: event.result }
            : previous?.result
              ? { result: previous.result }
              : {}),
        }));
        break;
      }
      case 'tool.progress': {
        const index = tools.get(event.toolCallId);
        const progress = progressOf(event);
        const previous = index === undefined ? undefined : (items[index] as ToolItem);
        // Only a call still running shows progress; a page that starts mid-call has no card to update.
        if (previous && !previous.result && progress) items[index!] = { ...previous, progress };
        break;
      }
      case 'turn.completed':
        items.push({
          kind: 'checkpoint',
          key,
          turnId: event.turnId ?? '',
          status: event.status,
          ...(event.usage ? { usage: event.usage } : {}),
        });
        break;
      case 'context.compacted':
        items.push({ kind: 'compaction', key, text: compactionText(event) });
        break;
      case 'request.failed':
        items.push({
          kind: 'notice',
          key,
          text: `The model request failed: ${event.message || event.code}`,
        });
        break;
      case 'session.forked':
        items.push({ kind: 'notice', key, text: 'This session was forked from another one.' });
        break;
      case 'session.restored':
        items.push({ kind: 'notice', key, text: restoredNotice(event) });
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
