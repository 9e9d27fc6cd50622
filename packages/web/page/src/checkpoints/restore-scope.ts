import type { RestoreScope, TurnSummary } from '../api/api-types';

/** The scopes offered on a checkpoint card, as the person reads them. */
export const RESTORE_SCOPES: readonly { readonly scope: RestoreScope; readonly label: string }[] = [
  { scope: 'session', label: 'Conversation' },
  { scope: 'files', label: 'Files' },
  { scope: 'all', label: 'Both' },
];

/** One turn a restore takes back, with the files of it that will be put back. */
export interface RestoredTurn {
  readonly turnId: string;
  readonly ordinal: number;
  readonly prompt: string;
  readonly files: readonly string[];
}

/**
 * Everything a restore to before a turn will change. Restoring to before turn N undoes turns
 * N..last (the checkpoint store reverts every later turn not undone yet), so the plan lists each of
 * them, not only turn N.
 */
export interface RestorePlan {
  readonly scope: RestoreScope;
  /** The turn restored to before. */
  readonly ordinal: number;
  /** Turn N and every later one, oldest first. */
  readonly turns: readonly RestoredTurn[];
  /** Every file that will be put back (scope files or all), sorted, each once. */
  readonly files: readonly string[];
  /** Whether the conversation goes back too (scope session or all). */
  readonly cutsConversation: boolean;
}

const putsFilesBack = (scope: RestoreScope) => scope === 'files' || scope === 'all';

/** What restoring `scope` to before `turn` changes, given all the session's turns. */
export function restorePlan(turn: TurnSummary, allTurns: readonly TurnSummary[], scope: RestoreScope): RestorePlan {
  const affected = [...allTurns]
    .filter((candidate) => candidate.ordinal >= turn.ordinal)
    .sort((left, right) => left.ordinal - right.ordinal);
  if (!affected.some((candidate) => candidate.turnId === turn.turnId)) affected.unshift(turn);
  const turns = affected.map((candidate) => ({
    turnId: candidate.turnId,
    ordinal: candidate.ordinal,
    prompt: candidate.prompt,
    // A turn whose files were already put back has nothing left to revert.
    files:
      putsFilesBack(scope) && candidate.checkpoint && !candidate.checkpoint.undone
        ? candidate.checkpoint.files.map((file) => file.path)
        : [],
  }));
  const files = [...new Set(turns.flatMap((candidate) => candidate.files))].sort();
  return { scope, ordinal: turn.ordinal, turns, files, cutsConversation: scope !== 'files' };
}

function turnRange(plan: RestorePlan): string {
  const last = plan.turns.at(-1)?.ordinal ?? plan.ordinal;
  return last === plan.ordinal ? `turn ${plan.ordinal}` : `turns ${plan.ordinal}–${last}`;
}

const count = (amount: number, noun: string) => `${amount} ${amount === 1 ? noun : `${noun}s`}`;

/** The plan in sentences, said before the restore happens. */
export function restoreConsequence(plan: RestorePlan): string {
  const range = turnRange(plan);
  const scopeOfTurns =
    plan.turns.length > 1 ? `This undoes ${range}: this turn and every later one.` : `This undoes ${range}.`;
  const filePart = !putsFilesBack(plan.scope)
    ? 'Files stay as they are.'
    : plan.files.length === 0
      ? `No file changed in ${range}, so no file will change.`
      : `${count(plan.files.length, 'file')} will be put back as they were before turn ${plan.ordinal}: ${plan.files.join(', ')}.`;
  const conversationPart = plan.cutsConversation
    ? `The conversation will go back to before turn ${plan.ordinal}: ${range} ${plan.turns.length > 1 ? 'leave' : 'leaves'} the transcript.`
    : 'The conversation stays as it is.';
  return `${scopeOfTurns} ${filePart} ${conversationPart}`;
}

/**
 * Why a restore cannot be taken back from the page: the checkpoint store keeps the files as they
 * were before each turn, not a way forward again, and a conversation restore deletes the later
 * messages. Said before (with how to keep a copy) and after, so nobody restores expecting an undo.
 */
export function restoreIrreversibility(scope: RestoreScope, when: 'before' | 'after'): string {
  if (when === 'after') return 'This restore cannot be undone: the store keeps no way back to the state before it.';
  const keep = {
    files: 'copy the files elsewhere first if you may want them back',
    session: 'fork the session first to keep the conversation as it is',
    all: 'fork the session first to keep the conversation, and copy the files elsewhere if you may want them back',
  }[scope];
  return `A restore cannot be undone: the store keeps no way back to how things are now. To keep a copy, ${keep}.`;
}
