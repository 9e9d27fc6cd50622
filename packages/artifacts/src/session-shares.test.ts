import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ArtifactNotFoundError } from './artifact-errors.js';
import { openTestStore } from './__fixtures__/open-test-store.js';

describe('artifacts shared with a fork', () => {
  it('lets a fork read its parent’s artifacts (and its grandchild, through it), and nobody else', async () => {
    const { store } = await openTestStore();
    const { id } = await store.write('kept output\n', { sessionId: 'parent', toolCallId: 'c1' });
    expect(await store.shareSession('parent', 'child')).toBe(1);
    expect(await store.shareSession('child', 'grandchild')).toBe(1);
    for (const session of ['parent', 'child', 'grandchild'])
      expect(Buffer.from((await store.readLines(session, id, { startLine: 1 })).bytes).toString()).toBe(
        'kept output\n',
      );
    await expect(store.info('stranger', id)).rejects.toBeInstanceOf(ArtifactNotFoundError);
    // Sharing is not owning: the fork lists and counts only its own artifacts.
    expect(await store.list('child')).toEqual([]);
    expect(await store.sessionBytes('child')).toBe(0);
  });

  it('keeps a shared body when its owner is deleted, and removes it with the last session that reads it', async () => {
    const { store, directory } = await openTestStore();
    const { id } = await store.write('shared\n', { sessionId: 'parent', toolCallId: 'c1' });
    const own = await store.write('only the parent\n', { sessionId: 'parent', toolCallId: 'c2' });
    await store.shareSession('parent', 'child');
    const mine = await store.write('the child’s own\n', { sessionId: 'child', toolCallId: 'c3' });

    // Both of the parent's artifacts were shared before the delete, so both pass to the child.
    expect(await store.deleteSession('parent')).toBe(0);
    await expect(store.info('parent', id)).rejects.toBeInstanceOf(ArtifactNotFoundError);
    expect(await store.info('child', id)).toMatchObject({ sessionId: 'child' });
    expect((await store.list('child')).map((info) => info.id).sort()).toEqual([id, own.id, mine.id].sort());

    expect(await store.deleteSession('child')).toBe(3);
    for (const gone of [id, own.id, mine.id]) expect(existsSync(join(directory, gone))).toBe(false);
  });

  it('ends the shares of an artifact that retention removes', async () => {
    let clock = 1_000;
    const { store } = await openTestStore({ now: () => clock });
    const { id } = await store.write('old\n', { sessionId: 'parent', toolCallId: 'c1' });
    await store.shareSession('parent', 'child');
    clock += 40 * 24 * 60 * 60 * 1_000;
    const result = await store.prune({ maxAgeMs: 30 * 24 * 60 * 60 * 1_000, keepNewestPerSession: 0 });
    expect(result.removed).toBe(1);
    await expect(store.info('child', id)).rejects.toBeInstanceOf(ArtifactNotFoundError);
    // A later artifact with a new id is not readable through the old share.
    expect(await store.shareSession('parent', 'child')).toBe(0);
  });
});
