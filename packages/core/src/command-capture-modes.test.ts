import { existsSync, lstatSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { snapshotTree, testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { call, createHarness } from './__fixtures__/core-harness.js';

// Capture applies only what a file tool could do, and undo is exact afterwards, also where a
// command swapped a folder and a link (real bubblewrap, real overlay, real checkpoints).

async function commandTurn(files: Record<string, string | { content: string; mode: number }>, command: string) {
  const harness = await createHarness({
    files,
    permissionMode: 'full-auto',
    responses: [{ toolCalls: [call('c0', 'run_command', { command })] }, { text: 'done' }],
  });
  const before = snapshotTree(harness.workspace);
  const turn = await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'run' });
  const result = JSON.stringify(await harness.eventsOf('tool.completed'));
  return { harness, before, turn, result };
}

describe('run_command capture: only what a file tool could do', () => {
  it('refuses setuid, setgid and sticky bits and special files, applies the rest, and undo is exact', async () => {
    const { harness, before, turn, result } = await commandTurn(
      { 'suid.sh': { content: '#!/bin/sh\nid\n', mode: 0o755 }, 'a.txt': 'a\n' },
      'chmod 6755 suid.sh && printf "#!/bin/sh\\n" > new.sh && chmod 4755 new.sh && echo s > sticky && chmod 1644 sticky && mkfifo pipe && echo fine > ok.txt',
    );
    expect(lstatSync(join(harness.workspace, 'suid.sh')).mode & 0o7777).toBe(0o755);
    expect(existsSync(join(harness.workspace, 'new.sh'))).toBe(false);
    expect(existsSync(join(harness.workspace, 'sticky'))).toBe(false);
    expect(existsSync(join(harness.workspace, 'pipe'))).toBe(false);
    expect(readFileSync(join(harness.workspace, 'ok.txt'), 'utf8')).toBe('fine\n');
    expect(turn.changedFiles.map((file) => file.path)).toEqual(['ok.txt']);
    expect(result).toContain('Not applied (setuid/setgid/sticky bit): new.sh, sticky, suid.sh');
    expect(result).toContain('Not applied (fifo): pipe');
    expect(result).toMatch(/Kept for recovery: new\.sh: the command's version is artifact [^ ]+ \(read_artifact\)/);
    // The FIFO has no bytes to hand over: the capture folder is kept and named.
    const keptFolder = /The command's output files are kept in ([^ ]+?)\./.exec(result)?.[1];
    expect(keptFolder && lstatSync(join(keptFolder, 'pipe')).isFIFO()).toBe(true);
    rmSync(join(keptFolder!, '..'), { recursive: true, force: true });
    await harness.core.restore(harness.session.id, turn.turnId, 'files');
    expect(snapshotTree(harness.workspace)).toEqual(before);
  });

  it.each([
    ['outside the workspace', () => testdir({ 'k.txt': 'elsewhere\n' })],
    ['inside the workspace', () => 'other'],
  ])('undoes a folder replaced by a link %s', async (_where, target) => {
    const linkTarget = target();
    const { harness, before, turn } = await commandTurn(
      { 'keep/k.txt': 'k\n', 'keep/deep/d.txt': 'd\n', 'other/o.txt': 'o\n' },
      `rm -rf keep && ln -s ${linkTarget} keep`,
    );
    expect(readlinkSync(join(harness.workspace, 'keep'))).toBe(linkTarget);
    await harness.core.restore(harness.session.id, turn.turnId, 'files');
    expect(snapshotTree(harness.workspace)).toEqual(before);
  });

  it('undoes a link replaced by a folder', async () => {
    const { harness, before, turn } = await commandTurn(
      { 'real/r.txt': 'r\n', linked: { symlink: 'real' } } as never,
      'rm linked && mkdir -p linked/deep && echo n > linked/deep/n.txt',
    );
    expect(lstatSync(join(harness.workspace, 'linked')).isDirectory()).toBe(true);
    await harness.core.restore(harness.session.id, turn.turnId, 'files');
    expect(snapshotTree(harness.workspace)).toEqual(before);
    expect(readlinkSync(join(harness.workspace, 'linked'))).toBe('real');
  });
});
