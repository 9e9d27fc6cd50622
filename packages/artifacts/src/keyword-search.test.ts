import { describe, expect, it } from 'vitest';
import { openTestStore } from './__fixtures__/open-test-store.js';

const owner = { sessionId: 's', toolCallId: 'c' };
const log = Array.from({ length: 1_000 }, (_, index) =>
  index % 100 === 41 ? `${index + 1} ERROR disk full` : `${index + 1} info ok`,
).join('\n');

describe('ArtifactStore.search', () => {
  it('finds literal text with context lines and says the search is complete', async () => {
    const { store } = await openTestStore({ lineIndexInterval: 128 });
    const { id } = await store.write(log, owner);
    const result = await store.search('s', id, { pattern: 'ERROR', contextLines: 1 });
    expect(result).toMatchObject({ matchCount: 10, stoppedBy: 'end', lastLine: 1_000 });
    expect(result.nextLine).toBeUndefined();
    expect(result.lines.slice(0, 4)).toEqual([
      { lineNumber: 41, text: '41 info ok', match: false, cut: false },
      { lineNumber: 42, text: '42 ERROR disk full', match: true, cut: false },
      { lineNumber: 43, text: '43 info ok', match: false, cut: false },
      { lineNumber: 141, text: '141 info ok', match: false, cut: false },
    ]);
  });

  it('stops at maxMatches and continues from the line it gives', async () => {
    const { store } = await openTestStore({ lineIndexInterval: 128 });
    const { id } = await store.write(log, owner);
    const first = await store.search('s', id, { pattern: 'error', ignoreCase: true, maxMatches: 3 });
    expect(first).toMatchObject({ matchCount: 3, stoppedBy: 'maxMatches', nextLine: 243 });
    const second = await store.search('s', id, {
      pattern: 'error',
      ignoreCase: true,
      maxMatches: 3,
      fromLine: first.nextLine!,
    });
    expect(second.lines.map((line) => line.lineNumber)).toEqual([342, 442, 542]);
    expect(await store.search('s', id, { pattern: 'ERROR', fromLine: 5_000 })).toMatchObject({
      matchCount: 0,
      stoppedBy: 'end',
      lineCount: 1_000,
    });
  });

  it('matches a regular expression line by line', async () => {
    const { store } = await openTestStore();
    const { id } = await store.write(log, owner);
    const result = await store.search('s', id, { pattern: '^9\\d2 ERROR', regex: true });
    expect(result.lines.map((line) => line.text)).toEqual(['942 ERROR disk full']);
    expect((await store.search('s', id, { pattern: '^9\\d2 ERROR' })).matchCount).toBe(0);
  });

  it('refuses an empty, overlong or invalid pattern, and bad counts', async () => {
    const { store } = await openTestStore();
    const { id } = await store.write(log, owner);
    await expect(store.search('s', id, { pattern: '' })).rejects.toMatchObject({ code: 'invalid_search_pattern' });
    await expect(store.search('s', id, { pattern: 'x'.repeat(1_001) })).rejects.toMatchObject({
      code: 'invalid_search_pattern',
    });
    await expect(store.search('s', id, { pattern: '(unclosed', regex: true })).rejects.toMatchObject({
      code: 'invalid_search_pattern',
      message: /not a valid JavaScript regular expression/,
    });
    await expect(store.search('s', id, { pattern: 'a', maxMatches: 0 })).rejects.toMatchObject({
      code: 'invalid_artifact_range',
    });
    await expect(store.search('s', id, { pattern: 'a', contextLines: -1 })).rejects.toMatchObject({
      code: 'invalid_artifact_range',
    });
    await expect(store.search('s', id, { pattern: 'a', fromLine: 0 })).rejects.toMatchObject({
      code: 'invalid_artifact_range',
    });
  });

  it('stops a catastrophic regular expression at the time budget instead of hanging', async () => {
    const { store } = await openTestStore({ limits: { searchTimeMs: 300 } });
    const { id } = await store.write(`${'a'.repeat(40)}b\nsecond line\n`, owner);
    const result = await store.search('s', id, { pattern: '(a+)+$', regex: true });
    expect(result).toMatchObject({ stoppedBy: 'timeLimit', matchCount: 0, nextLine: 2 });
  });

  it('stops at the scan budget and says how far it got, even with no match', async () => {
    const { store } = await openTestStore({ limits: { searchScanBytes: 1024 * 1024 } });
    const line = `${'filler '.repeat(14)}\n`;
    const { id } = await store.write(line.repeat(30_000) + 'needle\n', owner);
    const result = await store.search('s', id, { pattern: 'needle' });
    expect(result).toMatchObject({ matchCount: 0, stoppedBy: 'scanLimit', scannedBytes: 1024 * 1024 });
    expect(result.nextLine).toBe(result.lastLine + 1);
    let next = result;
    let rounds = 1;
    while (next.stoppedBy === 'scanLimit') {
      next = await store.search('s', id, { pattern: 'needle', fromLine: next.nextLine! });
      rounds += 1;
    }
    expect(rounds).toBe(3);
    expect(next.lines.map((found) => found.lineNumber)).toEqual([30_001]);
  });

  it('bounds the answer by size and cuts long lines around the match', async () => {
    const { store } = await openTestStore({ limits: { maxBytes: 2_000, searchLineBytes: 5_000 } });
    const long = `${'x'.repeat(3_000)}MATCH${'y'.repeat(9_000)}`;
    const { id } = await store.write(`${long}\n${'MATCH z\n'.repeat(500)}`, owner);
    const result = await store.search('s', id, { pattern: 'MATCH', maxMatches: 100 });
    expect(result.lines[0]).toMatchObject({ lineNumber: 1, cut: true });
    expect(result.lines[0]!.text).toContain('MATCH');
    expect(result.lines[0]!.text.length).toBe(1_000);
    expect(result).toMatchObject({ stoppedBy: 'outputLimit', longLines: 1 });
    expect(result.lines.reduce((total, line) => total + line.text.length + 12, 0)).toBeLessThanOrEqual(2_000);
    expect(result.nextLine).toBe(result.lines.at(-1)!.lineNumber + 1);
  });

  it('gives the same lines as a plain grep over many blocks, with context across block edges', async () => {
    for (const around of [[-1, 0, 1, 2], [0]]) await compareWithGrep(around);
  });
});

async function compareWithGrep(around: readonly number[]): Promise<void> {
  const { store } = await openTestStore();
  const lines = Array.from({ length: 60_000 }, (_, index) => `${index + 1} ${'payload '.repeat(index % 11)}`);
  // Matches right after and before the 1 MiB block edges, and in the middle of blocks.
  let offset = 0;
  const edges: number[] = [];
  lines.forEach((line, index) => {
    const next = offset + Buffer.byteLength(line) + 1;
    if (Math.floor(offset / 1_048_576) !== Math.floor(next / 1_048_576)) edges.push(index);
    offset = next;
  });
  for (const edge of edges) for (const index of around.map((step) => edge + step)) lines[index] += ' NEEDLE';
  lines[30_000] += ' NEEDLE';
  const content = `${lines.join('\n')}\n`;
  const { id } = await store.write(content, { sessionId: 's', toolCallId: 'c' });
  for (const contextLines of [0, 1, 3]) {
    const expected: { lineNumber: number; text: string; match: boolean; cut: boolean }[] = [];
    let lastEmitted = 0;
    let after = 0;
    lines.forEach((text, index) => {
      if (text.includes('NEEDLE')) {
        for (let before = Math.max(lastEmitted + 1, index + 1 - contextLines); before <= index; before += 1) {
          expected.push({ lineNumber: before, text: lines[before - 1]!, match: false, cut: false });
        }
        expected.push({ lineNumber: index + 1, text, match: true, cut: false });
        lastEmitted = index + 1;
        after = contextLines;
      } else if (after > 0) {
        after -= 1;
        expected.push({ lineNumber: index + 1, text, match: false, cut: false });
        lastEmitted = index + 1;
      }
    });
    const result = await store.search('s', id, { pattern: 'NEEDLE', contextLines, maxMatches: 100 });
    expect(result.lines).toEqual(expected);
    expect(result).toMatchObject({ stoppedBy: 'end', matchCount: edges.length * around.length + 1 });
  }
}

describe('ArtifactStore.search on odd content', () => {
  it('searches non-UTF-8 content without failing', async () => {
    const { store } = await openTestStore();
    const { id } = await store.write(
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(' token here\nnext\n')]),
      owner,
    );
    const result = await store.search('s', id, { pattern: 'token' });
    expect(result.lines).toEqual([{ lineNumber: 1, text: '\uFFFD\uFFFD token here', match: true, cut: false }]);
  });
});
