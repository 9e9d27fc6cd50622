import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { snapshotTree } from '@clawsmith/test-utils';
import { openTestStore } from './__fixtures__/open-test-store.js';

const owner = { sessionId: 'session-a', toolCallId: 'call-1' };

describe('createArtifactStore write', () => {
  it('records session, tool call, length, lines, SHA-256, media type and creation time', async () => {
    const { store, directory } = await openTestStore({ now: () => 1_700_000_000_000 });
    const content = 'alpha\nbeta\ngamma';
    const reference = await store.write(content, { ...owner, mediaType: 'application/json' });
    expect(reference).toEqual({
      id: reference.id,
      mediaType: 'application/json',
      byteLength: 16,
      lineCount: 3,
      sha256: createHash('sha256').update(content).digest('hex'),
    });
    expect(await store.info('session-a', reference.id)).toEqual({
      ...reference,
      sessionId: 'session-a',
      toolCallId: 'call-1',
      state: 'complete',
      createdAt: 1_700_000_000_000,
    });
    expect(existsSync(join(directory, reference.id))).toBe(true);
  });

  it('gives opaque, distinct ids that carry nothing of the session or content', async () => {
    const { store } = await openTestStore();
    const ids = await Promise.all(
      Array.from({ length: 20 }, () => store.write('same', owner).then((reference) => reference.id)),
    );
    expect(new Set(ids).size).toBe(20);
    for (const id of ids) expect(id).toMatch(/^art_[0-9a-f]{32}$/);
  });

  it('stores an empty artifact with zero bytes and zero lines', async () => {
    const { store } = await openTestStore();
    const reference = await store.write('', owner);
    expect(reference).toMatchObject({ byteLength: 0, lineCount: 0, sha256: createHash('sha256').digest('hex') });
    expect(await store.readBytes('session-a', reference.id, { offset: 0 })).toMatchObject({
      pastEnd: true,
      bytes: new Uint8Array(0),
    });
    expect(await store.readLines('session-a', reference.id, { startLine: 1 })).toMatchObject({
      pastEnd: true,
      lineCount: 0,
    });
    expect(await store.search('session-a', reference.id, { pattern: 'x' })).toMatchObject({
      matchCount: 0,
      stoppedBy: 'end',
    });
  });

  it('keeps non-UTF-8 bytes exactly', async () => {
    const { store } = await openTestStore();
    const bytes = Uint8Array.from([0xff, 0xfe, 0x0a, 0xc3, 0x28, 0x0a, 0x80]);
    const reference = await store.write(bytes, owner);
    expect(reference.lineCount).toBe(3);
    const read = await store.readBytes('session-a', reference.id, { offset: 0, length: 100 });
    expect(Buffer.from(read.bytes).equals(Buffer.from(bytes))).toBe(true);
  });

  it('refuses a bad media type or owner and stores nothing', async () => {
    const { store, directory } = await openTestStore();
    const before = snapshotTree(directory);
    await expect(store.write('x', { ...owner, mediaType: 'not a type' })).rejects.toMatchObject({
      code: 'invalid_artifact_options',
    });
    await expect(store.write('x', { ...owner, sessionId: '' })).rejects.toMatchObject({
      code: 'invalid_artifact_options',
    });
    expect(() => store.writerFor({ sessionId: 'a', toolCallId: 'x'.repeat(300) })).toThrow(/toolCallId/);
    expect(await store.list('session-a')).toEqual([]);
    expect(snapshotTree(directory)).toEqual(before);
  });

  it('writes through the ArtifactWriter port with the session and tool call of the writer', async () => {
    const { store } = await openTestStore();
    const writer = store.writerFor({ sessionId: 'session-b', toolCallId: 'call-9' });
    const reference = await writer.write('from the port\n');
    expect(await store.info('session-b', reference.id)).toMatchObject({
      sessionId: 'session-b',
      toolCallId: 'call-9',
      lineCount: 1,
    });
    await expect(store.info('session-a', reference.id)).rejects.toMatchObject({ code: 'artifact_not_found' });
    expect((await store.list('session-b')).map((info) => info.id)).toEqual([reference.id]);
  });
});
