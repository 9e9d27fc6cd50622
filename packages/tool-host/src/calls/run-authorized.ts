import {
  normalizeToolResult,
  toolCancelled,
  toolResultFromError,
  type AnyToolDefinition,
  type ToolExecutionContext,
  type ToolExecutionResult,
} from '@clawsmith/tool-protocol';

class ToolIgnoredCancellation extends Error {}

/**
 * Waits for the tool; once `signal` is aborted, waits at most `graceMs` more, so a tool that
 * ignores its abort signal cannot hold its caller open.
 */
function settleOrGiveUp(
  running: Promise<unknown>,
  signal: AbortSignal,
  graceMs: number,
  toolName: string,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const giveUp = () => {
      timer = setTimeout(
        () =>
          reject(
            new ToolIgnoredCancellation(
              `${toolName} did not stop within ${graceMs} ms of the cancellation and may still be running; check its effects before relying on them.`,
            ),
          ),
        graceMs,
      );
    };
    if (signal.aborted) giveUp();
    else signal.addEventListener('abort', giveUp, { once: true });
    running.then(resolve, reject).finally(() => {
      clearTimeout(timer);
      signal.removeEventListener('abort', giveUp);
    });
  });
}

/**
 * Runs a tool whose call was already judged and authorised (`context.authorized` is true) and
 * normalises whatever it returns or throws into a {@link ToolExecutionResult}: a thrown refusal
 * keeps its `code` and `retryable`, a cancellation is `cancelled`. Never throws.
 */
export async function runAuthorized(
  tool: AnyToolDefinition,
  input: unknown,
  context: ToolExecutionContext,
  cancelGraceMs: number,
): Promise<ToolExecutionResult> {
  if (context.signal.aborted) return toolCancelled();
  try {
    const running = tool.execute(input, context);
    return normalizeToolResult(
      await settleOrGiveUp(Promise.resolve(running), context.signal, cancelGraceMs, tool.name),
    );
  } catch (error) {
    return error instanceof ToolIgnoredCancellation
      ? toolCancelled(error.message)
      : toolResultFromError(error, context.signal);
  }
}
