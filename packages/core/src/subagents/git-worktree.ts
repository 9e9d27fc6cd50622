import { randomBytes } from 'node:crypto';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, isAbsolute, join, relative } from 'node:path';
import { ClawsmithError } from '@clawsmith/tool-protocol';
import { runGit } from './host-git.js';

/** A git worktree made for one `delegate_worktree` child. */
export interface SubagentWorktree {
  /** The repository's top folder (the parent's workspace or a folder above it). */
  readonly repositoryRoot: string;
  /** The worktree's top folder, in a temporary folder outside the workspace. */
  readonly path: string;
  /** The child's workspace: the worktree folder matching the parent's workspace. */
  readonly workspaceRoot: string;
  /** The workspace's folder inside the repository (`''` at its top, else ending with `/`). */
  readonly prefix: string;
  readonly branch: string;
  /** The commit the branch starts from (the parent's `HEAD`). */
  readonly baseCommit: string;
  /** The temporary folder holding the worktree, removed with it. */
  readonly holder: string;
}

/** The child's changes, committed on its branch. */
export interface WorktreeChanges {
  /** `git diff` from the base commit to the branch, of the workspace's folder, paths relative to it. */
  readonly patch: string;
  /** `A`, `M`, `D` and the path of each changed file. */
  readonly files: readonly { status: string; path: string }[];
  /** The branch's commit holding the changes, or undefined when the child changed nothing. */
  readonly commit: string | undefined;
}

function inside(folder: string, candidate: string): boolean {
  const path = relative(folder, candidate);
  return path === '' || (!isAbsolute(path) && path !== '..' && !path.startsWith('../'));
}

/**
 * Creates a worktree of the repository holding `workspaceRoot`, on a new branch from `HEAD`, in
 * a new temporary folder outside the workspace. Refuses, changing nothing:
 * `worktree_not_git_repository` (no repository holds the workspace), `worktree_no_commit` (the
 * repository has no commit yet), `worktree_uncommitted_changes` (the workspace has changed or
 * untracked files that the worktree would not have: the child would work on other files than the
 * parent's, and its patch would not apply).
 */
export async function createSubagentWorktree(workspaceRoot: string, signal?: AbortSignal): Promise<SubagentWorktree> {
  const options = signal ? { signal } : {};
  let top: string;
  try {
    top = (await runGit(workspaceRoot, ['rev-parse', '--show-toplevel'], options)).stdout.trim();
  } catch (error) {
    if (ClawsmithError.isInstance(error) && error.code === 'git_failed')
      throw new ClawsmithError(
        'worktree_not_git_repository',
        `The workspace ${workspaceRoot} is not in a git repository, so delegate_worktree cannot make a worktree of it. ` +
          'Use delegate_task for read-only work, or ask the person to run `git init` and commit.',
      );
    throw error;
  }
  const repositoryRoot = realpathSync(top);
  const prefix = (await runGit(workspaceRoot, ['rev-parse', '--show-prefix'], options)).stdout.trim();
  const head = await runGit(workspaceRoot, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], {
    ...options,
    allowedExitCodes: [0, 1],
  });
  if (head.exitCode !== 0)
    throw new ClawsmithError(
      'worktree_no_commit',
      `The repository ${repositoryRoot} has no commit yet; a worktree starts from one. Ask the person to commit first.`,
    );
  const baseCommit = head.stdout.trim();
  const status = await runGit(workspaceRoot, ['status', '--porcelain=v1', '--untracked-files=all', '--', '.'], options);
  const dirty = status.stdout.split('\n').filter((line) => line.trim() !== '');
  if (dirty.length > 0) {
    const listed = dirty.slice(0, 10).map((line) => line.slice(3));
    throw new ClawsmithError(
      'worktree_uncommitted_changes',
      `The workspace has ${dirty.length} uncommitted change${dirty.length === 1 ? '' : 's'} (${listed.join(', ')}${dirty.length > listed.length ? ', …' : ''}) ` +
        'that a worktree of the last commit would not have. Ask the person to commit or stash them (or add them to .gitignore), then delegate again.',
    );
  }
  const holder = realpathSync(mkdtempSync(join(tmpdir(), 'clawsmith-worktree-')));
  if (inside(realpathSync(workspaceRoot), holder)) {
    rmSync(holder, { recursive: true, force: true });
    throw new ClawsmithError(
      'worktree_inside_workspace',
      `The temporary folder ${holder} lies inside the workspace; set TMPDIR to a folder outside it.`,
    );
  }
  const path = join(holder, basename(repositoryRoot) || 'worktree');
  const branch = `clawsmith/subagent-${randomBytes(4).toString('hex')}`;
  try {
    await runGit(repositoryRoot, ['worktree', 'add', '--quiet', '-b', branch, path, baseCommit], options);
  } catch (error) {
    rmSync(holder, { recursive: true, force: true });
    throw error;
  }
  return {
    repositoryRoot,
    path,
    workspaceRoot: prefix === '' ? path : join(path, prefix.replace(/\/$/, '')),
    prefix,
    branch,
    baseCommit,
    holder,
  };
}

/**
 * Commits everything the child changed in its worktree (new files included, ignored files not)
 * on its branch and returns the patch from the base commit. The patch names paths relative to the
 * parent's workspace; binary files show as `Binary files … differ` (their bytes are on the branch).
 */
export async function collectWorktreeChanges(worktree: SubagentWorktree, message: string): Promise<WorktreeChanges> {
  await runGit(worktree.path, ['add', '--all']);
  const staged = await runGit(worktree.path, ['diff', '--cached', '--quiet', '--no-ext-diff'], {
    allowedExitCodes: [0, 1],
  });
  if (staged.exitCode === 1)
    await runGit(worktree.path, ['commit', '--quiet', '--no-verify', '--no-gpg-sign', '-m', message]);
  const tip = (await runGit(worktree.path, ['rev-parse', 'HEAD'])).stdout.trim();
  const scope = worktree.prefix === '' ? [] : [`--relative=${worktree.prefix}`];
  const range = [worktree.baseCommit, tip];
  const patch = (
    await runGit(worktree.path, [
      'diff',
      '--no-color',
      '--no-ext-diff',
      '--no-textconv',
      '--no-renames',
      ...scope,
      ...range,
    ])
  ).stdout;
  const names = (await runGit(worktree.path, ['diff', '--name-status', '--no-renames', '-z', ...scope, ...range]))
    .stdout;
  const fields = names.split('\0').filter((field) => field !== '');
  const files: { status: string; path: string }[] = [];
  for (let index = 0; index + 1 < fields.length; index += 2)
    files.push({ status: fields[index]!, path: fields[index + 1]! });
  return { patch, files, commit: tip === worktree.baseCommit ? undefined : tip };
}

/** Removes the worktree and its temporary folder; the branch stays in the repository. */
export async function removeSubagentWorktree(worktree: SubagentWorktree): Promise<void> {
  try {
    await runGit(worktree.repositoryRoot, ['worktree', 'remove', '--force', '--force', worktree.path]);
  } finally {
    rmSync(worktree.holder, { recursive: true, force: true });
    // The folder is gone either way: git forgets a worktree whose folder vanished.
    await runGit(worktree.repositoryRoot, ['worktree', 'prune']).catch(() => undefined);
  }
}
