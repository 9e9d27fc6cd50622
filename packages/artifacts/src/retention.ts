import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidArtifactOptionsError } from './artifact-errors.js';
import { isArtifactId } from './artifact-id.js';
import type { ArtifactRetention } from './artifact-limits.js';
import type { ArtifactRecord, ArtifactRecords } from './artifact-records.js';
import { contentPath, removeContentFile } from './content-files.js';

// A body file with no row is a write that crashed between file and row, or one in flight now.
const ORPHAN_GRACE_MS = 60 * 60 * 1000;

/** What one `prune` removed (or, in a dry run, would remove) and what it kept. */
export interface ArtifactPruneResult {
  /** Artifacts removed (rows and bodies). */
  readonly removed: number;
  /** Bytes of the removed artifacts. */
  readonly freedBytes: number;
  /** Body files without a row, older than an hour, removed. */
  readonly orphanFilesRemoved: number;
  /** Artifacts left afterwards. */
  readonly kept: number;
  /** Bytes of the artifacts left afterwards. */
  readonly keptBytes: number;
  /** True when nothing was changed: the figures say what a real prune would do now. */
  readonly dryRun: boolean;
}

interface PruneContext {
  readonly records: ArtifactRecords;
  readonly directory: string;
  readonly now: () => number;
  readonly live: ReadonlySet<string>;
  readonly retention: ArtifactRetention;
  readonly dryRun: boolean;
}

function checkRetention(retention: ArtifactRetention): void {
  for (const [key, value] of Object.entries(retention)) {
    if (typeof value !== 'number' || !(value >= 0)) {
      throw new InvalidArtifactOptionsError(`Retention ${key} must be a number of at least 0; got ${String(value)}.`);
    }
  }
}

/**
 * Removes artifacts older than `maxAgeMs`, then the oldest ones of each session beyond
 * `maxBytesPerSession`, then the oldest beyond `maxTotalBytes`. The newest `keepNewestPerSession`
 * of each session and every open artifact (open in the database or held by a live writer of
 * this store) are never removed; open ones still count towards the quotas.
 */
export async function pruneArtifacts(context: PruneContext): Promise<ArtifactPruneResult> {
  const { retention } = context;
  checkRetention(retention);
  const all = await context.records.listAll();
  const doomed = new Set<string>();
  const protectedIds = new Set<string>();
  const bySession = new Map<string, ArtifactRecord[]>();
  for (const record of all) {
    if (record.state === 'open' || context.live.has(record.id)) protectedIds.add(record.id);
    const list = bySession.get(record.sessionId) ?? [];
    list.push(record);
    bySession.set(record.sessionId, list);
  }
  for (const list of bySession.values()) {
    for (const record of list.slice(Math.max(0, list.length - retention.keepNewestPerSession)))
      protectedIds.add(record.id);
  }
  const removable = (record: ArtifactRecord): boolean => !protectedIds.has(record.id) && !doomed.has(record.id);
  const cutoff = context.now() - retention.maxAgeMs;
  for (const record of all) if (record.createdAt < cutoff && removable(record)) doomed.add(record.id);
  const trim = (list: readonly ArtifactRecord[], quota: number): void => {
    let total = list.reduce((sum, record) => sum + (doomed.has(record.id) ? 0 : record.byteLength), 0);
    for (const record of list) {
      if (total <= quota) break;
      if (!removable(record)) continue;
      doomed.add(record.id);
      total -= record.byteLength;
    }
  };
  for (const list of bySession.values()) trim(list, retention.maxBytesPerSession);
  trim(all, retention.maxTotalBytes);
  const removed = all.filter((record) => doomed.has(record.id));
  if (!context.dryRun) {
    await context.records.deleteMany(removed.map((record) => record.id));
    for (const record of removed) removeContentFile(contentPath(context.directory, record.id));
  }
  const freedBytes = removed.reduce((sum, record) => sum + record.byteLength, 0);
  return {
    removed: removed.length,
    freedBytes,
    orphanFilesRemoved: await removeOrphans(context, new Set(all.map((record) => record.id))),
    kept: all.length - removed.length,
    keptBytes: all.reduce((sum, record) => sum + record.byteLength, 0) - freedBytes,
    dryRun: context.dryRun,
  };
}

async function removeOrphans(context: PruneContext, known: ReadonlySet<string>): Promise<number> {
  let removedCount = 0;
  for (const name of readdirSync(context.directory)) {
    if (!isArtifactId(name) || known.has(name) || context.live.has(name)) continue;
    const path = join(context.directory, name);
    let modified: number;
    try {
      modified = statSync(path).mtimeMs;
    } catch {
      continue;
    }
    if (Date.now() - modified < ORPHAN_GRACE_MS) continue;
    // Checked again: the row may have been written since the listing.
    if (await context.records.hasId(name)) continue;
    if (!context.dryRun) removeContentFile(path);
    removedCount += 1;
  }
  return removedCount;
}
