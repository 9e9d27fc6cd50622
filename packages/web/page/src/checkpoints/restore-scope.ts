import type { RestoreScope, TurnSummary } from '../api/api-types';

/** The scopes offered on a checkpoint card, as the person reads them. */
export const RESTORE_SCOPES: readonly { readonly scope: RestoreScope; readonly label: string }[] = [
  { scope: 'session', label: 'Conversation' },
  { scope: 'files', label: 'Files' },
  { scope: 'all', label: 'Both' },
];

/** What a restore of `scope` to before `turn` will change, said before it happens. */
export function restoreConsequence(turn: TurnSummary, scope: RestoreScope): string {
  const files = turn.checkpoint?.files.map((file) => file.path) ?? [];
  const filePart =
    files.length === 0
      ? 'No file changed in this turn, so no file will change.'
      : `${files.length} ${files.length === 1 ? 'file' : 'files'} will be put back as they were before turn ${turn.ordinal}: ${files.join(', ')}.`;
  const conversationPart = `The conversation will go back to before turn ${turn.ordinal}: this turn and every later one leave the transcript.`;
  if (scope === 'files') return `${filePart} The conversation stays as it is.`;
  if (scope === 'session') return `${conversationPart} Files stay as they are.`;
  return `${filePart} ${conversationPart}`;
}
