import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { runCommand } from './index.js';

describe('runCommand resource walls', () => {
  it('bounds the private /tmp to its configured size', async () => {
    const workspace = testdir({});
    const result = await runCommand(
      { limits: { temporaryBytes: 4 * 1024 * 1024 } },
      {
        workspaceRoot: workspace,
        command: 'head -c 16777216 /dev/zero > /tmp/big; echo status=$?; du -k /tmp/big | cut -f1',
      },
    );
    expect(result.sandbox).toBe('bubblewrap');
    expect(result.output).toMatch(/No space left on device/);
    expect(result.output).toContain('status=1');
    expect(Number(result.output.trim().split('\n').at(-1))).toBeLessThanOrEqual(4096);
  });

  it('refuses a 300 MiB allocation under a 768 MiB address-space limit (node itself needs about 600 MiB)', async () => {
    const workspace = testdir({});
    const allocate = (mebibytes: number) =>
      `node -e 'const b = Buffer.alloc(${mebibytes} * 1024 * 1024, 1); console.log("allocated", b.length)'; echo status=$?`;
    const limited = await runCommand(
      { environmentSource: { PATH: process.env.PATH }, limits: { memoryBytes: 768 * 1024 * 1024 } },
      { workspaceRoot: workspace, command: `${allocate(16)}; ${allocate(300)}` },
    );
    expect(limited.output).toContain(`allocated ${16 * 1024 * 1024}`);
    expect(limited.output).not.toContain(`allocated ${300 * 1024 * 1024}`);
    expect(limited.output).toMatch(/status=0[\s\S]*status=(?!0)\d+/);
  });
});
