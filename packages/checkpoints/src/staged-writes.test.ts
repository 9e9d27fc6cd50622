import { fstatSync, readlinkSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import type { RestoreEntryRow } from './checkpoint-schema.js';
import { holdReplaced, releaseReplaced, StagedWrites, syncTemporaries } from './staged-writes.js';

// A link's copy (`isFile: false`) has nothing to sync: these writes name no real file.
function staged(path: string, index = 0) {
  const entry = { path } as RestoreEntryRow;
  return {
    entry,
    index,
    temporary: `/w/.${path}.tmp`,
    absolutePath: `/w/${path}`,
    held: undefined,
    isFile: false,
  };
}

describe(StagedWrites, () => {
  it('lets unrelated paths join the group, and makes a path above or below a staged one wait for it', () => {
    const writes = new StagedWrites();
    writes.add(staged('src/a.ts'));
    expect(writes.mustFlushBefore('src/b.ts')).toBe(false);
    expect(writes.mustFlushBefore('other/a.ts')).toBe(false);
    expect(writes.mustFlushBefore('src')).toBe(true);
    expect(writes.mustFlushBefore('src/a.ts/inner')).toBe(true);
    expect(writes.mustFlushBefore('src/a.tsx')).toBe(false);
    expect(writes.take().map((write) => write.entry.path)).toEqual(['src/a.ts']);
    expect(writes.mustFlushBefore('src')).toBe(false);
    expect(writes.take()).toEqual([]);
  });

  it('asks for a flush once a group holds 128 writes', () => {
    const writes = new StagedWrites();
    for (let index = 0; index < 127; index += 1) writes.add(staged(`f${index}`, index));
    expect(writes.mustFlushBefore('next')).toBe(false);
    writes.add(staged('f127', 127));
    expect(writes.mustFlushBefore('next')).toBe(true);
    expect(writes.take()).toHaveLength(128);
  });
});

describe(syncTemporaries, () => {
  it('waits for the sync each staged copy started, and fails when one could not be synced', async () => {
    const root = testdir({ '.a.tmp': 'new a\n', '.b.tmp': 'new b\n' });
    const writes = new StagedWrites();
    for (const [index, name] of ['a', 'b'].entries())
      writes.add({ ...staged(name, index), temporary: join(root, `.${name}.tmp`), isFile: true });
    await expect(syncTemporaries(writes.take())).resolves.toBeUndefined();
    // A copy removed before its sync (only someone with write access to the folder can): the group fails.
    writes.add({ ...staged('gone', 0), temporary: join(root, '.gone.tmp'), isFile: true });
    await expect(syncTemporaries(writes.take())).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe(holdReplaced, () => {
  it.runIf(process.platform === 'linux')(
    'holds each file a rename will replace until released, and skips paths that hold nothing',
    async () => {
      const root = testdir({ 'a.txt': 'old a\n', 'b.txt': 'old b\n' });
      const held = { device: 0, inode: 0, size: 0, mtimeMs: 0 };
      const writes = ['a.txt', 'b.txt', 'gone.txt'].map((path, index) => ({
        ...staged(path, index),
        absolutePath: join(root, path),
        held,
      }));
      const descriptors = holdReplaced(
        [...writes, { ...staged('new.txt'), absolutePath: join(root, 'new.txt') }].map((write) => ({
          ...write,
          synced: Promise.resolve(),
        })),
      );
      expect(descriptors.map((descriptor) => readlinkSync(`/proc/self/fd/${descriptor}`))).toEqual([
        join(root, 'a.txt'),
        join(root, 'b.txt'),
      ]);
      writeFileSync(join(root, '.a.tmp'), 'new a\n');
      renameSync(join(root, '.a.tmp'), join(root, 'a.txt'));
      // The replaced file is still referenced (and now has no name) until the release.
      expect(fstatSync(descriptors[0]!).nlink).toBe(0);
      await releaseReplaced(descriptors);
      for (const descriptor of descriptors) expect(() => fstatSync(descriptor)).toThrow(/EBADF/);
    },
  );
});
