import { useState } from 'react';
import { ApiError, sendJson, sessionPath } from '../api/api-client';
import type { RestoreScope, TurnSummary } from '../api/api-types';
import { ErrorNotice } from '../app/error-notice';
import { LiteralText } from '../display/literal-text';
import { RESTORE_SCOPES, restoreConsequence } from './restore-scope';

type Stage =
  | { readonly step: 'choose' }
  | { readonly step: 'confirm' }
  | { readonly step: 'done'; readonly restoredPaths: readonly string[] }
  | { readonly step: 'conflict'; readonly paths: readonly string[] }
  | { readonly step: 'failed'; readonly error: unknown };

/** Restore to before a turn: pick the scope, read what will change, confirm; a refusal lists the conflicting paths. */
export function RestoreControls({ sessionId, turn }: { sessionId: string; turn: TurnSummary }) {
  const [scope, setScope] = useState<RestoreScope>('all');
  const [stage, setStage] = useState<Stage>({ step: 'choose' });
  const restore = () =>
    sendJson<{ restoredPaths: string[] }>(sessionPath(sessionId, `/turns/${encodeURIComponent(turn.turnId)}/restore`), {
      scope,
    }).then(
      (answer) => setStage({ step: 'done', restoredPaths: answer.restoredPaths }),
      (error: unknown) => {
        if (error instanceof ApiError && error.code === 'checkpoint_conflict') {
          const conflicts = (error.details.conflicts ?? []) as { path: string }[];
          setStage({ step: 'conflict', paths: conflicts.map((conflict) => conflict.path) });
        } else setStage({ step: 'failed', error });
      },
    );
  const name = `restore-scope-${turn.turnId}`;
  return (
    <div className="restore">
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
        <button type="button" onClick={() => setStage({ step: 'confirm' })}>
          Restore…
        </button>
      </fieldset>
      {stage.step === 'confirm' && (
        <div className="confirm" role="alertdialog" aria-label="Confirm restore">
          <p>
            <LiteralText text={restoreConsequence(turn, scope)} />
          </p>
          <button type="button" className="danger" onClick={restore}>
            Confirm restore
          </button>{' '}
          <button type="button" onClick={() => setStage({ step: 'choose' })}>
            Cancel
          </button>
        </div>
      )}
      {stage.step === 'done' && (
        <p role="status" className="restored">
          Restored. {stage.restoredPaths.length} {stage.restoredPaths.length === 1 ? 'file' : 'files'} put back.
        </p>
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
