import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openTestStore } from './__fixtures__/open-test-store.js';

const owner = { sessionId: 's', toolCallId: 'command-1' };

describe('ArtifactStore.openAppendable', () => {
  it('lets a follower read a growing log by offset, then closes with the SHA-256 of all of it', async () => {
    const { store } = await openTestStore({ lineIndexInterval: 64 });
    const log = await store.openAppendable(owner);
    expect(await store.info('s', log.id)).toMatchObject({ state: 'open', byteLength: 0, lineCount: 0 });
    expect(log.reference().sha256).toBeUndefined();
    let followed = '';
    let offset = 0;
    const chunks: string[] = [];
    for (let round = 0; round < 30; round += 1) {
      const chunk = `round ${round}: ${'output '.repeat(round)}\n${round % 3 === 0 ? 'partial ' : ''}`;
      chunks.push(chunk);
      await log.append(chunk);
      const piece = await store.readBytes('s', log.id, { offset, length: 37 });
      followed += Buffer.from(piece.bytes).toString();
      offset = piece.endOffset;
      expect(piece.byteLength).toBe(Buffer.byteLength(chunks.join('')));
    }
    for (
      let piece = await store.readBytes('s', log.id, { offset });
      !piece.pastEnd;
      piece = await store.readBytes('s', log.id, { offset })
    ) {
      followed += Buffer.from(piece.bytes).toString();
      offset = piece.endOffset;
    }
    const whole = chunks.join('');
    expect(followed).toBe(whole);
    const lines = await store.readLines('s', log.id, { startLine: 20, endLine: 22 });
    expect(Buffer.from(lines.bytes).toString()).toBe(`${whole.split('\n').slice(19, 22).join('\n')}\n`);
    const final = await log.close();
    expect(final).toEqual({
      id: log.id,
      mediaType: 'text/plain; charset=utf-8',
      byteLength: Buffer.byteLength(whole),
      lineCount: whole.split('\n').length - (whole.endsWith('\n') ? 1 : 0),
      sha256: createHash('sha256').update(whole).digest('hex'),
    });
    expect(await store.info('s', log.id)).toMatchObject({ state: 'complete', sha256: final.sha256 });
    expect(await log.close()).toEqual(final);
  });

  it('keeps the order of appends that were not awaited, and commits them together', async () => {
    const { store } = await openTestStore();
    const log = await store.openAppendable(owner);
    const pending = Array.from({ length: 200 }, (_, index) => log.append(`${index}\n`));
    await Promise.all(pending);
    const expected = Array.from({ length: 200 }, (_, index) => `${index}\n`).join('');
    expect(log.reference()).toMatchObject({ byteLength: expected.length, lineCount: 200 });
    const read = await store.readLines('s', log.id, { startLine: 1, endLine: 200 });
    expect(Buffer.from(read.bytes).toString()).toBe(expected);
    await log.close();
  });

  it('refuses appends after close', async () => {
    const { store } = await openTestStore();
    const log = await store.openAppendable(owner);
    await log.append(new Uint8Array([0xff, 0x0a]));
    await log.close();
    await expect(log.append('more')).rejects.toMatchObject({ code: 'artifact_writer_closed' });
    expect((await store.info('s', log.id)).byteLength).toBe(2);
  });

  it('tells the writer when its session was deleted under it', async () => {
    const { store } = await openTestStore();
    const log = await store.openAppendable(owner);
    await log.append('before\n');
    expect(await store.deleteSession('s')).toBe(1);
    await expect(log.append('after\n')).rejects.toMatchObject({ code: 'artifact_writer_closed' });
    await expect(log.close()).rejects.toMatchObject({ code: 'artifact_writer_closed' });
    await expect(store.info('s', log.id)).rejects.toMatchObject({ code: 'artifact_not_found' });
  });

  it('opens through the ArtifactWriter port with the media type asked for', async () => {
    const { store } = await openTestStore();
    const log = await store.writerFor(owner).openAppendable({ mediaType: 'application/x-ndjson' });
    await log.append('{"a":1}\n');
    expect(await log.close()).toMatchObject({ mediaType: 'application/x-ndjson', lineCount: 1 });
  });
});
