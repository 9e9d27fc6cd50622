import { describe, expect, it } from 'vitest';
import { openTestStore } from './__fixtures__/open-test-store.js';

const owner = { sessionId: 's', toolCallId: 'c' };

/** Lines of varied length, including a 10 KB one, so index marks land in every situation. */
function variedLines(count: number): string[] {
  return Array.from({ length: count }, (_, index) =>
    index === 137 ? 'L'.repeat(10_000) : `${index + 1} ${'é'.repeat(index % 7)}${'x'.repeat((index * 37) % 90)}`,
  );
}

describe('ArtifactStore.readLines', () => {
  it('serves any line range through the sparse index exactly as splitting the whole would', async () => {
    const { store, db } = await openTestStore({ lineIndexInterval: 256 });
    const lines = variedLines(600);
    const reference = await store.write(`${lines.join('\n')}\n`, owner);
    const marks = await db
      .selectFrom('artifact_line_marks')
      .select(db.fn.countAll().as('count'))
      .executeTakeFirstOrThrow();
    expect(Number(marks.count)).toBeGreaterThan(40);
    for (const [startLine, endLine] of [
      [1, 1],
      [1, 5],
      [137, 139],
      [138, 138],
      [139, 140],
      [300, 345],
      [599, 600],
      [600, 600],
    ] as const) {
      const result = await store.readLines('s', reference.id, { startLine, endLine });
      expect(Buffer.from(result.bytes).toString('utf8')).toBe(`${lines.slice(startLine - 1, endLine).join('\n')}\n`);
      expect(result).toMatchObject({ startLine, endLine, pastEnd: false });
      expect(result.nextLine).toBe(endLine < 600 ? endLine + 1 : undefined);
    }
  });

  it('counts a last line without a newline and answers past the end without reading', async () => {
    const { store } = await openTestStore();
    const reference = await store.write('one\ntwo\nthree', owner);
    expect(reference.lineCount).toBe(3);
    const last = await store.readLines('s', reference.id, { startLine: 3, endLine: 10 });
    expect(Buffer.from(last.bytes).toString()).toBe('three');
    expect(last).toMatchObject({ endLine: 3, capped: false });
    expect(last.nextLine).toBeUndefined();
    expect(await store.readLines('s', reference.id, { startLine: 4 })).toMatchObject({
      pastEnd: true,
      lineCount: 3,
      bytes: new Uint8Array(0),
    });
    expect(await store.readLines('s', reference.id, { startLine: 1_000_000_000 })).toMatchObject({ pastEnd: true });
  });

  it('refuses zero, negative, fractional and reversed line ranges', async () => {
    const { store } = await openTestStore();
    const { id } = await store.write('a\nb\n', owner);
    for (const range of [
      { startLine: 0 },
      { startLine: -3 },
      { startLine: 1.5 },
      { startLine: 2, endLine: 1 },
      { startLine: 1, endLine: Number.NaN },
    ]) {
      await expect(store.readLines('s', id, range)).rejects.toMatchObject({ code: 'invalid_artifact_range' });
    }
  });

  it('caps a huge range at maxLines and maxBytes and says where to go on', async () => {
    const { store } = await openTestStore({ limits: { maxLines: 10, maxBytes: 100 } });
    const lines = Array.from({ length: 50 }, (_, index) => `line ${index + 1}`);
    const { id } = await store.write(lines.join('\n'), owner);
    expect(await store.readLines('s', id, { startLine: 1, endLine: Number.MAX_SAFE_INTEGER })).toMatchObject({
      endLine: 10,
      nextLine: 11,
      capped: true,
    });
    const byBytes = await store.readLines('s', id, { startLine: 20, endLine: 49 });
    expect(Buffer.from(byBytes.bytes).toString()).toBe(`${lines.slice(19, byBytes.endLine).join('\n')}\n`);
    expect(byBytes.bytes.length).toBeLessThanOrEqual(100);
    expect(byBytes).toMatchObject({ capped: true, nextLine: byBytes.endLine + 1 });
  });

  it('cuts one line longer than the byte cap on a character boundary and gives the byte offset to continue', async () => {
    const { store } = await openTestStore({ limits: { maxBytes: 101 } });
    const { id } = await store.write(`short\n${'€'.repeat(200)}\nafter\n`, owner);
    const result = await store.readLines('s', id, { startLine: 2, endLine: 3 });
    expect(result).toMatchObject({ lastLineCut: true, endLine: 2, nextOffset: 6 + 99 });
    expect(Buffer.from(result.bytes).toString()).toBe('€'.repeat(33));
  });
});

describe('ArtifactStore.readBytes', () => {
  it('reads a byte range and gives the next offset until the end', async () => {
    const { store } = await openTestStore();
    const { id } = await store.write('0123456789', owner);
    expect(await store.readBytes('s', id, { offset: 2, length: 3 })).toMatchObject({
      offset: 2,
      endOffset: 5,
      nextOffset: 5,
      byteLength: 10,
    });
    const tail = await store.readBytes('s', id, { offset: 8, length: 50 });
    expect(Buffer.from(tail.bytes).toString()).toBe('89');
    expect(tail.nextOffset).toBeUndefined();
    expect(await store.readBytes('s', id, { offset: 10, length: 1 })).toMatchObject({
      pastEnd: true,
      bytes: new Uint8Array(0),
    });
    expect(await store.readBytes('s', id, { offset: 1e15, length: 1 })).toMatchObject({ pastEnd: true });
  });

  it('refuses zero and negative lengths, negative and fractional offsets', async () => {
    const { store } = await openTestStore();
    const { id } = await store.write('abc', owner);
    for (const range of [
      { offset: 0, length: 0 },
      { offset: 0, length: -1 },
      { offset: -1, length: 1 },
      { offset: 0.5, length: 1 },
      { offset: Infinity },
    ]) {
      await expect(store.readBytes('s', id, range)).rejects.toMatchObject({ code: 'invalid_artifact_range' });
    }
  });

  it('caps a huge length at maxBytes', async () => {
    const { store } = await openTestStore();
    const { id } = await store.write('z'.repeat(200_000), owner);
    const result = await store.readBytes('s', id, { offset: 10, length: Number.MAX_SAFE_INTEGER });
    expect(result).toMatchObject({ capped: true, offset: 10, endOffset: 10 + 65_536, nextOffset: 10 + 65_536 });
    expect(result.bytes.length).toBe(65_536);
  });
});
