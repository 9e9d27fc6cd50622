import { fstatSync, readlinkSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import type { RestoreEntryRow } from './checkpoint-schema.js';
import { holdReplaced, releaseReplaced, StagedWrites } from './staged-writes.js';

function staged(path: string, index = 0) {
  const entry = { path } as RestoreEntryRow;
  return {
    entry,
    index,
    temporary: `/w/.${path}.tmp`,
    absolutePath: `/w/${path}`,
    held: undefined,
    isFile: true,
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
      const descriptors = holdReplaced([...writes, { ...staged('new.txt'), absolutePath: join(root, 'new.txt') }]);
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
