import type { TurnSummary } from '../api/api-types';
import type { TurnUsage } from '../transcript/transcript-items';
import { FileDiffRow } from './file-diff-row';
import { RestoreControls } from './restore-controls';
import type { RestoreOutcome } from './restore-outcome';
import { wholeNumber } from '../display/whole-number';

/** A finished turn's checkpoint: its manifest (paths, +/- lines), lazy diffs, restore and fork. */
export function CheckpointCard({
  sessionId,
  turn,
  status,
  usage,
  allTurns,
  cutTurns,
  onFork,
  onRestored,
}: {
  sessionId: string;
  turn: TurnSummary | undefined;
  status: string;
  usage?: TurnUsage;
  allTurns: readonly TurnSummary[];
  cutTurns: readonly TurnSummary[];
  onFork: (turnId: string) => void;
  onRestored: (outcome: RestoreOutcome) => void;
}) {
  if (!turn) return <p className="notice">Turn finished ({status}).</p>;
  const checkpoint = turn.checkpoint;
  const totals = checkpoint?.totals;
  return (
    <section className="card checkpoint" aria-label={`Checkpoint of turn ${turn.ordinal}`}>
      <header>
        <h3>Checkpoint · turn {turn.ordinal}</h3> <span className={`badge status-${turn.status}`}>{turn.status}</span>
        {checkpoint?.undone && <span className="badge undone">restored</span>}{' '}
        {totals && (
          <span className="totals">
            {totals.files} {totals.files === 1 ? 'file' : 'files'}{' '}
            <span className="added-count">+{totals.linesAdded}</span>{' '}
            <span className="removed-count">−{totals.linesRemoved}</span>
          </span>
        )}
        {usage && usage.inputTokens + usage.outputTokens > 0 && <TokenUsage usage={usage} />}
      </header>
      {checkpoint && checkpoint.files.length > 0 && (
        <ul className="files" aria-label="Changed files">
          {checkpoint.files.map((file) => (
            <FileDiffRow key={file.path} sessionId={sessionId} turnId={turn.turnId} file={file} />
          ))}
        </ul>
      )}
      {checkpoint && !checkpoint.undone && (
        <RestoreControls
          sessionId={sessionId}
          turn={turn}
          allTurns={allTurns}
          cutTurns={cutTurns}
          onRestored={onRestored}
        />
      )}
      <button type="button" onClick={() => onFork(turn.turnId)}>
        Fork after turn {turn.ordinal}
      </button>
    </section>
  );
}

/** The turn's tokens: input (of which read from the prompt cache) and output. */
function TokenUsage({ usage }: { usage: TurnUsage }) {
  const count = wholeNumber;
  const cached = usage.cacheReadTokens ?? 0;
  return (
    <span className="token-usage" title="Tokens this turn's model requests used">
      {count(usage.inputTokens)} tokens in{cached > 0 ? ` (${count(cached)} from cache)` : ''},{' '}
      {count(usage.outputTokens)} out
    </span>
  );
}
