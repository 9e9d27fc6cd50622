import { useEffect, useRef, useState } from 'react';
import { ApiError, sendJson, sessionPath } from '../api/api-client';
import type { RestoreScope, TurnSummary } from '../api/api-types';
import { ErrorNotice } from '../app/error-notice';
import { LiteralText } from '../display/literal-text';
import { RESTORE_SCOPES, restoreConsequence, restoreIrreversibility, restorePlan } from './restore-scope';
import type { RestoreOutcome } from './restore-outcome';

type Stage =
  | { readonly step: 'choose' }
  | { readonly step: 'confirm' }
  | { readonly step: 'conflict'; readonly paths: readonly string[] }
  | { readonly step: 'failed'; readonly error: unknown };

/**
 * Restore to before a turn: pick the scope, read every turn and file that will change (this turn
 * and all later ones), confirm. The outcome goes to `onRestored`, which keeps it in view after this
 * card leaves the transcript; a refusal lists the conflicting paths here.
 */
export function RestoreControls({
  sessionId,
  turn,
  allTurns,
  cutTurns,
  onRestored,
}: {
  sessionId: string;
  turn: TurnSummary;
  allTurns: readonly TurnSummary[];
  cutTurns: readonly TurnSummary[];
  onRestored: (outcome: RestoreOutcome) => void;
}) {
  // When no file of this turn or a later one can be put back, only the conversation can be restored.
  const filesToRestore = restorePlan(turn, allTurns, 'files', cutTurns).files.length > 0;
  const [chosenScope, setScope] = useState<RestoreScope>('all');
  const scope = filesToRestore ? chosenScope : 'session';
  const [stage, setStage] = useState<Stage>({ step: 'choose' });
  const [sending, setSending] = useState(false);
  const confirmation = useRef<HTMLDivElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const cancelled = useRef(false);
  useEffect(() => {
    // The card may sit low in the transcript: bring the question to the person (focus scrolls it into view).
    if (stage.step === 'confirm') confirmation.current?.focus();
    // Cancelled (Escape or the button): focus goes back to where the question was asked, not to the page's top.
    if (stage.step === 'choose' && cancelled.current) {
      cancelled.current = false;
      opener.current?.focus();
    }
  }, [stage.step]);
  const cancel = () => {
    cancelled.current = true;
    setStage({ step: 'choose' });
  };
  const plan = restorePlan(turn, allTurns, scope, cutTurns);
  const restore = () => {
    setSending(true);
    sendJson<{ restoredPaths: string[] }>(sessionPath(sessionId, `/turns/${encodeURIComponent(turn.turnId)}/restore`), {
      scope,
    })
      .then(
        (answer) => {
          setStage({ step: 'choose' });
          onRestored({ ordinal: turn.ordinal, scope, turns: plan.turns, restoredPaths: answer.restoredPaths });
        },
        (error: unknown) => {
          if (error instanceof ApiError && error.code === 'checkpoint_conflict') {
            const conflicts = (error.details.conflicts ?? []) as { path: string }[];
            setStage({ step: 'conflict', paths: conflicts.map((conflict) => conflict.path) });
          } else setStage({ step: 'failed', error });
        },
      )
      .finally(() => setSending(false));
  };
  const name = `restore-scope-${turn.turnId}`;
  return (
    <div className="restore">
      {!filesToRestore ? (
        <button ref={opener} type="button" onClick={() => setStage({ step: 'confirm' })}>
          Restore the conversation to before turn {turn.ordinal}…
        </button>
      ) : (
        <fieldset>
          <legend>Restore to before turn {turn.ordinal}</legend>
          {RESTORE_SCOPES.map((option) => (
            <label key={option.scope}>
              <input
                type="radio"
                name={name}
                value={option.scope}
                checked={scope === option.scope}
                onChange={() => {
                  setScope(option.scope);
                  setStage({ step: 'choose' });
                }}
              />{' '}
              {option.label}
            </label>
          ))}
          <button ref={opener} type="button" onClick={() => setStage({ step: 'confirm' })}>
            Restore…
          </button>
        </fieldset>
      )}
      {stage.step === 'confirm' && (
        <div
          ref={confirmation}
          className="confirm"
          role="alertdialog"
          aria-label="Confirm restore"
          tabIndex={-1}
          onKeyDown={(event) => {
            if (event.key === 'Escape') cancel();
          }}
        >
          <p>
            <LiteralText text={restoreConsequence(plan)} />
          </p>
          <ul className="restore-turns" aria-label="Turns this restore undoes">
            {plan.turns.map((undone) => (
              <li key={undone.turnId}>
                Turn {undone.ordinal}
                {undone.conversationCut && ' (already taken out of the conversation by an earlier restore)'}:{' '}
                <LiteralText text={undone.prompt} limit={120} />
                {undone.files.length > 0 && (
                  <>
                    {' '}
                    — puts back{' '}
                    <span className="restore-files">
                      <LiteralText text={undone.files.join(', ')} limit={2_000} />
                    </span>
                  </>
                )}
              </li>
            ))}
          </ul>
          <p className="notice">{restoreIrreversibility(scope, 'before')}</p>
          <button type="button" className="danger" onClick={restore} disabled={sending}>
            Confirm restore
          </button>{' '}
          <button type="button" onClick={cancel}>
            Cancel
          </button>
        </div>
      )}
      {stage.step === 'conflict' && (
        <div role="alert" className="conflict">
          <p>
            Nothing was restored: these files changed after the turn (someone edited them). Save your edits elsewhere or
            undo them first:
          </p>
          <ul aria-label="Conflicting paths">
            {stage.paths.map((path) => (
              <li key={path}>
                <LiteralText text={path} limit={500} />
              </li>
            ))}
          </ul>
        </div>
      )}
      {stage.step === 'failed' && <ErrorNotice error={stage.error} />}
    </div>
  );
}
