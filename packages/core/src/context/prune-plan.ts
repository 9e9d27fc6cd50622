import type { ModelMessage } from '@clawsmith/providers';
import type { CompactionState } from './context-view.js';

/** What a stub costs in bytes, about (its text names the tool, call, size and artifact). */
const STUB_BYTES = 330;

/** Which tool results to prune so that a view of `viewBytes` gets down to `targetBytes`. */
export interface PrunePlan {
  /** The new `prunedThroughMessage` (never lower than the state's). */
  readonly prunedThroughMessage: number;
  /** Indexes (0-based positions in the history) of the tool messages this plan newly prunes. */
  readonly newlyPruned: readonly number[];
  /** The view's bytes after pruning, about. */
  readonly bytesAfter: number;
}

/**
 * Prunes tool results oldest first until the view fits `targetBytes`, never touching the
 * results of the latest assistant message (the model has not read them yet) nor anything the
 * summary already replaced. One pass over the history: linear in its length.
 */
export function planPruning(
  history: readonly ModelMessage[],
  state: CompactionState,
  viewBytes: number,
  targetBytes: number,
  bytesOf: (message: ModelMessage) => number,
): PrunePlan {
  let protectFrom = history.length;
  for (let index = history.length - 1; index >= 0; index -= 1) {
    if (history[index]!.role === 'assistant') {
      protectFrom = index;
      break;
    }
  }
  let bytes = viewBytes;
  let through = state.prunedThroughMessage;
  const newlyPruned: number[] = [];
  const start = Math.max(state.prunedThroughMessage, state.summarizedThroughMessage);
  for (let index = start; index < protectFrom && bytes > targetBytes; index += 1) {
    const message = history[index]!;
    through = index + 1;
    if (message.role !== 'tool') continue;
    const saved = bytesOf(message) - STUB_BYTES;
    if (saved <= 0) continue;
    bytes -= saved;
    newlyPruned.push(index);
  }
  return { prunedThroughMessage: through, newlyPruned, bytesAfter: bytes };
}
