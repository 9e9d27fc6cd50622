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
  /** An earlier restore already took this turn out of the conversation; only its files are left to put back. */
  readonly conversationCut: boolean;
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
  /**
   * Turn N and every later one, then (when files go back) the turns an earlier conversation
   * restore cut whose files are still in place and came after turn N; in the order they ran.
   */
  readonly turns: readonly RestoredTurn[];
  /** Every file that will be put back (scope files or all), sorted, each once. */
  readonly files: readonly string[];
  /** Whether the conversation goes back too (scope session or all). */
  readonly cutsConversation: boolean;
}

const putsFilesBack = (scope: RestoreScope) => scope === 'files' || scope === 'all';

// The order turns ran in: their restore points' creation order (ordinals repeat after a
// conversation restore, when the next turn takes the cut one's number), else the ordinal.
const ranOrder = (turn: TurnSummary) => turn.checkpoint?.sequence ?? turn.ordinal;

/**
 * What restoring `scope` to before `turn` changes, given the session's turns and those an earlier
 * conversation restore cut: the checkpoint store reverts every restore point from this turn's
 * on that is not undone yet, cut turns' included, so those are listed too.
 */
export function restorePlan(
  turn: TurnSummary,
  allTurns: readonly TurnSummary[],
  scope: RestoreScope,
  cutTurns: readonly TurnSummary[] = [],
): RestorePlan {
  const live = allTurns.filter((candidate) => candidate.ordinal >= turn.ordinal);
  if (!live.some((candidate) => candidate.turnId === turn.turnId)) live.push(turn);
  const from = turn.checkpoint?.sequence;
  const cut =
    putsFilesBack(scope) && from !== undefined
      ? cutTurns.filter((candidate) => candidate.checkpoint && candidate.checkpoint.sequence >= from)
      : [];
  const described = (candidate: TurnSummary, conversationCut: boolean): RestoredTurn => ({
    turnId: candidate.turnId,
    ordinal: candidate.ordinal,
    prompt: candidate.prompt,
    // A turn whose files were already put back has nothing left to revert.
    files:
      putsFilesBack(scope) && candidate.checkpoint && !candidate.checkpoint.undone
        ? candidate.checkpoint.files.map((file) => file.path)
        : [],
    conversationCut,
  });
  const turns = [
    ...live.map((candidate) => ({ order: ranOrder(candidate), turn: described(candidate, false) })),
    ...cut.map((candidate) => ({ order: ranOrder(candidate), turn: described(candidate, true) })),
  ]
    .sort((left, right) => left.order - right.order)
    .map((entry) => entry.turn);
  const files = [...new Set(turns.flatMap((candidate) => candidate.files))].sort();
  return { scope, ordinal: turn.ordinal, turns, files, cutsConversation: scope !== 'files' };
}

const inConversation = (plan: RestorePlan) => plan.turns.filter((candidate) => !candidate.conversationCut);

function turnRange(plan: RestorePlan): string {
  const last = inConversation(plan).at(-1)?.ordinal ?? plan.ordinal;
  return last === plan.ordinal ? `turn ${plan.ordinal}` : `turns ${plan.ordinal}–${last}`;
}

/** The sentence about cut turns whose files go back too, or '' when there are none. */
function cutTurnsPart(plan: RestorePlan): string {
  const cut = plan.turns.filter((candidate) => candidate.conversationCut && candidate.files.length > 0);
  if (cut.length === 0) return '';
  const named = cut.map((candidate) => `turn ${candidate.ordinal} "${candidate.prompt.slice(0, 60)}"`).join(', ');
  return ` This includes the files of ${count(cut.length, 'turn')} an earlier restore took out of the conversation: ${named}.`;
}

const count = (amount: number, noun: string) => `${amount} ${amount === 1 ? noun : `${noun}s`}`;

/** The plan in sentences, said before the restore happens. */
export function restoreConsequence(plan: RestorePlan): string {
  const range = turnRange(plan);
  const scopeOfTurns =
    inConversation(plan).length > 1 ? `This undoes ${range}: this turn and every later one.` : `This undoes ${range}.`;
  const filePart = !putsFilesBack(plan.scope)
    ? 'Files stay as they are.'
    : plan.files.length === 0
      ? `No file changed in ${range}, so no file will change.`
      : `${count(plan.files.length, 'file')} will be put back as they were before turn ${plan.ordinal}: ${plan.files.join(', ')}.${cutTurnsPart(plan)}`;
  const conversationPart = plan.cutsConversation
    ? `The conversation will go back to before turn ${plan.ordinal}: ${range} ${inConversation(plan).length > 1 ? 'leave' : 'leaves'} the transcript.`
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
