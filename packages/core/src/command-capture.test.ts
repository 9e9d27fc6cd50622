import { existsSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { snapshotTree } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { call, createHarness } from './__fixtures__/core-harness.js';

// run_command in the real bubblewrap sandbox with overlay capture: what a command changes is
// recorded in the turn's checkpoint and `restore(..., 'files')` puts the workspace back.

async function commandTurn(files: Record<string, string | { content: string; mode: number }>, commands: string[]) {
  const harness = await createHarness({
    files,
    permissionMode: 'full-auto',
    responses: [
      { toolCalls: commands.map((command, index) => call(`c${index}`, 'run_command', { command })) },
      { text: 'done' },
    ],
  });
  const before = snapshotTree(harness.workspace);
  const turn = await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'run' });
  const results = (await harness.eventsOf('tool.completed')).map((event) => JSON.stringify(event));
  return { harness, before, turn, results };
}

describe('run_command with overlay capture', () => {
  it('records a deletion and undo brings the file back', async () => {
    const { harness, before, turn, results } = await commandTurn({ 'important.txt': 'do not lose me\n' }, [
      'rm important.txt',
    ]);
    expect(existsSync(join(harness.workspace, 'important.txt'))).toBe(false);
    expect(turn.changedFiles).toEqual([{ path: 'important.txt', change: 'deleted', linesAdded: 0, linesRemoved: 1 }]);
    expect(results.join('\n')).toContain('1 file changed (1 deleted)');
    await harness.core.restore(harness.session.id, turn.turnId, 'files');
    expect(snapshotTree(harness.workspace)).toEqual(before);
  });

  it('undoes edits, renames, modes, links, new folders and a removed tree byte for byte', async () => {
    const { harness, before, turn } = await commandTurn(
      {
        'a.txt': 'hello\nworld\n',
        'b.txt': 'moved\n',
        'run.sh': '#!/bin/sh\necho run\n',
        'src/index.ts': 'export const x = 1;\n',
        'src/deep/util.ts': 'export {};\n',
        'src/deep/empty/.keep': '',
        'script.sh': { content: '#!/bin/sh\n', mode: 0o755 },
      },
      [
        'sed -i s/hello/goodbye/ a.txt && mv b.txt c.txt && chmod +x run.sh && chmod -x script.sh',
        'ln -s /etc/passwd link && mkdir -p gen/one/two && for i in 1 2 3; do echo $i > gen/one/two/f$i; done',
        'rm -rf src',
      ],
    );
    expect(readFileSync(join(harness.workspace, 'a.txt'), 'utf8')).toBe('goodbye\nworld\n');
    expect(readFileSync(join(harness.workspace, 'c.txt'), 'utf8')).toBe('moved\n');
    expect(readlinkSync(join(harness.workspace, 'link'))).toBe('/etc/passwd');
    expect(existsSync(join(harness.workspace, 'src'))).toBe(false);
    expect(readFileSync(join(harness.workspace, 'gen/one/two/f3'), 'utf8')).toBe('3\n');
    const changed = new Map(turn.changedFiles.map((file) => [file.path, file.change]));
    expect(Object.fromEntries(changed)).toMatchObject({
      'a.txt': 'modified',
      'b.txt': 'deleted',
      'c.txt': 'created',
      'run.sh': 'modified',
      'script.sh': 'modified',
      link: 'created',
      'gen/one/two/f1': 'created',
      'src/deep/util.ts': 'deleted',
      src: 'deleted',
    });
    await harness.core.restore(harness.session.id, turn.turnId, 'files');
    expect(snapshotTree(harness.workspace)).toEqual(before);
  });

  it('refuses writes to protected paths and applies nothing there', async () => {
    const { harness, before, turn, results } = await commandTurn({ '.git/hooks/README': 'hooks\n', 'a.txt': 'a\n' }, [
      'echo evil > .git/hooks/pre-commit; echo x > .clawsmith/x; echo fine > b.txt',
    ]);
    expect(existsSync(join(harness.workspace, '.git/hooks/pre-commit'))).toBe(false);
    expect(existsSync(join(harness.workspace, '.clawsmith'))).toBe(false);
    expect(turn.changedFiles.map((file) => file.path)).toEqual(['b.txt']);
    expect(results.join('\n')).toContain('Read-only file system');
    await harness.core.restore(harness.session.id, turn.turnId, 'files');
    expect(snapshotTree(harness.workspace)).toEqual(before);
  });

  it('applies what a command wrote before its timeout, and undo removes it', async () => {
    const harness = await createHarness({
      files: { 'keep.txt': 'keep\n' },
      permissionMode: 'full-auto',
      responses: [
        {
          toolCalls: [
            call('loop', 'run_command', {
              command: 'for i in $(seq 1 100000); do echo $i > out-$i.txt; sleep 0.01; done',
              timeoutSeconds: 1,
            }),
          ],
        },
        { text: 'done' },
      ],
    });
    const before = snapshotTree(harness.workspace);
    const turn = await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'run' });
    const written = turn.changedFiles.filter((file) => file.path.startsWith('out-'));
    expect(written.length).toBeGreaterThan(0);
    expect(written.every((file) => file.change === 'created')).toBe(true);
    expect(existsSync(join(harness.workspace, 'out-1.txt'))).toBe(true);
    const result = JSON.stringify(await harness.eventsOf('tool.completed'));
    expect(result).toContain('what the command wrote before it was stopped was applied');
    await harness.core.restore(harness.session.id, turn.turnId, 'files');
    expect(snapshotTree(harness.workspace)).toEqual(before);
  });

  it('never overwrites a file the person changed while the command ran', async () => {
    const harness = await createHarness({
      files: { 'f.txt': 'original\n' },
      permissionMode: 'full-auto',
      responses: [
        { toolCalls: [call('slow', 'run_command', { command: 'sleep 2; echo new > f.txt; echo other > g.txt' })] },
        { text: 'done' },
      ],
    });
    const edit = setTimeout(() => writeFileSync(join(harness.workspace, 'f.txt'), 'the person typed this\n'), 1_000);
    const turn = await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'run' });
    clearTimeout(edit);
    expect(readFileSync(join(harness.workspace, 'f.txt'), 'utf8')).toBe('the person typed this\n');
    expect(readFileSync(join(harness.workspace, 'g.txt'), 'utf8')).toBe('other\n');
    expect(turn.changedFiles.map((file) => file.path)).toEqual(['g.txt']);
    const [completed] = await harness.eventsOf('tool.completed');
    const text = JSON.stringify(completed);
    expect(text).toContain('Conflict: f.txt changed in the workspace while the command ran');
    const artifactId = /artifact (\S+) \(read_artifact\)/.exec(text)?.[1];
    expect(artifactId).toBeDefined();
    const stored = await harness.home.artifacts.readBytes(harness.session.id, artifactId!, { offset: 0, length: 100 });
    expect(Buffer.from(stored.bytes).toString()).toBe('new\n');
  });
});
