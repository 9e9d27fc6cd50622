import { Writable } from 'node:stream';
import { undoConflictsOf, type AgentCore, type RestoreScope } from '@clawsmith/core';
import type { AvailableCommand } from '@agentclientprotocol/sdk';
import { ClawsmithError } from '@clawsmith/tool-protocol';
import { resolveTurn } from '../commands/agent-runtime.js';
import { checkpointLines, checkpointTurns, formatDiff } from '../commands/store-commands.js';
import { terminalStyle } from '../terminal/terminal-style.js';

/** The slash commands an editor offers in its prompt box (`available_commands_update`). */
export const ACP_SLASH_COMMANDS: readonly AvailableCommand[] = [
  {
    name: 'undo',
    description:
      'Undo a turn: its files (default), its conversation (session) or both (all); refuses, changing nothing, when you edited a file since',
    input: { hint: '[files|session|all] [turn: number, id or last; default last]' },
  },
  { name: 'checkpoints', description: "This session's restore points, one per turn" },
  { name: 'diff', description: 'What a turn changed in one file', input: { hint: '<turn> <path>' } },
];

const PLAIN = terminalStyle(new Writable(), { NO_COLOR: '1' });
const SCOPES = new Set<string>(['files', 'session', 'all']);

/** Whether a prompt is one of our slash commands (anything else goes to the model). */
export function isSlashCommand(prompt: string): boolean {
  const name = /^\/(\S+)/.exec(prompt.trim())?.[1];
  return name !== undefined && ACP_SLASH_COMMANDS.some((command) => command.name === name);
}

function conflictText(error: unknown): string | undefined {
  const conflicts = undoConflictsOf(error);
  if (conflicts === undefined) return undefined;
  return [
    `Nothing was undone: ${(error as Error).message}`,
    'Files changed since the agent wrote them:',
    ...conflicts.map((conflict) => `- ${conflict.path} (${conflict.reason})`),
  ].join('\n');
}

async function undo(core: AgentCore, sessionId: string, words: readonly string[]): Promise<string> {
  const scope = (SCOPES.has(words[0] ?? '') ? words[0] : 'files') as RestoreScope;
  const rest = SCOPES.has(words[0] ?? '') ? words.slice(1) : words;
  if (rest.length > 1) return 'Usage: /undo [files|session|all] [turn]';
  const turns = await core.listTurns(sessionId);
  if (turns.length === 0 && rest.length === 0) return 'This session has no turn to undo.';
  const turnId = await resolveTurn(core, sessionId, rest[0] ?? 'last');
  try {
    const result = await core.restore(sessionId, turnId, scope);
    const lines = [`Undid turn ${turnId} (${scope}).`];
    if (scope !== 'session') {
      if (result.restoredPaths.length === 0) lines.push('- no files to put back');
      for (const path of result.restoredPaths) lines.push(`- restored ${path}`);
    }
    if (result.messageCount !== undefined)
      lines.push(
        `The conversation now has ${result.messageCount} message(s); the editor still shows the old transcript until the session is loaded again.`,
      );
    return lines.join('\n');
  } catch (error) {
    const conflict = conflictText(error);
    if (conflict) return conflict;
    throw error;
  }
}

/**
 * Runs a slash command typed in the editor and returns the text to show. Errors a person can act
 * on (an unknown turn, a refused undo) come back as text; the session itself is not changed by
 * `/checkpoints` and `/diff`, and `/undo` goes through core's restore like `clawsmith undo`.
 */
export async function runSlashCommand(core: AgentCore, sessionId: string, prompt: string): Promise<string> {
  const [name = '', ...words] = prompt.trim().split(/\s+/);
  try {
    switch (name) {
      case '/undo':
        return await undo(core, sessionId, words);
      case '/checkpoints': {
        const turns = await checkpointTurns(core, sessionId);
        return checkpointLines(await core.listCheckpoints(sessionId), turns, PLAIN);
      }
      case '/diff': {
        if (words.length < 2) return 'Usage: /diff <turn> <path>';
        const turnId = await resolveTurn(core, sessionId, words[0]!);
        return `\`\`\`diff\n${formatDiff(await core.diff(sessionId, turnId, words.slice(1).join(' ')))}\n\`\`\``;
      }
      default:
        return `Unknown command ${name}.`;
    }
  } catch (error) {
    if (ClawsmithError.isInstance(error)) return `${error.message} [${error.code}]`;
    throw error;
  }
}
