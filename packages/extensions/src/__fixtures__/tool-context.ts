import type { ToolExecutionContext } from '@clawsmith/tool-protocol';

/** An authorised execution context in `workspaceRoot`, as core gives a tool. */
export function toolContext(
  workspaceRoot: string,
  signal: AbortSignal = new AbortController().signal,
): ToolExecutionContext {
  return { authorized: true, workspaceRoot, sessionId: 's1', turnId: 't1', toolCallId: 'c1', signal };
}

/** SKILL.md text with this front matter and body. */
export function skillMarkdown(name: string, description: string, body = '# Steps\n\n1. Do it.\n'): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n${body}`;
}
