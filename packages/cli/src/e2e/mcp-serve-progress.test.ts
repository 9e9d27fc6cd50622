import { testdir } from '@clawsmith/test-utils';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { runCli } from './cli-harness.js';
import { connectServe } from './mcp-serve-harness.js';

/** A trusted plugin whose tool reports three stages, 700 ms apart (past core's 500 ms throttle). */
const STAGES_PLUGIN = {
  'clawsmith-plugin.json': JSON.stringify({ name: 'stages', tools: ['./tools.mjs'] }),
  'tools.mjs': `export const tools = [
  { name: 'stages_run', description: 'Runs three stages and reports their progress.', risk: 'read',
    capabilities: ['filesystem.read'], concurrencySafe: false, inputJsonSchema: { type: 'object' },
    async execute(input, context) {
      for (let step = 1; step <= 3; step += 1) {
        context.reportProgress?.({ progress: step, total: 3, message: 'stage ' + step });
        await new Promise((resolve) => setTimeout(resolve, 700));
      }
      return 'three stages done';
    } },
];
`,
};

// The built binary, a plugin, an SDK client: a loaded shared machine needs the room.
describe('clawsmith mcp serve forwards progress', { timeout: 120_000 }, () => {
  it('sends notifications/progress for a call whose client sent a progressToken, and none otherwise', async () => {
    const home = testdir();
    const plugin = testdir(STAGES_PLUGIN);
    const trust = await runCli(['plugins', 'trust', plugin], { home });
    expect(trust.code).toBe(0);
    const served = await connectServe({ home, workspace: testdir() });
    const search = await served.call('search_tools', { query: 'select:stages_run' });
    expect(search.isError).toBe(false);

    const heard: Progress[] = [];
    const result = await served.client.callTool({ name: 'stages_run', arguments: {} }, undefined, {
      onprogress: (progress) => heard.push(progress),
    });
    expect(served.text(result as never)).toContain('three stages done');
    expect(heard.length).toBeGreaterThanOrEqual(2);
    expect(heard[0]).toEqual({ progress: 1, total: 3, message: 'stage 1' });
    const values = heard.map((progress) => progress.progress);
    expect(values).toEqual([...new Set(values)].sort((a, b) => a - b));

    // Without a token the client hears nothing for the call (the SDK would report an unknown token as an error).
    const errors: Error[] = [];
    served.client.onerror = (error) => errors.push(error);
    const quiet = await served.call('stages_run');
    expect(quiet.isError).toBe(false);
    expect(errors).toEqual([]);
  });
});
