import type { DatabaseHandle } from '@clawsmith/platform';
import type { ArtifactStore } from '@clawsmith/artifacts';
import { DEFAULT_ARTIFACT_RETENTION } from '@clawsmith/artifacts';
import { DEFAULT_CHECKPOINT_RETENTION, type CheckpointStore } from '@clawsmith/checkpoints';
import { coreDatabase } from '../store/open-database.js';
import type { SessionStore } from '../store/session-store.js';
import { retentionSummary, runRetention, type HomeRetentionPolicy } from './home-retention.js';

/** When retention runs on its own, and by which policy. */
export interface RetentionScheduleOptions extends HomeRetentionPolicy {
  /** Least time between two runs started by turns (over all processes on the home); default one hour. */
  readonly intervalMs?: number;
}

/** The stores a schedule prunes and the database it claims runs in. */
export interface RetentionStores {
  readonly db: DatabaseHandle;
  readonly store: SessionStore;
  readonly checkpoints: CheckpointStore;
  readonly artifacts?: ArtifactStore;
}

/** Over-quota sessions start a run sooner, but a session kept over quota by its newest points must not run it every turn. */
const QUOTA_GAP_MS = 60_000;
const DEFAULT_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Runs retention in the background after a turn: at most once per interval over every process
 * sharing the home (claimed by one conditional update of `core_maintenance`), or sooner when
 * the turn's session went over a per-session quota. The result is a `retention.completed` (or
 * `retention.failed`) event of that session; a failure never reaches the turn.
 */
export class RetentionSchedule {
  readonly #stores: RetentionStores;
  readonly #options: RetentionScheduleOptions;
  #running: Promise<void> | undefined;

  constructor(stores: RetentionStores, options: RetentionScheduleOptions = {}) {
    this.#stores = stores;
    this.#options = options;
  }

  /** Starts a run in the background when one is due; never throws, never waits. */
  afterTurn(sessionId: string): void {
    if (this.#running) return;
    this.#running = this.#maybeRun(sessionId).finally(() => {
      this.#running = undefined;
    });
  }

  /** Resolves when no run is in progress (the core awaits it before closing). */
  async idle(): Promise<void> {
    await this.#running;
  }

  async #maybeRun(sessionId: string): Promise<void> {
    const { store } = this.#stores;
    let reason: 'interval' | 'quota' = 'interval';
    try {
      const interval = this.#options.intervalMs ?? DEFAULT_INTERVAL_MS;
      // One key lookup first: within the shorter gap of a run no reason can claim another, so the
      // session's byte totals are not summed after every turn.
      if (Date.now() - (await this.#lastRunAt()) < Math.min(QUOTA_GAP_MS, interval)) return;
      reason = (await this.#overQuota(sessionId)) ? 'quota' : 'interval';
      const gap = reason === 'quota' ? Math.min(QUOTA_GAP_MS, interval) : interval;
      if (!(await this.#claim(gap))) return;
      const report = await runRetention({ ...this.#stores, policy: this.#options });
      await store.appendEvent(sessionId, { type: 'retention.completed', reason, ...retentionSummary(report) });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await store.appendEvent(sessionId, { type: 'retention.failed', reason, message }).catch(() => undefined);
    }
  }

  async #overQuota(sessionId: string): Promise<boolean> {
    const checkpointQuota =
      this.#options.checkpoints?.maxBytesPerSession ?? DEFAULT_CHECKPOINT_RETENTION.maxBytesPerSession;
    if ((await this.#stores.checkpoints.sessionBytes(sessionId)) > checkpointQuota) return true;
    if (!this.#stores.artifacts) return false;
    const artifactQuota = this.#options.artifacts?.maxBytesPerSession ?? DEFAULT_ARTIFACT_RETENTION.maxBytesPerSession;
    return (await this.#stores.artifacts.sessionBytes(sessionId)) > artifactQuota;
  }

  async #lastRunAt(): Promise<number> {
    const row = await coreDatabase(this.#stores.db)
      .selectFrom('core_maintenance')
      .select('last_run_at')
      .where('name', '=', 'retention')
      .executeTakeFirst();
    return row?.last_run_at ?? 0;
  }

  async #claim(gapMs: number): Promise<boolean> {
    const now = Date.now();
    const claimed = await coreDatabase(this.#stores.db)
      .updateTable('core_maintenance')
      .set({ last_run_at: now })
      .where('name', '=', 'retention')
      .where('last_run_at', '<=', now - gapMs)
      .executeTakeFirst();
    return Number(claimed.numUpdatedRows) === 1;
  }
}
