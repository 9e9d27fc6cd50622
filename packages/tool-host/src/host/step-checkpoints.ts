import { randomUUID } from 'node:crypto';
import type { CheckpointStore, TurnCheckpoint } from '@clawsmith/checkpoints';

/**
 * The host's restore points: one per step a caller opens (`begin`/`end`), or, for a call made
 * while no step is open, one for that call alone.
 */
export class StepCheckpoints {
  private open: Promise<TurnCheckpoint> | undefined;

  constructor(
    private readonly checkpoints: CheckpointStore,
    readonly sessionId: string,
    private readonly workspaceRoot: string,
  ) {}

  /** Opens a step (ending an open one first); returns its restore point's turn id. */
  begin(): Promise<string> {
    const previous = this.open;
    // Set before anything is awaited, so a call that comes in meanwhile joins the new step.
    const opening = (async () => {
      if (previous) await (await previous).complete();
      return this.start();
    })();
    this.open = opening;
    return opening.then((checkpoint) => checkpoint.turnId);
  }

  /** Ends the open step, if any: its manifest is written and it can be undone. */
  async end(): Promise<void> {
    const open = this.open;
    this.open = undefined;
    if (open) await (await open).complete();
  }

  /** Runs `work` in the open step, or in a restore point of its own that ends with it. */
  async within<T>(work: (checkpoint: TurnCheckpoint) => Promise<T>): Promise<T> {
    if (this.open) return work(await this.open);
    const own = await this.start();
    try {
      return await work(own);
    } finally {
      await own.complete();
    }
  }

  private start(): Promise<TurnCheckpoint> {
    return this.checkpoints.beginTurn({
      sessionId: this.sessionId,
      turnId: randomUUID(),
      workspaceRoot: this.workspaceRoot,
    });
  }
}
