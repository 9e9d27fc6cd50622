import { describe, expect, it } from 'vitest';
import { resolveToolSecurity, type ToolExecutionContext } from '@clawsmith/tool-protocol';
import { openTestStore } from './__fixtures__/open-test-store.js';
import { createReadArtifactTool } from './read-artifact-tool.js';

function contextFor(sessionId: string): ToolExecutionContext {
  return {
    authorized: true,
    workspaceRoot: '/nonexistent',
    sessionId,
    turnId: 't',
    toolCallId: 'read-1',
    signal: new AbortController().signal,
  };
}

describe('createReadArtifactTool', () => {
  it('is a concurrency-safe read tool with the session.read capability', async () => {
    const { store } = await openTestStore();
    const tool = createReadArtifactTool(store);
    expect({
      name: tool.name,
      risk: tool.risk,
      capabilities: tool.capabilities,
      concurrencySafe: tool.concurrencySafe,
    }).toEqual({
      name: 'read_artifact',
      risk: 'read',
      capabilities: ['session.read'],
      concurrencySafe: true,
    });
    expect(resolveToolSecurity(tool)).toMatchObject({
      risk: 'read',
      capabilities: ['session.read'],
      sideEffect: false,
    });
  });

  it('answers another session, an unknown id and path-like ids with the same artifact_not_found', async () => {
    const { store, directory } = await openTestStore();
    const tool = createReadArtifactTool(store);
    const mine = await store.write('secret of session a\n', { sessionId: 'a', toolCallId: 'c' });
    const answers = [];
    for (const id of [
      mine.id,
      'art_00000000000000000000000000000000',
      '../x',
      '/etc/passwd',
      `../${mine.id}`,
      `${directory}/${mine.id}`,
      mine.id.toUpperCase(),
      '',
      'art_%2e%2e',
    ]) {
      for (const input of [
        { id, startLine: 1 },
        { id, offset: 0 },
        { id, pattern: 'secret' },
      ]) {
        answers.push(await tool.execute(tool.inputSchema.parse(input), contextFor('b')));
      }
    }
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(answers[0]).toMatchInlineSnapshot(`
      {
        "code": "artifact_not_found",
        "content": "Artifact not found in this session. Use the exact id from the tool result that mentioned it (it looks like art_ followed by 32 hex digits).",
        "retryable": false,
        "status": "error",
        "version": 1,
      }
    `);
    expect((await tool.execute({ id: mine.id, startLine: 1 }, contextFor('a'))).content).toContain(
      'secret of session a',
    );
  });

  it('takes exactly one of a byte range, a line range or a search', async () => {
    const { store } = await openTestStore();
    const tool = createReadArtifactTool(store);
    const id = 'art_00000000000000000000000000000000';
    for (const input of [
      { id },
      { id, offset: 0, startLine: 1 },
      { id, startLine: 1, pattern: 'x' },
      { id, endLine: 3 },
      { id, maxMatches: 3 },
      { id, length: 0 },
      { id, offset: -1 },
      { id, startLine: 0 },
      { id, startLine: 5, endLine: 2 },
      { id, startLine: 1, extra: true },
    ]) {
      expect(tool.inputSchema.safeParse(input).success, JSON.stringify(input)).toBe(false);
    }
    expect(await tool.execute({ id, offset: 0, startLine: 1 } as never, contextFor('s'))).toMatchObject({
      status: 'error',
      code: 'invalid_artifact_range',
    });
  });

  it('numbers lines and says where the next read starts', async () => {
    const { store } = await openTestStore({ limits: { maxLines: 2 } });
    const tool = createReadArtifactTool(store);
    const { id } = await store.write('first\nsecond\nthird\n', { sessionId: 's', toolCallId: 'c' });
    const result = await tool.execute({ id, startLine: 1, endLine: 3 }, contextFor('s'));
    expect(result.content.replaceAll(id, 'ID')).toMatchInlineSnapshot(`
      "Artifact ID, lines 1-2 of 3 (bytes 0-12 of 19). The range asked for was cut to the cap of one read.
      1: first
      2: second
      [Next: {"id":"ID","startLine":3}]"
    `);
    expect((await tool.execute({ id, startLine: 9 }, contextFor('s'))).content).toMatch(
      /line 9 is past the end; it has 3 lines/,
    );
  });

  it('ends a byte read on a character boundary and marks bytes that are not UTF-8', async () => {
    const { store } = await openTestStore();
    const tool = createReadArtifactTool(store);
    const { id } = await store.write(Buffer.concat([Buffer.from('ab€cd'), Buffer.from([0xff, 0x0a])]), {
      sessionId: 's',
      toolCallId: 'c',
    });
    const split = await tool.execute({ id, offset: 0, length: 4 }, contextFor('s'));
    expect(split.content).toContain('bytes 0-1 (2 bytes)');
    expect(split.content).toContain(`[Next: {"id":"${id}","offset":2}]`);
    const invalid = await tool.execute({ id, offset: 5 }, contextFor('s'));
    expect(invalid.content).toMatch(/not valid UTF-8/);
    expect(invalid.content).toContain('[End of artifact.]');
    expect((await tool.execute({ id, offset: 999 }, contextFor('s'))).content).toMatch(
      /offset 999 is at or past the end \(9 bytes\)/,
    );
  });

  it('reports a search stopped by its budget as incomplete, never as plain no results', async () => {
    const { store } = await openTestStore({ limits: { searchTimeMs: 200 } });
    const tool = createReadArtifactTool(store);
    const { id } = await store.write(`${'a'.repeat(40)}!\n`, { sessionId: 's', toolCallId: 'c' });
    const result = await tool.execute({ id, pattern: '(a|aa)+$', regex: true }, contextFor('s'));
    expect(result.status).toBe('success');
    expect(result.content).toMatch(/0 matches .*\n\[Stopped: the search used its time budget of 200 ms/);
  });

  it('follows an open log and says it is still being written', async () => {
    const { store } = await openTestStore();
    const tool = createReadArtifactTool(store);
    const log = await store.openAppendable({ sessionId: 's', toolCallId: 'cmd' });
    await log.append('building…\n');
    const first = await tool.execute({ id: log.id, offset: 0 }, contextFor('s'));
    expect(first.content).toContain('still being written');
    expect(first.content).toContain(`Follow the log later with {"id":"${log.id}","offset":12}`);
    await log.close();
  });
});
