import type { ToolExecutionResult } from '@clawsmith/tool-protocol';

/**
 * The text a model reads for a result: the content alone on success; otherwise a first line
 * with the status, the code and whether a retry can help, so a framework that only forwards
 * text never hides a refusal or a failure behind a plain message.
 */
export function resultText(result: ToolExecutionResult): string {
  if (result.status === 'success') return result.content;
  const code = result.code ? ` ${result.code}` : '';
  return `[${result.status}${code}; retryable: ${result.retryable ? 'yes' : 'no'}]\n${result.content}`;
}
