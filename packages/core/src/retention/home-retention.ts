import type { NewSessionEventOf } from '@clawsmith/session-protocol';
import type { ArtifactPruneResult, ArtifactStore } from '@clawsmith/artifacts';
import type { CheckpointPruneResult, CheckpointStore, RetentionPolicy } from '@clawsmith/checkpoints';
import type { ArtifactRetention } from '@clawsmith/artifacts';

/** The retention settings of a home: the checkpoint and artifact policies, each field optional. */
export interface HomeRetentionPolicy {
  /** Overrides of the restore points' policy (age, per-session and total size, newest kept). */
  readonly checkpoints?: Partial<RetentionPolicy>;
  /** Overrides of the artifacts' policy. */
  readonly artifacts?: Partial<ArtifactRetention>;
}

/** What one retention run removed and kept, in both stores. */
export interface RetentionReport {
  /** Whether nothing was removed (the report says what would go). */
  readonly dryRun: boolean;
  /** What the restore points lost and kept. */
  readonly checkpoints: CheckpointPruneResult;
  /** Absent when the core has no artifact store. */
  readonly artifacts?: ArtifactPruneResult;
  /** Wall time of the run, in ms. */
  readonly durationMs: number;
}

/**
 * Prunes restore points, then artifacts, by their policies (the contract's defaults: 30 days,
 * 100 MiB per session, 1 GiB in all, the newest 5 of each session kept; never an unfinished
 * turn or an open artifact). With `dryRun` nothing changes and the report says what would go.
 */
export async function runRetention(stores: {
  readonly checkpoints: CheckpointStore;
  readonly artifacts?: ArtifactStore;
  readonly policy?: HomeRetentionPolicy;
  readonly dryRun?: boolean;
}): Promise<RetentionReport> {
  const started = performance.now();
  const dryRun = stores.dryRun === true;
  const checkpoints = await stores.checkpoints.prune({ ...stores.policy?.checkpoints, dryRun });
  const artifacts = stores.artifacts ? await stores.artifacts.prune(stores.policy?.artifacts, { dryRun }) : undefined;
  return {
    dryRun,
    checkpoints,
    ...(artifacts ? { artifacts } : {}),
    durationMs: performance.now() - started,
  };
}

/** The figures of a report as a flat event payload (no per-point list). */
export function retentionSummary(
  report: RetentionReport,
): Omit<NewSessionEventOf<'retention.completed'>, 'type' | 'reason' | 'turnId'> {
  return {
    dryRun: report.dryRun,
    durationMs: Math.round(report.durationMs),
    restorePointsRemoved: report.checkpoints.deletedRestorePoints.length,
    blobsRemoved: report.checkpoints.deletedBlobs,
    blobBytesFreed: report.checkpoints.freedBlobBytes,
    restorePointsKept: report.checkpoints.keptRestorePoints,
    blobBytesKept: report.checkpoints.keptBlobBytes,
    ...(report.artifacts
      ? {
          artifactsRemoved: report.artifacts.removed,
          artifactBytesFreed: report.artifacts.freedBytes,
          orphanFilesRemoved: report.artifacts.orphanFilesRemoved,
          artifactsKept: report.artifacts.kept,
          artifactBytesKept: report.artifacts.keptBytes,
        }
      : {}),
  };
}
