import type { ToolDisplayField } from '@clawsmith/tool-protocol';
import type { AppliedPath } from './apply-captured-changes.js';
import type { CommandFileChanges } from './command-capture.js';

/** Paths listed per kind of change; the rest are counted. */
export const LISTED_PATHS = 20;

function listed(paths: readonly string[]): string {
  const shown = paths.slice(0, LISTED_PATHS).map((path) => JSON.stringify(path).slice(1, -1));
  return paths.length > LISTED_PATHS
    ? `${shown.join(', ')} … and ${paths.length - LISTED_PATHS} more`
    : shown.join(', ');
}

function display(path: AppliedPath): string {
  return path.entry === 'directory' ? `${path.path}/` : path.entry === 'symlink' ? `${path.path} (link)` : path.path;
}

/** Files (and links) a command changed, folders aside: what "3 files changed" counts. */
export function changedFileCount(files: CommandFileChanges | undefined): number {
  if (!files?.captured) return 0;
  return files.changes.applied.filter((path) => path.entry !== 'directory').length;
}

/** `3 files changed (1 created, 1 modified, 1 deleted)`, or undefined when nothing changed. */
export function changeSummary(files: CommandFileChanges | undefined): string | undefined {
  if (!files?.captured || files.changes.applied.length === 0) return undefined;
  const count = changedFileCount(files);
  const folders = files.changes.applied.length - count;
  const by = (change: AppliedPath['change']) => files.changes.applied.filter((path) => path.change === change).length;
  const parts = (['created', 'modified', 'deleted'] as const).flatMap((change) =>
    by(change) > 0 ? [`${by(change)} ${change}`] : [],
  );
  const folderPart = folders > 0 ? ` and ${folders} folder${folders === 1 ? '' : 's'}` : '';
  return `${count} file${count === 1 ? '' : 's'}${folderPart} changed (${parts.join(', ')})`;
}

/** The lines of a command result about its files: what was applied and recorded, and what was not. */
export function fileChangeLines(files: CommandFileChanges | undefined, stopped: boolean): string[] {
  if (files === undefined) return [];
  if (!files.captured) {
    const lines = [`Changes made by this command are not recorded in the checkpoint (${files.reason}).`];
    const outside = files.changedOutsideCheckpoint;
    if (outside !== undefined && outside.length > 0)
      lines.push(`Changed outside the checkpoint (not undoable): ${listed(outside)}`);
    else if (outside !== undefined) lines.push('A stat walk of the workspace saw no changed path.');
    if (files.walkLimit !== undefined)
      lines.push(`The walk stopped at ${files.walkLimit} entries: changes beyond them are not listed.`);
    return lines;
  }
  const { changes } = files;
  const lines: string[] = [];
  const summary = changeSummary(files);
  if (summary) {
    lines.push(
      `${summary}${changes.recorded ? ", recorded in the turn's checkpoint (undoable)" : '; NOT recorded for undo (no checkpoint is wired in)'}${stopped ? '; what the command wrote before it was stopped was applied' : ''}.`,
    );
    for (const change of ['created', 'modified', 'deleted'] as const) {
      const paths = changes.applied.filter((path) => path.change === change).map(display);
      if (paths.length > 0) lines.push(`  ${change}: ${listed(paths)}`);
    }
  } else lines.push('No files changed.');
  if (changes.notUndoable.length > 0)
    lines.push(
      `Not undoable (earlier bytes not kept: too large, or over the checkpoint's per-turn cap): ${listed(changes.notUndoable)}`,
    );
  if (changes.refused.length > 0) lines.push(`Refused (protected paths, not applied): ${listed(changes.refused)}`);
  for (const conflict of changes.conflicts.slice(0, LISTED_PATHS))
    lines.push(
      `Conflict: ${conflict.path} changed in the workspace while the command ran; not overwritten: ${conflict.kept}.`,
    );
  if (changes.conflicts.length > LISTED_PATHS)
    lines.push(`… and ${changes.conflicts.length - LISTED_PATHS} more conflicts.`);
  for (const entry of new Set(changes.unsupported.map((unsupported) => unsupported.entry)))
    lines.push(
      `Not applied (${entry}): ${listed(changes.unsupported.filter((unsupported) => unsupported.entry === entry).map((unsupported) => unsupported.path))}`,
    );
  for (const entry of changes.kept.slice(0, LISTED_PATHS))
    lines.push(`Kept for recovery: ${entry.path}: ${entry.kept}.`);
  if (changes.kept.length > LISTED_PATHS) lines.push(`… and ${changes.kept.length - LISTED_PATHS} more kept.`);
  for (const failure of changes.failed.slice(0, LISTED_PATHS))
    lines.push(`Not applied: ${failure.path}: ${failure.reason}`);
  if (changes.failed.length > LISTED_PATHS)
    lines.push(`… and ${changes.failed.length - LISTED_PATHS} more not applied.`);
  if (files.keptFolder) lines.push(`The command's output files are kept in ${files.keptFolder}.`);
  return lines;
}

/** Display fields about the files: how many changed, conflicts and refusals. */
export function fileChangeFields(files: CommandFileChanges | undefined): ToolDisplayField[] {
  if (files === undefined) return [];
  if (!files.captured) return [{ label: 'files', value: 'not recorded' }];
  const fields: ToolDisplayField[] = [{ label: 'files changed', value: String(changedFileCount(files)) }];
  if (files.changes.conflicts.length > 0)
    fields.push({ label: 'conflicts', value: String(files.changes.conflicts.length) });
  if (files.changes.refused.length > 0) fields.push({ label: 'refused', value: String(files.changes.refused.length) });
  return fields;
}
