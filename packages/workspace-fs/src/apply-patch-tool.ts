import { dirname } from 'node:path';
import type { Stats } from 'node:fs';
import { assertAuthorized, defineTool, toolSuccess, type WorkspaceMutation } from '@clawsmith/tool-protocol';
import { z } from 'zod';
import { createTemporary, expectUnchanged, temporaryBeside } from './atomic-file.js';
import { recordAfterChange, recordBeforeChange } from './file-change-recording.js';
import type { WorkspacePath } from './path-boundary.js';
import { applyHunks, type HunkConflict } from './patch-hunks.js';
import { looksBinary, readWholeFile, sha256 } from './regular-file.js';
import type { ResolvedToolOptions } from './tool-options.js';
import { parseUnifiedDiff, type FilePatch } from './unified-diff.js';
import { assertNotSymlink, resolveWritablePath, somethingAt } from './writable-path.js';
import { WORKSPACE_FS_ERROR_CODES, WorkspaceBoundaryError, WorkspaceFsError } from './workspace-fs-error.js';

/** Characters of a patch `apply_patch` accepts. */
const PATCH_CHARS = 4_000_000;

const applyPatchInput = z.strictObject({
  patch: z
    .string()
    .min(1)
    .max(PATCH_CHARS)
    .describe(
      'A unified diff (git diff output, e.g. the patch delegate_worktree returned), paths relative to the workspace.',
    ),
});

/** One file's planned change, computed in memory before anything is written. */
type PlannedChange =
  | { kind: 'modify'; path: WorkspacePath; before: Buffer; stats: Stats; after: Buffer }
  | { kind: 'create'; path: WorkspacePath; after: Buffer; mode: number | undefined }
  | { kind: 'delete'; path: WorkspacePath; before: Buffer; stats: Stats };

interface FileConflict extends Partial<HunkConflict> {
  readonly path: string;
  readonly reason: string;
}

function conflictLines(conflicts: readonly FileConflict[]): string {
  return conflicts
    .slice(0, 20)
    .map((conflict) => {
      const where = conflict.hunk ? ` hunk ${conflict.hunk} (near line ${conflict.line})` : '';
      const detail =
        conflict.expected !== undefined ? `\n    expected: ${conflict.expected}\n    found:    ${conflict.found}` : '';
      return `- ${conflict.path}${where}: ${conflict.reason}${detail}`;
    })
    .join('\n');
}

function readText(path: WorkspacePath, limit: number): { content: Buffer; stats: Stats; text: string } | string {
  const { content, stats } = readWholeFile(path, 'patch', limit);
  const text = content.toString('utf8');
  if (looksBinary(content) || !Buffer.from(text, 'utf8').equals(content)) return 'it is binary or not valid UTF-8 text';
  return { content, stats, text };
}

function plan(
  options: ResolvedToolOptions,
  context: Parameters<typeof resolveWritablePath>[1],
  files: readonly FilePatch[],
) {
  const planned: PlannedChange[] = [];
  const conflicts: FileConflict[] = [];
  const seen = new Set<string>();
  for (const file of files) {
    const name = (file.newPath ?? file.oldPath)!;
    if (file.unsupported) {
      conflicts.push({ path: name, reason: `not applied: ${file.unsupported}` });
      continue;
    }
    if (file.oldPath !== null && file.newPath !== null && file.oldPath !== file.newPath) {
      conflicts.push({
        path: name,
        reason: `not applied: it renames ${file.oldPath} (make the patch with --no-renames)`,
      });
      continue;
    }
    // Boundary and protected paths refuse the whole call, as the other write tools do.
    const path = resolveWritablePath(options, context, name);
    if (seen.has(path.relative))
      throw new WorkspaceFsError(
        WORKSPACE_FS_ERROR_CODES.patchInvalid,
        `The patch changes ${name} twice; send one section per file.`,
      );
    seen.add(path.relative);
    if (file.oldPath === null) {
      if (somethingAt(path)) {
        conflicts.push({ path: name, reason: 'the patch creates it, but it already exists' });
        continue;
      }
      const result = applyHunks('', file.hunks);
      if (!result.ok) {
        conflicts.push(...result.conflicts.map((conflict) => ({ path: name, reason: 'does not apply', ...conflict })));
        continue;
      }
      planned.push({ kind: 'create', path, after: Buffer.from(result.text, 'utf8'), mode: file.newFileMode });
      continue;
    }
    if (!path.exists) {
      conflicts.push({ path: name, reason: 'the patch changes it, but it does not exist' });
      continue;
    }
    assertNotSymlink(path, 'patch');
    const current = readText(path, options.limits.writeBytes);
    if (typeof current === 'string') {
      conflicts.push({ path: name, reason: current });
      continue;
    }
    const result = applyHunks(current.text, file.hunks);
    if (!result.ok) {
      conflicts.push(
        ...result.conflicts.map((conflict) => ({
          path: name,
          reason: 'the context or removed lines do not match the file',
          ...conflict,
        })),
      );
      continue;
    }
    if (file.newPath === null) {
      if (result.text !== '') {
        conflicts.push({ path: name, reason: 'the patch deletes it, but the file holds more than the patch removes' });
        continue;
      }
      planned.push({ kind: 'delete', path, before: current.content, stats: current.stats });
      continue;
    }
    const after = Buffer.from(result.text, 'utf8');
    if (after.length > options.limits.writeBytes) {
      throw new WorkspaceFsError(
        WORKSPACE_FS_ERROR_CODES.fileTooLarge,
        `${path.relative} would hold ${after.length} bytes, over the ${options.limits.writeBytes}-byte limit; nothing was applied.`,
        { path: name },
      );
    }
    planned.push({ kind: 'modify', path, before: current.content, stats: current.stats, after });
  }
  return { planned, conflicts };
}

/** The folders to create, parents first, for a new file whose folder does not exist yet. */
function missingFolders(path: WorkspacePath): string[] {
  const folders: string[] = [];
  let folder = dirname(path.real);
  for (let missing = path.missingSegments - 1; missing > 0; missing -= 1) {
    folders.unshift(folder);
    folder = dirname(folder);
  }
  return folders;
}

/**
 * Builds `apply_patch`: applies a unified diff to the workspace, all or nothing. Every hunk of
 * every file must match exactly (context and removed lines, character for character; a hunk may
 * sit some lines away from its stated place); otherwise the call fails with `patch_conflict`
 * listing each hunk that does not match, and nothing is written. Each file is recorded for undo
 * before the writes, which then go in one batch through the workspace wall.
 */
export function createApplyPatchTool(options: ResolvedToolOptions) {
  return defineTool({
    name: 'apply_patch',
    pathArguments: [{ name: 'patch', role: 'patch' }],
    description:
      'Apply a unified diff (git diff output) to the workspace: changed, new and deleted text files. All or nothing: ' +
      'if any hunk does not match the files exactly, nothing is written and the conflicts are listed. Undoable like any edit.',
    risk: 'workspace-write',
    capabilities: ['filesystem.write'],
    concurrencySafe: false,
    inputSchema: applyPatchInput,
    summarize: (input) => {
      const files = input.patch.match(/^\+\+\+ (?:b\/)?(.+)$/gm)?.length ?? 0;
      return `apply a patch${files > 0 ? ` to ${files} file${files === 1 ? '' : 's'}` : ''}`;
    },
    async execute(input, context) {
      assertAuthorized(context, 'apply_patch');
      const files = parseUnifiedDiff(input.patch);
      const { planned, conflicts } = plan(options, context, files);
      if (conflicts.length > 0) {
        const unsupported = conflicts.every((conflict) => conflict.reason.startsWith('not applied:'));
        throw new WorkspaceFsError(
          unsupported ? WORKSPACE_FS_ERROR_CODES.patchUnsupported : WORKSPACE_FS_ERROR_CODES.patchConflict,
          `Nothing was applied: ${conflicts.length} part${conflicts.length === 1 ? '' : 's'} of the patch cannot be applied to the workspace as it is now.\n` +
            `${conflictLines(conflicts)}\nRe-read the files and send a patch that matches them (or apply the other files' changes alone).`,
        );
      }
      for (const change of planned) {
        await recordBeforeChange(
          context,
          change.path.relative,
          change.kind === 'create'
            ? { state: 'absent' }
            : { state: 'file', content: change.before, mode: change.stats.mode & 0o7777 },
        );
      }
      const checks: WorkspaceMutation[] = [];
      const folders: WorkspaceMutation[] = [];
      const temporaries: WorkspaceMutation[] = [];
      const commits: { mutation: WorkspaceMutation; change: PlannedChange }[] = [];
      const cleanup: string[] = [];
      for (const change of planned) {
        if (change.kind !== 'create') checks.push(expectUnchanged(change.path, change.stats));
        if (change.kind === 'delete') {
          commits.push({ mutation: { kind: 'unlink', path: change.path.real }, change });
          continue;
        }
        if (change.kind === 'create')
          for (const folder of missingFolders(change.path)) folders.push({ kind: 'mkdir', path: folder });
        const temporary = temporaryBeside(change.path.real);
        cleanup.push(temporary);
        const mode = change.kind === 'modify' ? change.stats.mode & 0o7777 : change.mode;
        temporaries.push(createTemporary(change.path, temporary, change.after, mode));
        commits.push({
          mutation:
            change.kind === 'modify'
              ? { kind: 'rename', from: temporary, to: change.path.real }
              : { kind: 'link', from: temporary, to: change.path.real },
          change,
        });
      }
      const before = checks.length + folders.length + temporaries.length;
      let applied = commits.length;
      let failure: unknown;
      if (planned.length > 0) {
        try {
          await options.wall.apply({
            workspaceRoot: planned[0]!.path.root,
            mutations: [...checks, ...folders, ...temporaries, ...commits.map((commit) => commit.mutation)],
            cleanup,
          });
        } catch (error) {
          failure = error;
          const index = (error as { mutationIndex?: number }).mutationIndex;
          applied = typeof index === 'number' ? Math.max(0, index - before) : 0;
        }
      }
      // Files already replaced when a later write failed are recorded too, so undo takes them back.
      for (const { change } of commits.slice(0, applied)) {
        await recordAfterChange(
          context,
          change.path.relative,
          change.kind === 'delete'
            ? { state: 'absent' }
            : { state: 'file', sha256: sha256(change.after), content: change.after },
        );
      }
      if (failure !== undefined) {
        const code = (failure as NodeJS.ErrnoException).code ?? '';
        if (code === 'EROFS' || code === 'EOUTSIDE' || code === 'EACCES')
          throw new WorkspaceBoundaryError(commits[applied]?.change.path.requested ?? '(patch)');
        throw new WorkspaceFsError(
          code === 'ECHANGED' ? WORKSPACE_FS_ERROR_CODES.fileChanged : WORKSPACE_FS_ERROR_CODES.patchConflict,
          `The patch could not be written (${code || String(failure)}): ${applied === 0 ? 'nothing was changed' : `${applied} of ${commits.length} files were changed and are recorded for undo`}. Re-read the files and try again.`,
          { retryable: code === 'ECHANGED', cause: failure },
        );
      }
      const summary = planned.map(
        (change) =>
          `${change.kind === 'modify' ? 'changed' : change.kind === 'create' ? 'created' : 'deleted'} ${change.path.relative}`,
      );
      return toolSuccess(`Applied the patch: ${summary.join(', ')}.`, {
        display: {
          kind: 'diff',
          title: `Applied a patch to ${planned.length} file${planned.length === 1 ? '' : 's'}`,
          body: input.patch.length > 16_000 ? `${input.patch.slice(0, 16_000)}\n…` : input.patch,
        },
      });
    },
  });
}
