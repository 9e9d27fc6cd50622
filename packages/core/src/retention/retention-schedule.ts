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
/** Sessions remembered under quota before the expired ones are dropped. */
const REMEMBERED_SESSIONS = 1000;

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
  /** When each session was last found under its quotas by this process (epoch ms). */
  readonly #underQuotaAt = new Map<string, number>();

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
      const quotaGap = Math.min(QUOTA_GAP_MS, interval);
      // One key lookup first: within the shorter gap of a run no reason can claim another, so the
      // session's byte totals are not summed after every turn.
      const sinceLastRun = Date.now() - (await this.#lastRunAt());
      if (sinceLastRun < quotaGap) return;
      reason = (await this.#overQuota(sessionId, quotaGap)) ? 'quota' : 'interval';
      const gap = reason === 'quota' ? quotaGap : interval;
      // Not due: the claim would match nothing (and still take the write lock).
      if (sinceLastRun < gap) return;
      if (!(await this.#claim(gap))) return;
      const report = await runRetention({ ...this.#stores, policy: this.#options });
      await store.appendEvent(sessionId, { type: 'retention.completed', reason, ...retentionSummary(report) });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await store.appendEvent(sessionId, { type: 'retention.failed', reason, message }).catch(() => undefined);
    }
  }

  /**
   * Whether the session holds more than a quota. The totals are sums over every restore point and
   * artifact of the session, so a session found under its quotas is not summed again for
   * `recheckMs` (the quota gap): between the gap and the interval after a run, a long session (an
   * MCP connection makes one turn per call) would otherwise sum its whole history after every
   * turn. A session that grows past a quota starts its run at most one gap later.
   */
  async #overQuota(sessionId: string, recheckMs: number): Promise<boolean> {
    const checkedAt = this.#underQuotaAt.get(sessionId);
    if (checkedAt !== undefined && Date.now() - checkedAt < recheckMs) return false;
    const over = await this.#sumsOverQuota(sessionId);
    if (over) this.#underQuotaAt.delete(sessionId);
    else this.#rememberUnderQuota(sessionId, recheckMs);
    return over;
  }

  async #sumsOverQuota(sessionId: string): Promise<boolean> {
    const checkpointQuota =
      this.#options.checkpoints?.maxBytesPerSession ?? DEFAULT_CHECKPOINT_RETENTION.maxBytesPerSession;
    if ((await this.#stores.checkpoints.sessionBytes(sessionId)) > checkpointQuota) return true;
    if (!this.#stores.artifacts) return false;
    const artifactQuota = this.#options.artifacts?.maxBytesPerSession ?? DEFAULT_ARTIFACT_RETENTION.maxBytesPerSession;
    return (await this.#stores.artifacts.sessionBytes(sessionId)) > artifactQuota;
  }

  #rememberUnderQuota(sessionId: string, recheckMs: number): void {
    const now = Date.now();
    // A process that serves many sessions (clawsmith web) forgets the expired ones.
    if (this.#underQuotaAt.size >= REMEMBERED_SESSIONS)
      for (const [id, at] of this.#underQuotaAt) if (now - at >= recheckMs) this.#underQuotaAt.delete(id);
    this.#underQuotaAt.set(sessionId, now);
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
