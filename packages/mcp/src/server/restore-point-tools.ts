import { resolveToolSecurity, type ResolvedToolSecurity } from '@clawsmith/tool-protocol';
import { plainResult, type ServedCallResult } from './served-call-result.js';
import type { ServedRestorePoint, ServedSession } from './served-session.js';
import { restorePointUri } from './served-uris.js';

/** The most text `clawsmith_changes` returns, diffs included (64 KiB, as a diff on demand). */
export const CHANGES_TEXT_LIMIT_BYTES = 64 * 1024;

/** The names of the server's own tools. */
export const CHANGES_TOOL_NAME = 'clawsmith_changes';
export const UNDO_TOOL_NAME = 'clawsmith_undo';

/** A served tool the server implements itself, with a declared profile its annotations derive from. */
export interface RestorePointTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  readonly security: ResolvedToolSecurity;
  run(session: ServedSession, args: Record<string, unknown>): Promise<ServedCallResult>;
}

function describePoint(point: ServedRestorePoint): string {
  const head = `#${point.sequence} ${point.restorePointId}${point.undone ? ' (undone)' : ''}: ${point.label}`;
  const files = point.files.map((file) => {
    const lines =
      file.linesAdded === null ? (file.binary ? ' binary' : '') : ` +${file.linesAdded} -${file.linesRemoved ?? 0}`;
    return `  ${file.change} ${file.path}${lines}${file.undoable ? '' : ' (not undoable: earlier bytes not kept)'}`;
  });
  return [head, ...files, ...point.notes.map((note) => `  note: ${note}`)].join('\n');
}

function findPoint(points: readonly ServedRestorePoint[], reference: string): ServedRestorePoint | undefined {
  return points.find((point) => point.restorePointId === reference || String(point.sequence) === reference);
}

function notFound(reference: string): ServedCallResult {
  return plainResult(
    'error',
    `This session has no restore point ${JSON.stringify(reference)}. Call ${CHANGES_TOOL_NAME} to list them (ids or #numbers).`,
    { code: 'checkpoint_not_found' },
  );
}

function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

async function runChanges(session: ServedSession, args: Record<string, unknown>): Promise<ServedCallResult> {
  const all = await session.restorePoints();
  const withChanges = all.filter((point) => point.files.length > 0 || point.notes.length > 0);
  const reference = typeof args.restorePoint === 'string' ? args.restorePoint : undefined;
  let selected: ServedRestorePoint[];
  if (reference !== undefined) {
    const point = findPoint(all, reference);
    if (!point) return notFound(reference);
    selected = [point];
  } else {
    selected = withChanges.filter((point) => args.includeUndone === true || !point.undone).reverse();
  }
  if (selected.length === 0)
    return plainResult('success', 'No changes in this session yet (or all of them are undone).', {
      structured: { restorePoints: [] },
    });
  const pathFilter = typeof args.path === 'string' ? args.path : undefined;
  let text = selected.map(describePoint).join('\n');
  let truncated = false;
  if (args.diffs === true) {
    for (const point of selected) {
      for (const file of point.files) {
        if (pathFilter !== undefined && file.path !== pathFilter) continue;
        const diff = await session.diff(point.restorePointId, file.path);
        const body = diff.binary
          ? `(binary: no text diff)`
          : `${diff.unifiedDiff}${diff.truncated ? '\n[diff cut at 64 KiB]' : ''}`;
        const section = `\n\n--- #${point.sequence} ${file.path}\n${body}`;
        if (byteLength(text) + byteLength(section) > CHANGES_TEXT_LIMIT_BYTES) {
          truncated = true;
          break;
        }
        text += section;
      }
      if (truncated) break;
    }
    if (truncated)
      text += `\n\n[Diffs stop here: the answer is bounded to 64 KiB. Ask for one restorePoint and path at a time.]`;
  }
  if (byteLength(text) > CHANGES_TEXT_LIMIT_BYTES) {
    text = Buffer.from(text, 'utf8')
      .subarray(0, CHANGES_TEXT_LIMIT_BYTES - 200)
      .toString('utf8');
    text += `\n[Listing cut at 64 KiB: ask for one restorePoint.]`;
    truncated = true;
  }
  return plainResult('success', text, {
    structured: {
      truncated,
      restorePoints: selected.map((point) => ({
        restorePointId: point.restorePointId,
        uri: restorePointUri(point.restorePointId),
        sequence: point.sequence,
        label: point.label,
        undone: point.undone,
        files: point.files.map((file) => ({ path: file.path, change: file.change })),
      })),
    },
  });
}

async function runUndo(session: ServedSession, args: Record<string, unknown>): Promise<ServedCallResult> {
  const all = await session.restorePoints();
  const reference = typeof args.restorePoint === 'string' ? args.restorePoint : undefined;
  const target =
    reference !== undefined ? findPoint(all, reference) : all.filter((point) => point.files.length > 0).at(-1);
  if (!target) {
    if (reference !== undefined) return notFound(reference);
    return plainResult('error', 'Nothing to undo: no call of this session changed a file.', {
      code: 'checkpoint_not_found',
    });
  }
  const name = `#${target.sequence} (${target.label})`;
  if (target.undone)
    return plainResult('error', `Restore point ${name} is already undone; nothing changed.`, {
      code: 'checkpoint_already_undone',
      structured: { restorePoint: target.restorePointId },
    });
  const included = all.filter((point) => point.sequence >= target.sequence && !point.undone && point.files.length > 0);
  const outcome = await session.undo(target.restorePointId);
  if (outcome.status === 'already_undone')
    return plainResult('error', `Restore point ${name} is already undone; nothing changed.`, {
      code: 'checkpoint_already_undone',
      structured: { restorePoint: target.restorePointId },
    });
  if (outcome.status === 'conflict')
    return plainResult(
      'error',
      `Undo of ${name} refused before changing anything: ${outcome.conflicts.length} file(s) changed since clawsmith wrote them:\n${outcome.conflicts
        .map((conflict) => `  ${conflict.path}: ${conflict.reason}`)
        .join('\n')}\nResolve or keep those changes, then undo again.`,
      {
        code: 'checkpoint_conflict',
        structured: { restorePoint: target.restorePointId, conflicts: outcome.conflicts },
      },
    );
  const later = included.filter((point) => point.sequence > target.sequence);
  return plainResult(
    'success',
    `Undid ${name}${later.length > 0 ? ` and the later ${later.map((point) => `#${point.sequence}`).join(', ')}` : ''}: ${
      outcome.restoredPaths.length > 0 ? `restored ${outcome.restoredPaths.join(', ')}` : 'no file needed restoring'
    }.`,
    {
      structured: {
        restorePoint: target.restorePointId,
        undonePoints: included.map((point) => point.restorePointId),
        restoredPaths: outcome.restoredPaths,
      },
    },
  );
}

const pointField = {
  type: 'string',
  description: `A restore point id or #number (without #) from ${CHANGES_TOOL_NAME}.`,
};

/** `clawsmith_changes` and `clawsmith_undo`: what this session's calls changed, and taking it back. */
export const RESTORE_POINT_TOOLS: readonly RestorePointTool[] = Object.freeze([
  {
    name: CHANGES_TOOL_NAME,
    description:
      'List what this session changed: one restore point per call that changed files, newest first, with its files. diffs: true adds unified diffs (at most 64 KiB in all). Undone points are left out unless includeUndone.',
    inputSchema: {
      type: 'object',
      properties: {
        restorePoint: pointField,
        diffs: { type: 'boolean', description: 'Add unified diffs of the listed files.' },
        path: { type: 'string', description: 'With diffs: only this workspace-relative path.' },
        includeUndone: { type: 'boolean', description: 'Also list restore points already undone.' },
      },
      additionalProperties: false,
    },
    security: resolveToolSecurity({ risk: 'read', capabilities: ['session.read', 'filesystem.read'] }),
    run: runChanges,
  },
  {
    name: UNDO_TOOL_NAME,
    description:
      'Undo the files of a restore point (default: the newest one that changed files) and of every later one of this session. Conflict-safe: if any file changed since it was written here, nothing changes and the conflicts are listed. Undoing an undone point says so.',
    inputSchema: {
      type: 'object',
      properties: { restorePoint: pointField },
      additionalProperties: false,
    },
    security: resolveToolSecurity({ risk: 'workspace-write', capabilities: ['session.read', 'filesystem.write'] }),
    run: runUndo,
  },
]);
