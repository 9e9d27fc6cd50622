import { randomUUID } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { hookInput } from '@clawsmith/tool-host';
import { resolveToolSecurity } from '@clawsmith/tool-protocol';
import { describe, expect, it, onTestFinished } from 'vitest';
import { effectiveSettings, trustProjectSettings, type SettingsInputs } from './effective-settings.js';

const call = hookInput(
  { toolName: 'run_command', input: { command: 'ls' }, summary: 'ls', sessionId: 's', turnId: 't', toolCallId: 'c' },
  resolveToolSecurity({ risk: 'execute' }),
);

/** A workspace whose hook writes a probe file in /tmp: on the host only when it ran outside the sandbox. */
function workspaceWithProbe() {
  const probe = `/tmp/clawsmith-hook-probe-${randomUUID()}`;
  onTestFinished(() => rmSync(probe, { force: true }));
  const workspace = testdir({ 'hooks/probe.sh': `#!/bin/bash\ncat >/dev/null\necho ran > ${probe}\nexit 0\n` });
  chmodSync(join(workspace, 'hooks/probe.sh'), 0o755);
  return { workspace, probe, hook: join(workspace, 'hooks/probe.sh') };
}

function write(file: string, settings: unknown): void {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, JSON.stringify(settings));
}

const hooksOf = (command: string, extra: Record<string, unknown> = {}) => ({
  ...extra,
  hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command, timeout: 30 }] }] },
});

async function decide(inputs: SettingsInputs) {
  const settings = effectiveSettings(inputs);
  expect(settings.hooks).toHaveLength(1);
  return { settings, decision: await settings.hooks[0]!.decide(call) };
}

describe('hook commands and the command sandbox', () => {
  it('run in the sandbox by default: a write to /tmp lands in its private /tmp, not on the host', async () => {
    const { workspace, probe, hook } = workspaceWithProbe();
    const home = testdir({});
    write(join(home, 'settings.json'), hooksOf(hook));
    const { settings, decision } = await decide({ homeDir: home, workspaceRoot: workspace });
    expect(decision).toEqual({ decision: 'allow' });
    expect(settings.hookSandbox).toEqual({ on: true });
    expect(existsSync(probe)).toBe(false);
  });

  it("run outside it when the person's own settings say so", async () => {
    const { workspace, probe, hook } = workspaceWithProbe();
    const home = testdir({});
    write(join(home, 'settings.json'), hooksOf(hook, { sandboxHooks: false }));
    const { settings, decision } = await decide({ homeDir: home, workspaceRoot: workspace });
    expect(decision).toEqual({ decision: 'allow' });
    expect(settings.hookSandbox).toEqual({ on: false, source: join(home, 'settings.json') });
    expect(existsSync(probe)).toBe(true);
  });

  it('stay in it when a project file, even a trusted one, tries to turn it off, and that is said', async () => {
    const { workspace, probe, hook } = workspaceWithProbe();
    const home = testdir({});
    write(join(workspace, '.clawsmith/settings.json'), hooksOf(hook, { sandboxHooks: false }));
    trustProjectSettings(home, workspace);
    const { settings, decision } = await decide({ homeDir: home, workspaceRoot: workspace });
    expect(decision).toEqual({ decision: 'allow' });
    expect(settings.hookSandbox).toEqual({ on: true });
    expect(settings.notices).toEqual([expect.stringContaining('sets "sandboxHooks": false, which only your own')]);
    expect(existsSync(probe)).toBe(false);
  });

  it('deny (fail closed) where no sandbox can be had, naming the hook', async () => {
    const { workspace, probe, hook } = workspaceWithProbe();
    const home = testdir({});
    write(join(home, 'settings.json'), hooksOf(hook));
    const { decision } = await decide({
      homeDir: home,
      workspaceRoot: workspace,
      commandSandbox: { sandbox: 'bubblewrap', bubblewrapProgram: join(home, 'no-such-bwrap') },
    });
    expect(decision).toMatchObject({ decision: 'deny' });
    const reason = (decision as { reason: string }).reason;
    expect(reason).toContain(hook);
    expect(reason).toContain('could not start (sandbox:');
    expect(reason).toContain('denied (hooks fail closed)');
    expect(existsSync(probe)).toBe(false);
  });

  it('keep stdout and stderr apart in the sandbox: exit 2 blocks with stderr, JSON on stdout decides', async () => {
    const home = testdir({});
    const workspace = testdir({
      'hooks/block.sh': '#!/bin/bash\ncat >/dev/null\necho "not for the model"\necho "no ls here" >&2\nexit 2\n',
      'hooks/ask.sh':
        '#!/bin/bash\ncat >/dev/null\necho "noise" >&2\necho \'{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"check first"}}\'\n',
    });
    chmodSync(join(workspace, 'hooks/block.sh'), 0o755);
    chmodSync(join(workspace, 'hooks/ask.sh'), 0o755);
    write(join(home, 'settings.json'), hooksOf(join(workspace, 'hooks/block.sh')));
    expect((await decide({ homeDir: home, workspaceRoot: workspace })).decision).toEqual({
      decision: 'deny',
      reason: 'no ls here',
    });
    write(join(home, 'settings.json'), hooksOf(join(workspace, 'hooks/ask.sh')));
    expect((await decide({ homeDir: home, workspaceRoot: workspace })).decision).toEqual({
      decision: 'ask',
      reason: 'check first',
    });
  });
});
