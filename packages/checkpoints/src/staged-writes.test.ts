import { describe, expect, it } from 'vitest';
import type { RestoreEntryRow } from './checkpoint-schema.js';
import { StagedWrites } from './staged-writes.js';

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
