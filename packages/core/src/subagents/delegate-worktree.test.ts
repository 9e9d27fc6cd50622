import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { snapshotTree } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { call, createHarness, type HarnessOptions } from '../__fixtures__/core-harness.js';
import { createBuiltinTools } from '../builtin-tools.js';

function git(cwd: string, ...args: string[]): string {
  // The test's own git runs no hook or monitor either: only the code under test may be caught.
  return execFileSync('git', ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', ...args], {
    cwd,
    encoding: 'utf8',
  }).trim();
}

/** The workspace's files, without the repository's own folder (git writes there on its own). */
function tree(root: string): Record<string, string> {
  return Object.fromEntries(Object.entries(snapshotTree(root)).filter(([path]) => !path.startsWith('.git')));
}

function commitAll(root: string): void {
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'add', '-A');
  git(root, '-c', 'user.name=person', '-c', 'user.email=person@example.com', 'commit', '-q', '-m', 'base');
}

const files = { 'a.txt': 'alpha\nbeta\ngamma\n', 'src/b.ts': 'export const b = 1;\n' };

/** A child that edits a.txt and creates src/c.ts in its worktree, then answers. */
const editingChild = [
  {
    toolCalls: [
      call('c-edit', 'edit_file', { path: 'a.txt', oldText: 'beta', newText: 'BETA' }),
      call('c-new', 'write_file', { path: 'src/c.ts', content: 'export const c = 3;\n' }),
    ],
  },
  { text: 'Changed beta to BETA in a.txt and added src/c.ts.' },
];

async function worktreeHarness(options: Partial<HarnessOptions> = {}) {
  const harness = await createHarness({
    files,
    builtinTools: createBuiltinTools(),
    permissionMode: 'full-auto',
    responses: [
      { toolCalls: [call('w1', 'delegate_worktree', { prompt: 'Shout beta and add c' })] },
      { text: 'The subagent is done.' },
    ],
    children: { w1: editingChild },
    ...options,
  });
  return harness;
}

interface WorktreeAnswer {
  status: string;
  summary: string;
  childSessionId: string;
  branch: string;
  baseCommit: string;
  commit: string | null;
  worktree: string | null;
  filesChanged: { status: string; path: string }[];
  patch: string;
  patchBytes: number;
  patchTruncated: boolean;
  patchArtifact?: string;
}

describe('delegate_worktree', () => {
  it('a child edits its worktree; the parent gets the patch and the branch, its workspace unchanged until apply_patch, which undo takes back', async () => {
    const harness = await worktreeHarness();
    commitAll(harness.workspace);
    const before = tree(harness.workspace);
    const turn = await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'delegate it' });
    expect(turn.status).toBe('completed');

    const [completed] = await harness.eventsOf('tool.completed');
    expect(completed!.result).toMatchObject({ status: 'success' });
    const answer = JSON.parse(String(completed!.output)) as WorktreeAnswer;
    expect(answer).toMatchObject({
      status: 'completed',
      summary: 'Changed beta to BETA in a.txt and added src/c.ts.',
      baseCommit: git(harness.workspace, 'rev-parse', 'HEAD'),
      worktree: null,
      patchTruncated: false,
      filesChanged: [
        { status: 'M', path: 'a.txt' },
        { status: 'A', path: 'src/c.ts' },
      ],
    });
    expect(answer.branch).toMatch(/^clawsmith\/subagent-[0-9a-f]{8}$/);
    expect(answer.patch).toContain('--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n alpha\n-beta\n+BETA\n gamma\n');
    expect(answer.patch).toContain('new file mode 100644');
    expect(answer.patch).toContain('+++ b/src/c.ts\n@@ -0,0 +1 @@\n+export const c = 3;\n');
    expect(answer.patchBytes).toBe(Buffer.byteLength(answer.patch));
    // The whole patch is an artifact; the branch holds the child's commit.
    const artifact = await harness.home.artifacts.readBytes(harness.session.id, answer.patchArtifact!, { offset: 0 });
    expect(Buffer.from(artifact.bytes).toString('utf8')).toBe(answer.patch);
    expect(git(harness.workspace, 'rev-parse', answer.branch)).toBe(answer.commit);
    expect(git(harness.workspace, 'show', `${answer.branch}:a.txt`)).toBe('alpha\nBETA\ngamma');

    // The child is a session of its own, in the worktree, outside the parent's workspace.
    const [child] = await harness.core.listDelegations(harness.session.id);
    expect(child).toMatchObject({ kind: 'worktree', status: 'completed', parentToolCallId: 'w1' });
    const childSession = (await harness.core.listSessions()).find((session) => session.id === child!.childSessionId)!;
    expect(childSession.workspaceRoot.startsWith(harness.workspace)).toBe(false);
    expect(tree(harness.workspace)).toEqual(before);
    expect(git(harness.workspace, 'status', '--porcelain')).toBe('');

    // Applying is a call of its own, with a restore point: undo takes it back.
    const applied = await harness.core.callTool({
      sessionId: harness.session.id,
      name: 'apply_patch',
      arguments: { patch: answer.patch },
    });
    expect(applied.result).toMatchObject({ status: 'success' });
    expect(readFileSync(join(harness.workspace, 'a.txt'), 'utf8')).toBe('alpha\nBETA\ngamma\n');
    expect(readFileSync(join(harness.workspace, 'src/c.ts'), 'utf8')).toBe('export const c = 3;\n');
    expect(applied.changedFiles.map((file) => [file.path, file.change])).toEqual([
      ['a.txt', 'modified'],
      ['src/c.ts', 'created'],
    ]);
    await harness.core.restore(harness.session.id, applied.turnId, 'files');
    expect(tree(harness.workspace)).toEqual(before);

    // Worktrees end with the core; the branch stays for the person.
    expect(existsSync(childSession.workspaceRoot)).toBe(true);
    await harness.core.close();
    expect(existsSync(childSession.workspaceRoot)).toBe(false);
    expect(git(harness.workspace, 'worktree', 'list')).not.toContain('clawsmith-worktree-');
    expect(git(harness.workspace, 'branch', '--list', answer.branch)).toContain(answer.branch);
  });

  it('a conflicting apply is refused whole and changes nothing', async () => {
    const harness = await worktreeHarness();
    commitAll(harness.workspace);
    await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'delegate it' });
    const answer = JSON.parse(String((await harness.eventsOf('tool.completed'))[0]!.output)) as WorktreeAnswer;
    // The person changes a.txt meanwhile.
    writeFileSync(join(harness.workspace, 'a.txt'), 'alpha\nbeta, edited by the person\ngamma\n');
    const before = tree(harness.workspace);
    const applied = await harness.core.callTool({
      sessionId: harness.session.id,
      name: 'apply_patch',
      arguments: { patch: answer.patch },
    });
    expect(applied.result).toMatchObject({ status: 'error', code: 'patch_conflict' });
    expect(applied.result.content).toContain('- a.txt hunk @@ -1,3 +1,3 @@');
    expect(applied.result.content).toContain('expected: beta\n    found:    beta, edited by the person');
    expect(tree(harness.workspace)).toEqual(before);
    expect(applied.changedFiles).toEqual([]);
  });

  it('refuses a workspace outside git and one with uncommitted changes, with codes that say what to do', async () => {
    const outside = await worktreeHarness();
    await outside.core.runTurn({ sessionId: outside.session.id, prompt: 'delegate it' });
    const [notRepository] = await outside.eventsOf('tool.completed');
    expect(notRepository!.result).toMatchObject({ status: 'error', code: 'worktree_not_git_repository' });
    expect(String(notRepository!.output)).toContain('Use delegate_task for read-only work');
    expect(await outside.core.listDelegations(outside.session.id)).toEqual([]);

    const dirty = await worktreeHarness();
    commitAll(dirty.workspace);
    writeFileSync(join(dirty.workspace, 'a.txt'), 'changed but not committed\n');
    writeFileSync(join(dirty.workspace, 'notes.txt'), 'untracked\n');
    await dirty.core.runTurn({ sessionId: dirty.session.id, prompt: 'delegate it' });
    const [uncommitted] = await dirty.eventsOf('tool.completed');
    expect(uncommitted!.result).toMatchObject({ status: 'error', code: 'worktree_uncommitted_changes' });
    expect(String(uncommitted!.output)).toContain('2 uncommitted changes (a.txt, notes.txt)');
    expect(git(dirty.workspace, 'branch', '--list', 'clawsmith/*')).toBe('');
  });

  it("runs the child in the parent's mode: in default mode the delegation and the child's edits are asked", async () => {
    const asked: string[] = [];
    const harness = await worktreeHarness({
      permissionMode: 'default',
      approvalHandler: async (request) => {
        asked.push(`${request.toolName}`);
        return request.toolName === 'write_file' ? 'deny' : 'allow';
      },
    });
    commitAll(harness.workspace);
    await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'delegate it' });
    expect(asked).toEqual(['delegate_worktree', 'edit_file', 'write_file']);
    const answer = JSON.parse(String((await harness.eventsOf('tool.completed'))[0]!.output)) as WorktreeAnswer;
    expect(answer.filesChanged).toEqual([{ status: 'M', path: 'a.txt' }]);

    const readOnly = await worktreeHarness({ permissionMode: 'read-only' });
    commitAll(readOnly.workspace);
    await readOnly.core.runTurn({ sessionId: readOnly.session.id, prompt: 'delegate it' });
    const [denied] = await readOnly.eventsOf('tool.completed');
    expect(denied!.result).toMatchObject({ status: 'denied' });
    expect(await readOnly.core.listDelegations(readOnly.session.id)).toEqual([]);
  });

  it('keeps the worktree when asked, and works from a workspace below the repository top', async () => {
    const harness = await createHarness({
      files: { 'pkg/a.txt': 'alpha\nbeta\ngamma\n', 'other/x.txt': 'x\n' },
      builtinTools: createBuiltinTools(),
      permissionMode: 'full-auto',
      responses: [],
    });
    commitAll(harness.workspace);
    const inner = await createHarness({
      sharedHome: harness.home,
      builtinTools: createBuiltinTools(),
      permissionMode: 'full-auto',
      responses: [
        { toolCalls: [call('w1', 'delegate_worktree', { prompt: 'Shout beta', keepWorktree: true })] },
        { text: 'ok' },
      ],
      children: { w1: [{ toolCalls: editingChild[0]!.toolCalls!.slice(0, 1) }, editingChild[1]!] },
    });
    const session = await inner.core.createSession({ workspaceRoot: join(harness.workspace, 'pkg') });
    await inner.core.runTurn({ sessionId: session.id, prompt: 'delegate it' });
    const completed = (await inner.core.listEvents(session.id)).find((event) => event.type === 'tool.completed')!;
    const answer = JSON.parse(String(completed.output)) as WorktreeAnswer;
    expect(answer.filesChanged).toEqual([{ status: 'M', path: 'a.txt' }]);
    expect(answer.patch).toContain('--- a/a.txt\n+++ b/a.txt\n');
    expect(answer.worktree!.endsWith('/pkg')).toBe(true);
    await inner.core.close();
    expect(readFileSync(join(answer.worktree!, 'a.txt'), 'utf8')).toBe('alpha\nBETA\ngamma\n');
    git(harness.workspace, 'worktree', 'remove', '--force', join(answer.worktree!, '..'));
    rmSync(join(answer.worktree!, '..', '..'), { recursive: true, force: true });
  });

  it("never runs the repository's hooks or file-system monitor, and path rules see every file of a patch", async () => {
    const harness = await worktreeHarness({
      rules: [{ action: 'deny', paths: ['src/**'], reason: 'src is frozen' }],
    });
    commitAll(harness.workspace);
    const marker = join(harness.workspace, '..', `${Date.now()}-hook-ran`);
    const script = `#!/bin/sh\necho ran >> ${marker}\n`;
    for (const hook of ['post-checkout', 'pre-commit', 'commit-msg', 'post-commit'])
      writeFileSync(join(harness.workspace, '.git/hooks', hook), script);
    for (const hook of ['post-checkout', 'pre-commit', 'commit-msg', 'post-commit'])
      chmodSync(join(harness.workspace, '.git/hooks', hook), 0o755);
    writeFileSync(join(harness.workspace, 'monitor.sh'), script, { mode: 0o755 });
    git(harness.workspace, 'config', 'core.fsmonitor', join(harness.workspace, 'monitor.sh'));
    git(harness.workspace, 'add', 'monitor.sh');
    git(
      harness.workspace,
      '-c',
      'core.fsmonitor=false',
      '-c',
      'user.name=p',
      '-c',
      'user.email=p@p',
      'commit',
      '-q',
      '--no-verify',
      '-m',
      'monitor',
    );
    await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'delegate it' });
    const answer = JSON.parse(String((await harness.eventsOf('tool.completed'))[0]!.output)) as WorktreeAnswer;
    // The child's write into src/ was denied by the rule (the child has the parent's rules).
    expect(answer.filesChanged).toEqual([{ status: 'M', path: 'a.txt' }]);
    expect(existsSync(marker)).toBe(false);

    const frozen = '--- a/src/b.ts\n+++ b/src/b.ts\n@@ -1 +1 @@\n-export const b = 1;\n+export const b = 2;\n';
    const applied = await harness.core.callTool({
      sessionId: harness.session.id,
      name: 'apply_patch',
      arguments: { patch: `${answer.patch}${frozen}` },
    });
    expect(applied.result).toMatchObject({ status: 'denied' });
    expect(readFileSync(join(harness.workspace, 'a.txt'), 'utf8')).toBe(files['a.txt']);
    expect(existsSync(marker)).toBe(false);
  });

  it('a child runs commands in its worktree (sandboxed, git working there) and their changes are in the patch', async () => {
    const harness = await worktreeHarness({
      builtinTools: createBuiltinTools({ command: { sandbox: 'auto' } }),
      children: {
        w1: [
          {
            toolCalls: [
              call('c-run', 'run_command', {
                command: "mkdir -p lib && printf 'made\\n' > lib/made.txt && git status --porcelain",
              }),
            ],
          },
          { text: 'made lib/made.txt' },
        ],
      },
    });
    commitAll(harness.workspace);
    await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'delegate it' });
    const [child] = await harness.core.listDelegations(harness.session.id);
    const ran = (await harness.core.listEvents(child!.childSessionId)).find(
      (event) => event.type === 'tool.completed',
    )!;
    expect(ran.result).toMatchObject({ status: 'success' });
    expect(String(ran.output)).toContain('?? lib/');
    const answer = JSON.parse(String((await harness.eventsOf('tool.completed'))[0]!.output)) as WorktreeAnswer;
    expect(answer.filesChanged).toEqual([{ status: 'A', path: 'lib/made.txt' }]);
    expect(existsSync(join(harness.workspace, 'lib'))).toBe(false);
  });
});
