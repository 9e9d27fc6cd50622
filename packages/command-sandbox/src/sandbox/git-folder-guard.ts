import { lstatSync } from 'node:fs';
import { posix } from 'node:path';
import type { SandboxMount } from './sandbox-plan.js';

/**
 * What, in a git folder, makes git run code or read its settings from elsewhere: read-only in a
 * command even where the git folder is writable, and not creatable where absent. `folder` entries
 * absent on the host get an empty read-only folder, `file` entries an empty read-only file, and
 * `commondir` a file naming the folder itself (git refuses an empty one).
 */
export const GIT_CODE_ENTRIES: readonly { readonly name: string; readonly kind: 'folder' | 'file' }[] = [
  { name: 'config', kind: 'file' },
  { name: 'config.worktree', kind: 'file' },
  { name: 'commondir', kind: 'file' },
  { name: 'gitdir', kind: 'file' },
  { name: 'hooks', kind: 'folder' },
  { name: 'info', kind: 'folder' },
  { name: 'modules', kind: 'folder' },
  { name: 'worktrees', kind: 'folder' },
];

/**
 * The to-do lists of an operation the person has in progress (a rebase, `git am`, a cherry-pick
 * or revert of several commits): their `exec` lines run when the person continues it, so a
 * command may not rewrite them. Read-only when present; when absent they are not covered, since
 * an empty folder there would make git believe such an operation is in progress (so a command
 * can still start one: see the README).
 */
export const GIT_IN_PROGRESS_ENTRIES: readonly string[] = ['rebase-merge', 'rebase-apply', 'sequencer'];

/** What an absent `commondir` placeholder holds: the git folder itself, the same as no file. */
export const SELF_COMMON_DIRECTORY = '.\n';

/** A git folder inside the workspace that a command may write (objects, refs, index, logs, HEAD), with its code entries guarded. */
export interface WritableGitFolder {
  /** Absolute path of the git folder. */
  readonly path: string;
  /** Names from {@link GIT_CODE_ENTRIES} present as a real file or folder (bound read-only). */
  readonly present: readonly string[];
  /** Names from {@link GIT_CODE_ENTRIES} absent on the host (covered by a read-only placeholder). */
  readonly absent: readonly string[];
  /** Names from {@link GIT_IN_PROGRESS_ENTRIES} present as a folder (bound read-only). */
  readonly inProgress: readonly string[];
}

/**
 * Looks at a git folder on the host: a {@link WritableGitFolder} when every code entry can be
 * guarded by a mount (each is absent, or a real file or folder of the expected kind, and `config`
 * exists, or `commondir` for a linked worktree's own folder); `undefined` (the folder stays read-only whole) otherwise, e.g. a linked `hooks`.
 */
export function inspectGitFolder(
  path: string,
  role: 'repository' | 'worktree' = 'repository',
): WritableGitFolder | undefined {
  const present: string[] = [];
  const absent: string[] = [];
  for (const entry of GIT_CODE_ENTRIES) {
    let stats;
    try {
      stats = lstatSync(posix.join(path, entry.name));
    } catch {
      absent.push(entry.name);
      continue;
    }
    const expected = entry.kind === 'folder' ? stats.isDirectory() : stats.isFile();
    if (!expected) return undefined;
    present.push(entry.name);
  }
  // A repository's folder without `config`, or a worktree's without `commondir`, is not what git expects: read-only whole.
  if (!present.includes(role === 'worktree' ? 'commondir' : 'config')) return undefined;
  const inProgress: string[] = [];
  for (const name of GIT_IN_PROGRESS_ENTRIES) {
    let stats;
    try {
      stats = lstatSync(posix.join(path, name));
    } catch {
      continue;
    }
    if (!stats.isDirectory()) return undefined;
    inProgress.push(name);
  }
  return { path, present, absent, inProgress };
}

/**
 * The mounts of one writable git folder: the folder read-write from `source` (its host path, or
 * the overlay's lower view when the workspace is captured, so git's own state is never captured
 * as workspace files), then each code entry read-only or an absent one's placeholder. Returns the
 * placeholders too: the launcher makes and removes them.
 */
export function writableGitFolderMounts(
  folder: WritableGitFolder,
  source: string,
  relative: string,
): { mounts: SandboxMount[]; placeholders: string[] } {
  const mounts: SandboxMount[] = [
    { kind: 'read-write', source, target: folder.path, purpose: `git state: ${relative}` },
  ];
  const placeholders: string[] = [];
  for (const entry of GIT_CODE_ENTRIES) {
    const target = posix.join(folder.path, entry.name);
    const purpose = `protected: ${relative}/${entry.name} (makes git run code)`;
    if (folder.present.includes(entry.name)) {
      mounts.push({ kind: 'read-only', source: posix.join(source, entry.name), target, purpose });
      continue;
    }
    placeholders.push(target);
    if (entry.kind === 'folder') mounts.push({ kind: 'read-only-empty', target, purpose });
    else if (entry.name === 'commondir')
      mounts.push({ kind: 'read-only', source: target, target, purpose, placeholderContent: SELF_COMMON_DIRECTORY });
    else mounts.push({ kind: 'read-only', source: '/dev/null', target, purpose });
  }
  for (const name of folder.inProgress)
    mounts.push({
      kind: 'read-only',
      source: posix.join(source, name),
      target: posix.join(folder.path, name),
      purpose: `protected: ${relative}/${name} (an operation in progress: its to-do list runs code)`,
    });
  return { mounts, placeholders };
}
