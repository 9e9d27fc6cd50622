import { appendFileSync, existsSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openTestStore } from './__fixtures__/open-test-store.js';
import { createArtifactStore } from './artifact-store.js';

const DAY = 24 * 60 * 60 * 1000;

describe('ArtifactStore.deleteSession', () => {
  it('deletes the rows and bodies of one session and nothing else', async () => {
    const { store, directory } = await openTestStore();
    const gone = await store.write('a', { sessionId: 'gone', toolCallId: 'c' });
    const kept = await store.write('b', { sessionId: 'kept', toolCallId: 'c' });
    expect(await store.deleteSession('gone')).toBe(1);
    expect(existsSync(join(directory, gone.id))).toBe(false);
    await expect(store.info('gone', gone.id)).rejects.toMatchObject({ code: 'artifact_not_found' });
    expect(await store.info('kept', kept.id)).toMatchObject({ byteLength: 1 });
    expect(await store.deleteSession('never-existed')).toBe(0);
  });
});

describe('ArtifactStore.prune', () => {
  it('removes artifacts past the age limit but keeps the newest of each session', async () => {
    let clock = 0;
    const { store } = await openTestStore({ now: () => clock });
    const old = [];
    for (let index = 0; index < 3; index += 1)
      old.push(await store.write(`old ${index}`, { sessionId: 's', toolCallId: `c${index}` }));
    clock = 40 * DAY;
    const fresh = await store.write('fresh', { sessionId: 's', toolCallId: 'c9' });
    expect(await store.prune({ keepNewestPerSession: 1 })).toMatchObject({ removed: 3, freedBytes: 15 });
    expect((await store.list('s')).map((info) => info.id)).toEqual([fresh.id]);
    clock = 80 * DAY;
    expect(await store.prune({ keepNewestPerSession: 1 })).toMatchObject({ removed: 0 });
    void old;
  });

  it('removes the oldest artifacts beyond the per-session and total quotas', async () => {
    let clock = 0;
    const { store } = await openTestStore({ now: () => (clock += 1) });
    for (const session of ['a', 'b']) {
      for (let index = 0; index < 5; index += 1)
        await store.write('x'.repeat(100), { sessionId: session, toolCallId: `c${index}` });
    }
    expect(await store.prune({ maxBytesPerSession: 300, keepNewestPerSession: 0 })).toMatchObject({
      removed: 4,
      freedBytes: 400,
    });
    expect((await store.list('a')).length).toBe(3);
    expect(await store.prune({ maxBytesPerSession: 300, maxTotalBytes: 250, keepNewestPerSession: 0 })).toMatchObject({
      removed: 4,
    });
    expect([...(await store.list('a')), ...(await store.list('b'))].map((info) => info.sessionId)).toEqual(['b', 'b']);
  });

  it('never removes an artifact a live writer is still appending to', async () => {
    let clock = 0;
    const { store } = await openTestStore({ now: () => clock });
    const log = await store.openAppendable({ sessionId: 's', toolCallId: 'long-command' });
    await log.append('x'.repeat(1_000));
    const finished = await store.write('y'.repeat(1_000), { sessionId: 's', toolCallId: 'c' });
    clock = 400 * DAY;
    expect(await store.prune({ maxBytesPerSession: 0, maxTotalBytes: 0, keepNewestPerSession: 0 })).toMatchObject({
      removed: 1,
    });
    await expect(store.info('s', finished.id)).rejects.toMatchObject({ code: 'artifact_not_found' });
    await log.append('still here\n');
    expect((await store.info('s', log.id)).byteLength).toBe(1_011);
    await log.close();
    expect(await store.prune({ maxBytesPerSession: 0, maxTotalBytes: 0, keepNewestPerSession: 0 })).toMatchObject({
      removed: 1,
    });
  });

  it('leaves an artifact open in another store (another process) alone too', async () => {
    let clock = 0;
    const { store, db, directory } = await openTestStore({ now: () => clock });
    const log = await store.openAppendable({ sessionId: 's', toolCallId: 'elsewhere' });
    await log.append('still running\n');
    clock = 400 * DAY;
    const other = createArtifactStore({ db, directory, now: () => clock });
    expect(
      await other.prune({ maxAgeMs: 0, maxBytesPerSession: 0, maxTotalBytes: 0, keepNewestPerSession: 0 }),
    ).toMatchObject({ removed: 0 });
    expect(existsSync(join(directory, log.id))).toBe(true);
    const followed = await other.readBytes('s', log.id, { offset: 0 });
    expect(Buffer.from(followed.bytes).toString()).toBe('still running\n');
    await log.close();
  });

  it('removes body files without a row once they are an hour old, and leaves other files alone', async () => {
    const { store, directory } = await openTestStore();
    const orphanOld = join(directory, 'art_0123456789abcdef0123456789abcdef');
    const orphanNew = join(directory, 'art_fedcba9876543210fedcba9876543210');
    const stranger = join(directory, 'notes.txt');
    for (const path of [orphanOld, orphanNew, stranger]) writeFileSync(path, 'x');
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    utimesSync(orphanOld, twoHoursAgo, twoHoursAgo);
    utimesSync(stranger, twoHoursAgo, twoHoursAgo);
    expect(await store.prune({}, { dryRun: true })).toMatchObject({ orphanFilesRemoved: 1, dryRun: true });
    expect(existsSync(orphanOld)).toBe(true);
    expect(await store.prune()).toEqual({
      removed: 0,
      freedBytes: 0,
      orphanFilesRemoved: 1,
      kept: 0,
      keptBytes: 0,
      dryRun: false,
    });
    expect([existsSync(orphanOld), existsSync(orphanNew), existsSync(stranger)]).toEqual([false, true, true]);
  });

  it('refuses a negative retention setting and removes nothing', async () => {
    const { store } = await openTestStore({ now: () => 10 * 365 * DAY });
    await store.write('a', { sessionId: 's', toolCallId: 'c' });
    await expect(store.prune({ maxAgeMs: -1 })).rejects.toMatchObject({ code: 'invalid_artifact_options' });
    expect((await store.list('s')).length).toBe(1);
  });
});

describe('ArtifactStore.prune dry run', () => {
  it('reports what a real prune removes and keeps, and removes nothing', async () => {
    let clock = 0;
    const { store, directory } = await openTestStore({ now: () => clock });
    const old = await store.write('old body', { sessionId: 's', toolCallId: 'c1' });
    clock = 40 * DAY;
    await store.write('fresh', { sessionId: 's', toolCallId: 'c2' });
    const dry = await store.prune({ keepNewestPerSession: 1 }, { dryRun: true });
    expect(dry).toEqual({ removed: 1, freedBytes: 8, orphanFilesRemoved: 0, kept: 1, keptBytes: 5, dryRun: true });
    expect(existsSync(join(directory, old.id))).toBe(true);
    expect(await store.info('s', old.id)).toMatchObject({ byteLength: 8 });
    expect(await store.prune({ keepNewestPerSession: 1 })).toEqual({ ...dry, dryRun: false });
    expect(existsSync(join(directory, old.id))).toBe(false);
  });
});

describe('ArtifactStore.sealAbandoned', () => {
  it("seals a dead writer's log at its last committed length, and leaves live writers and other calls alone", async () => {
    const { store, db, directory } = await openTestStore();
    // The writer of another process: it committed 'committed\n', then died while appending more.
    const dead = createArtifactStore({ db, directory });
    const log = await dead.openAppendable({ sessionId: 's', toolCallId: 'crashed-call' });
    await log.append('committed\n');
    appendFileSync(join(directory, log.id), 'torn write that no reader ever saw');
    const unrelated = await dead.openAppendable({ sessionId: 's', toolCallId: 'other-call' });
    await unrelated.append('x');
    const mine = await store.openAppendable({ sessionId: 's', toolCallId: 'crashed-call' });
    await mine.append('mine');

    expect(await store.sealAbandoned('s', ['crashed-call'])).toBe(1);
    expect(await store.info('s', log.id)).toMatchObject({
      state: 'complete',
      byteLength: 10,
      sha256: createHash('sha256').update('committed\n').digest('hex'),
    });
    expect(readFileSync(join(directory, log.id), 'utf8')).toBe('committed\n');
    expect(statSync(join(directory, log.id)).size).toBe(10);
    expect((await store.info('s', unrelated.id)).state).toBe('open');
    expect((await store.info('s', mine.id)).state).toBe('open');
    expect(await store.sealAbandoned('s', ['crashed-call'])).toBe(0);
    await mine.close();
    await unrelated.close();
  });
});
