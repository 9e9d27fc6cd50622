import type { RestoreScope } from '../api/api-types';
import { LiteralText } from '../display/literal-text';
import type { RestoredTurn } from './restore-scope';
import { restoreIrreversibility } from './restore-scope';

/** What a restore did, kept by the session view after the restored turn's card is gone. */
export interface RestoreOutcome {
  readonly ordinal: number;
  readonly scope: RestoreScope;
  readonly turns: readonly RestoredTurn[];
  readonly restoredPaths: readonly string[];
}

const SCOPE_WORDS: Record<RestoreScope, string> = {
  files: 'the files',
  session: 'the conversation',
  all: 'the files and the conversation',
};

/** The result of the last restore with the files it put back; stays until the person dismisses it. */
export function RestoreOutcomeNotice({ outcome, onDismiss }: { outcome: RestoreOutcome; onDismiss: () => void }) {
  const paths = outcome.restoredPaths;
  const last = outcome.turns.filter((turn) => !turn.conversationCut).at(-1)?.ordinal ?? outcome.ordinal;
  const range = last === outcome.ordinal ? `turn ${outcome.ordinal}` : `turns ${outcome.ordinal}–${last}`;
  return (
    <section role="status" className="restored" aria-label="Restore result">
      <p>
        Restored {SCOPE_WORDS[outcome.scope]} to before turn {outcome.ordinal} ({range} undone).
        {outcome.scope !== 'session' && (
          <>
            {' '}
            {paths.length} {paths.length === 1 ? 'file' : 'files'} put back{paths.length > 0 ? ':' : '.'}
          </>
        )}
      </p>
      {outcome.scope !== 'session' && paths.length > 0 && (
        <ul aria-label="Files put back">
          {paths.map((path) => (
            <li key={path}>
              <LiteralText text={path} limit={500} />
            </li>
          ))}
        </ul>
      )}
      <p className="notice">{restoreIrreversibility(outcome.scope, 'after')}</p>
      <button type="button" onClick={onDismiss}>
        Dismiss
      </button>
    </section>
  );
}
