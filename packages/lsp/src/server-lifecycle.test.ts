import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { TYPESCRIPT_PROJECT, lspTool, runTool, testContext } from './__fixtures__/lsp-fixtures.js';
import { createLspService, type LspService } from './lsp-service.js';

const services: LspService[] = [];
afterEach(async () => {
  await Promise.all(services.splice(0).map((service) => service.close()));
});

function service(options: Parameters<typeof createLspService>[0] = {}): LspService {
  const created = createLspService(options);
  services.push(created);
  return created;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Live (not zombie) processes of group `groupId`, read from /proc: the server and what it spawned. */
function groupMembers(groupId: number): string[] {
  const members: string[] = [];
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(group) === groupId && state !== 'Z') members.push(stat.slice(0, stat.lastIndexOf(')') + 1));
    } catch {
      // Ended while we looked.
    }
  }
  return members;
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const ERROR_LINE = "src/main.ts:4:7 error TS2322: Type 'number' is not assignable to type 'string'.";

describe('language server lifecycle', () => {
  it('answers lsp_server_unavailable after a crash, then restarts and answers', { timeout: 180_000 }, async () => {
    const root = testdir(TYPESCRIPT_PROJECT);
    const lsp = service({ limits: { restartDelayMs: 1_000 } });
    const diagnostics = lspTool(lsp, 'lsp_diagnostics');
    const first = await runTool(diagnostics, { path: 'src/main.ts' }, testContext(root));
    expect(first.content.split('\n')[1]).toBe(ERROR_LINE);
    const [running] = lsp.runningServers();
    expect(running).toMatchObject({ workspaceRoot: root, serverId: 'typescript' });

    process.kill(-running!.pid, 'SIGKILL');
    await until(() => lsp.runningServers().length === 0, 'the crash to be seen');
    const during = await runTool(diagnostics, { path: 'src/main.ts' }, testContext(root));
    expect([during.status, during.code, during.retryable]).toEqual(['error', 'lsp_server_unavailable', true]);
    expect(during.content).toMatch(
      /^The typescript language server was killed by SIGKILL; it restarts in \d+ ms\. Try again then\.$/,
    );

    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const after = await runTool(diagnostics, { path: 'src/main.ts' }, testContext(root));
    expect(after.content.split('\n')[1]).toBe(ERROR_LINE);
    expect(lsp.runningServers()[0]!.pid).not.toBe(running!.pid);
  });

  it('stops every server process with the service', { timeout: 120_000 }, async () => {
    const root = testdir(TYPESCRIPT_PROJECT);
    const lsp = service();
    await runTool(lspTool(lsp, 'lsp_symbols'), { path: 'src/math.ts' }, testContext(root));
    const [running] = lsp.runningServers();
    expect(alive(running!.pid)).toBe(true);
    // The server and the tsserver it spawned.
    expect(groupMembers(running!.pid).length).toBeGreaterThanOrEqual(2);
    await lsp.close();
    // Gone when close() resolves, not some time later: a caller exits or deletes the workspace next.
    expect(groupMembers(running!.pid)).toEqual([]);
    const later = await runTool(lspTool(lsp, 'lsp_symbols'), { path: 'src/math.ts' }, testContext(root));
    expect(later.code).toBe('lsp_server_unavailable');
  });

  it(
    'shares one server between two sessions on one workspace; another process has its own',
    { timeout: 180_000 },
    async () => {
      const root = testdir(TYPESCRIPT_PROJECT);
      const lsp = service();
      const diagnostics = lspTool(lsp, 'lsp_diagnostics');
      const [one, two] = await Promise.all([
        runTool(diagnostics, { path: 'src/main.ts' }, testContext(root, { sessionId: 'session-a' })),
        runTool(diagnostics, { path: 'src/main.ts' }, testContext(root, { sessionId: 'session-b' })),
      ]);
      expect(one.content).toBe(two.content);
      expect(lsp.runningServers()).toHaveLength(1);

      // A second service stands for a second clawsmith process: its own server, the same answers, fresh content for both.
      const other = service();
      writeFileSync(join(root, 'src/main.ts'), TYPESCRIPT_PROJECT['src/main.ts'].replace(': string', ': boolean'));
      const [mine, theirs] = await Promise.all([
        runTool(diagnostics, { path: 'src/main.ts' }, testContext(root, { sessionId: 'session-a' })),
        runTool(
          lspTool(other, 'lsp_diagnostics'),
          { path: 'src/main.ts' },
          testContext(root, { sessionId: 'session-c' }),
        ),
      ]);
      expect(mine.content.split('\n')[1]).toBe(
        "src/main.ts:4:7 error TS2322: Type 'number' is not assignable to type 'boolean'.",
      );
      expect(theirs.content).toBe(mine.content);
      expect(other.runningServers()[0]!.pid).not.toBe(lsp.runningServers()[0]!.pid);
    },
  );

  it('says how to install a server whose program is missing', { timeout: 60_000 }, async () => {
    const home = testdir({
      'lsp.json': JSON.stringify({
        servers: { typescript: { command: '/nonexistent/typescript-language-server', args: ['--stdio'] } },
      }),
    });
    const root = testdir(TYPESCRIPT_PROJECT);
    const result = await runTool(
      lspTool(service({ home }), 'lsp_diagnostics'),
      { path: 'src/main.ts' },
      testContext(root),
    );
    expect([result.code, result.retryable]).toEqual(['lsp_server_not_installed', false]);
    expect(result.content).toContain('fix "command" for "typescript" in lsp.json');
  });
});
