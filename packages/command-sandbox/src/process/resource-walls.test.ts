import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../index.js';
import { commandToolResult } from '../run-command-tool.js';

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

describe('default resource limits', () => {
  const node = { environmentSource: { PATH: process.env.PATH } };

  it('bounds a command that writes 200 MB to /tmp and keeps allocating 300 MiB, and says which limit and how to raise it', async () => {
    const workspace = testdir({});
    // 200 MB in the private /tmp, then 300 MiB more every round, held, until something stops it.
    const grow =
      `head -c 200000000 /dev/zero > /tmp/fill && echo TMP-WRITTEN; ` +
      `node -e 'const held = []; for (let round = 1; round <= 20; round += 1) { held.push(Buffer.alloc(300 * 1024 * 1024, 1)); console.log("held", round * 300, "MiB") }'`;
    const result = await runCommand(node, { workspaceRoot: workspace, command: grow });
    expect(result.output).toContain('TMP-WRITTEN');
    expect(result.output).not.toContain('held 6000 MiB');
    expect(result.exitCode).not.toBe(0);
    expect(result.memoryLimitKills).toBeGreaterThan(0);
    expect(result.limitsReached).toContain('memory');
    const tool = commandToolResult(result);
    expect(tool).toMatchObject({ status: 'error', code: 'resource_limit_reached' });
    expect(tool.content).toContain('Memory limit reached: the command held 2 GiB');
    expect(tool.content).toContain('limits.commandMemoryBytes');
    // Touching 2 GiB of fresh pages costs this VM about 20 s alone (about 38 µs a page), more under load.
  }, 120_000);

  it('bounds the private /tmp at 512 MiB by default and says how to raise it', async () => {
    const workspace = testdir({});
    const result = await runCommand(node, {
      workspaceRoot: workspace,
      command: 'head -c 700000000 /dev/zero > /tmp/big; status=$?; du -m /tmp/big | cut -f1; exit $status',
    });
    expect(Number(result.output.trim().split('\n').at(-1))).toBeLessThanOrEqual(512);
    expect(result.limitsReached).toEqual(['temporary_space']);
    const tool = commandToolResult(result);
    expect(tool).toMatchObject({ status: 'error', code: 'resource_limit_reached' });
    expect(tool.content).toContain('hold at most 512 MiB each');
    expect(tool.content).toContain('limits.temporaryBytes');
  });

  it('reports a lower configured memory limit the same way, and a command within it is a plain success', async () => {
    const workspace = testdir({});
    const options = { ...node, limits: { commandMemoryBytes: 256 * 1024 * 1024 } };
    const small = await runCommand(options, {
      workspaceRoot: workspace,
      command: `node -e 'console.log(Buffer.alloc(16 * 1024 * 1024, 1).length)'`,
    });
    expect(small.exitCode).toBe(0);
    expect(small.limitsReached).toEqual([]);
    const large = await runCommand(options, {
      workspaceRoot: workspace,
      command: `node -e 'const b = Buffer.alloc(300 * 1024 * 1024, 1); console.log("allocated", b.length)'`,
    });
    expect(large.output).not.toContain('allocated');
    expect(commandToolResult(large).content).toContain('the command held 256 MiB');
  });
});
