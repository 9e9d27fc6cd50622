import type { RestoreScope } from '@clawsmith/core';

/** A slash command typed in the interactive session. */
export type SlashCommand =
  | { readonly kind: 'undo'; readonly scope: RestoreScope; readonly turn: string }
  /** `/undo` alone: the last turn, files and conversation, after a confirmation listing what it puts back. */
  | { readonly kind: 'undo-last' }
  | { readonly kind: 'diff'; readonly turn: string; readonly path: string }
  | { readonly kind: 'checkpoints' }
  | { readonly kind: 'todos' }
  | { readonly kind: 'compact' }
  | { readonly kind: 'sessions' }
  | { readonly kind: 'help' }
  | { readonly kind: 'exit' }
  | { readonly kind: 'invalid'; readonly message: string };

/** The help text of the interactive session. */
export const SLASH_HELP = [
  'Slash commands (a turn is its id, its number in the session, or "last"):',
  '  /undo                      undo the last turn (files and conversation), after saying what it puts back',
  '  /undo <turn>               put back the files that turn (and every later one) changed',
  '  /undo session <turn>       cut the conversation back to before that turn',
  '  /undo all <turn>           both: files (checked first), then the conversation',
  '  /undo diff <turn> <path>   what that turn changed in one file',
  '  /checkpoints               restore points of this session',
  '  /todos                     the todo list',
  '  /compact                   shrink what the model is sent now (old tool results, then a summary); the record keeps all',
  '  /sessions                  every session in this home',
  '  /help                      this list',
  '  /exit                      leave (Ctrl-C twice also leaves; once cancels a running turn)',
].join('\n');

const SCOPES = new Set(['files', 'session', 'all']);

/** Parses a line that starts with `/`; anything malformed is `invalid` with a message saying what to type. */
export function parseSlashCommand(line: string): SlashCommand {
  const [name = '', ...words] = line.trim().split(/\s+/);
  switch (name) {
    case '/undo': {
      if (words[0] === 'diff') {
        if (words.length < 3) return { kind: 'invalid', message: 'Usage: /undo diff <turn> <path>' };
        return { kind: 'diff', turn: words[1]!, path: words.slice(2).join(' ') };
      }
      if (words[0] !== undefined && SCOPES.has(words[0])) {
        if (words.length !== 2) return { kind: 'invalid', message: `Usage: /undo ${words[0]} <turn>` };
        return { kind: 'undo', scope: words[0] as RestoreScope, turn: words[1]! };
      }
      if (words.length === 0) return { kind: 'undo-last' };
      if (words.length !== 1)
        return {
          kind: 'invalid',
          message: 'Usage: /undo <turn>, /undo session <turn>, /undo all <turn>, /undo diff <turn> <path>',
        };
      return { kind: 'undo', scope: 'files', turn: words[0]! };
    }
    case '/checkpoints':
    case '/todos':
    case '/compact':
    case '/sessions':
    case '/help':
      return words.length === 0
        ? { kind: name.slice(1) as 'checkpoints' | 'todos' | 'compact' | 'sessions' | 'help' }
        : { kind: 'invalid', message: `${name} takes no arguments.` };
    case '/exit':
    case '/quit':
      return { kind: 'exit' };
    default:
      return { kind: 'invalid', message: `Unknown command ${name}; /help lists them.` };
  }
}

/** A typed answer to an approval prompt: `allow`, `deny`, `allow-session`, or undefined to ask again. */
export function parseApprovalAnswer(line: string): 'allow' | 'deny' | 'allow-session' | undefined {
  const answer = line.trim().toLowerCase();
  if (answer === 'y' || answer === 'yes') return 'allow';
  if (answer === 'n' || answer === 'no' || answer === '') return 'deny';
  if (answer === 'a' || answer === 'always') return 'allow-session';
  return undefined;
}

/** A typed answer to a yes/no question whose default is no: only `y` or `yes` says yes. */
export function confirmed(line: string | null): boolean {
  const answer = line?.trim().toLowerCase();
  return answer === 'y' || answer === 'yes';
}
