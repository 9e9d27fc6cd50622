import { defineTool } from '@clawsmith/tool-protocol';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { z } from 'zod';
import { openToolHost } from '../host/open-tool-host.js';

const LINE = 'a line of build output that goes on for a while\n';

const loud = defineTool({
  name: 'loud',
  description: 'Prints many lines.',
  risk: 'read',
  capabilities: [],
  concurrencySafe: true,
  inputSchema: z.object({ lines: z.number().int() }),
  summarize: (input) => `loud ${input.lines}`,
  execute: async (input) => LINE.repeat(input.lines),
});

async function hostWith(readArtifactTool: boolean) {
  const host = await openToolHost({
    home: testdir({}),
    workspaceRoot: testdir({}),
    extraTools: [loud],
    readArtifactTool,
  });
  onTestFinished(() => host.close());
  return host;
}

describe('keepInlineBounded through a host', () => {
  it('keeps output within 50 KB inline, untouched', async () => {
    const host = await hostWith(true);
    const result = await host.call('loud', { lines: 100 });
    expect(result.content).toBe(LINE.repeat(100));
    expect(result.artifact).toBeUndefined();
  });

  it('stores a large output whole and previews it naming read_artifact, which reads it back', async () => {
    const host = await hostWith(true);
    const result = await host.call('loud', { lines: 3_000 });
    expect(result.status).toBe('success');
    expect(Buffer.byteLength(result.content)).toBeLessThan(50_000);
    expect(result.artifact?.byteLength).toBe(LINE.length * 3_000);
    expect(result.content).toContain(`Read the rest with read_artifact: {"id":"${result.artifact!.id}"`);
    const read = await host.call('read_artifact', { id: result.artifact!.id, startLine: 2_999 });
    expect(read.content).toContain(LINE.trim());
  });

  it('does not name read_artifact when the host has none, yet keeps the artifact', async () => {
    const host = await hostWith(false);
    expect(host.toolNames).not.toContain('read_artifact');
    const result = await host.call('loud', { lines: 3_000 });
    expect(result.content).not.toContain('read_artifact');
    expect(result.content).toContain(`the complete output is artifact ${result.artifact!.id}`);
    expect(result.content).toContain('the host offers no tool that reads artifacts');
    expect(Buffer.byteLength(result.content)).toBeLessThanOrEqual(50_000);
  });
});
