import { describe, expect, it } from 'vitest';
import { createWebHarness } from '../__fixtures__/web-harness.js';

describe('GET /api/sessions/:sessionId/artifacts/:artifactId', () => {
  it('reads by line range, byte range and search with the limits of read_artifact', async () => {
    const web = await createWebHarness();
    const session = await web.core.createSession({ workspaceRoot: web.workspace });
    const text = Array.from(
      { length: 5_000 },
      (_, index) => `line ${index + 1}${index === 4_199 ? ' NEEDLE' : ' padding to make the artifact large'}`,
    ).join('\n');
    const artifact = await web.home.artifacts.write(text, { sessionId: session.id, toolCallId: 'call_1' });
    const read = async (query: string) => {
      const response = await web.api(`/api/sessions/${session.id}/artifacts/${artifact.id}?${query}`);
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const list = await web.api(`/api/sessions/${session.id}/artifacts`);
    expect(((await list.json()) as { artifacts: { id: string }[] }).artifacts.map((item) => item.id)).toEqual([
      artifact.id,
    ]);
    expect((await read('')).body).toMatchObject({ artifact: { id: artifact.id } });

    const lines = await read('startLine=2&endLine=3');
    expect(lines.body).toMatchObject({
      mode: 'lines',
      text: 'line 2 padding to make the artifact large\nline 3 padding to make the artifact large\n',
      startLine: 2,
      endLine: 3,
      nextLine: 4,
    });
    const capped = await read('startLine=1&endLine=5000');
    // 2,000 lines would be over 64 KiB here: the byte cap cuts the range first.
    expect(capped.body).toMatchObject({ mode: 'lines', capped: true, startLine: 1 });
    expect(capped.body.endLine as number).toBeLessThan(2_000);
    expect(capped.body.nextLine).toBe((capped.body.endLine as number) + 1);
    expect(Buffer.byteLength(capped.body.text as string)).toBeLessThanOrEqual(65_536);
    const bytes = await read('offset=0&length=200000');
    expect(bytes.body).toMatchObject({ mode: 'bytes', offset: 0, endOffset: 65_536, capped: true });
    expect((bytes.body.text as string).length).toBe(65_536);
    const search = await read('pattern=needle&ignoreCase=true');
    expect(search.body).toMatchObject({
      mode: 'search',
      matchCount: 1,
      lines: [{ lineNumber: 4_200, text: 'line 4200 NEEDLE', match: true }],
    });

    for (const [query, code] of [
      ['startLine=1&pattern=x', 'invalid_request'],
      ['endLine=3', 'invalid_request'],
      ['startLine=0', 'invalid_request'],
      ['startLine=-1', 'invalid_request'],
      ['regex=maybe&pattern=x', 'invalid_request'],
      ['pattern=(&regex=true', 'invalid_search_pattern'],
    ] as const) {
      const bad = await read(query);
      expect(bad.status, query).toBe(400);
      expect(bad.body, query).toMatchObject({ error: { code } });
    }
  });
});
