import { describe, expect, it } from 'vitest';
import { openTestStore } from './__fixtures__/open-test-store.js';

const owner = { sessionId: 's', toolCallId: 'c' };

describe('ArtifactStore.externalize', () => {
  it('keeps content at or under the threshold inline and stores nothing', async () => {
    const { store } = await openTestStore();
    const content = 'é'.repeat(25_000); // 50,000 bytes exactly
    expect(await store.externalize(content, owner)).toEqual({ content });
    expect(await store.list('s')).toEqual([]);
  });

  it('stores larger content whole and returns head, marker and tail that lead to the rest', async () => {
    const { store } = await openTestStore();
    const lines = Array.from({ length: 5_000 }, (_, index) => `line ${index + 1}: ${'ü'.repeat(index % 13)} output`);
    const content = `${lines.join('\n')}\n`;
    const { content: preview, artifact } = await store.externalize(content, owner);
    expect(artifact).toMatchObject({ byteLength: Buffer.byteLength(content), lineCount: 5_000 });
    expect(Buffer.byteLength(preview)).toBeLessThan(10_000);
    expect(preview.startsWith('line 1: ')).toBe(true);
    expect(preview.endsWith('line 5000: ' + 'ü'.repeat(4999 % 13) + ' output\n')).toBe(true);
    const marker =
      /… \[([\d,]+) bytes left out \(bytes ([\d,]+)-([\d,]+), lines ([\d,]+)-([\d,]+) of 5,000\)\. .*read_artifact.*"startLine":(\d+)/.exec(
        preview,
      );
    expect(marker).not.toBeNull();
    const number = (text: string): number => Number(text.replaceAll(',', ''));
    const [, leftOut, firstByte, lastByte, firstLine, lastLine, startLine] = marker!;
    expect(number(leftOut!)).toBe(number(lastByte!) - number(firstByte!) + 1);
    expect(number(startLine!)).toBe(number(firstLine!));
    const head = preview.slice(0, preview.indexOf('… ['));
    expect(head).toBe(`${lines.slice(0, number(firstLine!) - 1).join('\n')}\n`);
    const tail = preview.slice(preview.indexOf('] …\n') + 4);
    expect(tail).toBe(`${lines.slice(number(lastLine!)).join('\n')}\n`);
    const full = await store.readBytes('s', artifact!.id, { offset: number(firstByte!), length: number(leftOut!) });
    expect(full.bytes.length).toBe(Math.min(65_536, number(leftOut!)));
    expect(
      Buffer.from(full.bytes).equals(
        Buffer.from(content).subarray(number(firstByte!), number(firstByte!) + full.bytes.length),
      ),
    ).toBe(true);
  });

  it('cuts a single huge line on character boundaries', async () => {
    const { store } = await openTestStore();
    const content = '字'.repeat(40_000);
    const { content: preview, artifact } = await store.externalize(content, { ...owner, threshold: 1_000 });
    expect(artifact?.lineCount).toBe(1);
    expect(preview).not.toContain('\uFFFD');
    expect(preview).toMatch(/^字+\n… \[[\d,]+ bytes left out \(bytes 399-119,801, lines 1-1 of 1\)/);
  });

  it('refuses a threshold that is not a whole number of at least 100 bytes', async () => {
    const { store } = await openTestStore();
    for (const threshold of [0, -5, 99, 1.5, Number.NaN]) {
      await expect(store.externalize('x', { ...owner, threshold })).rejects.toMatchObject({
        code: 'invalid_artifact_options',
      });
    }
    expect(await store.list('s')).toEqual([]);
  });
});
