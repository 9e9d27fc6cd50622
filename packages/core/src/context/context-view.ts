import type { ModelMessage, ToolModelMessage } from '@clawsmith/providers';
import type { ContextCompactedEvent } from '@clawsmith/session-protocol';

/**
 * How the model's view differs from the stored conversation, folded from the session's
 * `context.compacted` events (which a restore cuts like every event, and a fork copies).
 */
export interface CompactionState {
  /** Tool results at positions 1..N are sent as stubs. */
  readonly prunedThroughMessage: number;
  /** Messages 1..N are sent as {@link summary} instead. */
  readonly summarizedThroughMessage: number;
  readonly summary: string | undefined;
  /** The artifact holding each pruned result's full text, by tool call id. */
  readonly artifacts: ReadonlyMap<string, string>;
}

/** No compaction yet. */
export const UNCOMPACTED: CompactionState = {
  prunedThroughMessage: 0,
  summarizedThroughMessage: 0,
  summary: undefined,
  artifacts: new Map(),
};

/** Folds `context.compacted` events, oldest first, into the state the next request is built from. */
export function compactionStateOf(events: readonly ContextCompactedEvent[]): CompactionState {
  let state = UNCOMPACTED;
  for (const event of events) state = applyCompaction(state, event);
  return state;
}

/** The state after one more compaction. */
export function applyCompaction(
  state: CompactionState,
  event: Pick<ContextCompactedEvent, 'prunedThroughMessage' | 'artifacts' | 'summarizedThroughMessage' | 'summary'>,
): CompactionState {
  const artifacts = new Map(state.artifacts);
  for (const { toolCallId, artifactId } of event.artifacts) artifacts.set(toolCallId, artifactId);
  const summarized = event.summary !== undefined && event.summarizedThroughMessage !== undefined;
  return {
    prunedThroughMessage: Math.max(state.prunedThroughMessage, event.prunedThroughMessage),
    summarizedThroughMessage: summarized ? event.summarizedThroughMessage! : state.summarizedThroughMessage,
    summary: summarized ? event.summary : state.summary,
    artifacts,
  };
}

/** The text a pruned tool result is sent as. */
export function toolResultStub(message: ToolModelMessage, artifactId: string | undefined): string {
  const bytes = Buffer.byteLength(message.content).toLocaleString('en-US');
  const where = artifactId
    ? ` Its full text is artifact ${artifactId}: call read_artifact with {"id":"${artifactId}","startLine":1} (or a byte range, or a pattern to search) if you need it again.`
    : ' Call the tool again if you need it.';
  return `[Earlier result of ${message.toolName} (call ${message.toolCallId}, ${bytes} bytes, status ${message.toolResult.status}) removed from the context to save space.${where}]`;
}

/** The first message of a view whose older messages were summarised. */
export function summaryMessage(summary: string): ModelMessage {
  return {
    role: 'user',
    text: `[The earlier part of this conversation was summarised to fit the context window. Summary:]\n${summary}`,
  };
}

const STUB_WORTH = 400;
const stubs = new WeakMap<ToolModelMessage, ToolModelMessage>();

/**
 * The messages the model is sent for `history` (the stored conversation, position 1 first):
 * a summary in place of the summarised messages, stubs in place of pruned tool results, every
 * other message as stored. Stub objects are reused per stored message, so repeated builds are
 * cheap and byte-identical (the prompt cache sees a stable prefix).
 */
export function buildModelView(history: readonly ModelMessage[], state: CompactionState): ModelMessage[] {
  const view: ModelMessage[] = [];
  const start = state.summary !== undefined ? state.summarizedThroughMessage : 0;
  if (state.summary !== undefined) view.push(summaryMessage(state.summary));
  for (let index = start; index < history.length; index += 1) {
    const message = history[index]!;
    // A result shorter than its stub stays as it is.
    if (message.role !== 'tool' || index >= state.prunedThroughMessage || message.content.length <= STUB_WORTH) {
      view.push(message);
      continue;
    }
    let stub = stubs.get(message);
    if (stub === undefined) {
      stub = {
        ...message,
        content: toolResultStub(message, state.artifacts.get(message.toolCallId) ?? message.toolResult.artifact?.id),
      };
      stubs.set(message, stub);
    }
    view.push(stub);
  }
  return view;
}
