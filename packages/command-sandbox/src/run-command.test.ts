import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { snapshotTree, testdir } from '@clawsmith/test-utils';
import type {
  ArtifactReference,
  ArtifactWriter,
  ToolExecutionContext,
  ToolExecutionResult,
} from '@clawsmith/tool-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRunCommandTool, runCommand } from './index.js';
import { hostProcessesWith } from './__fixtures__/host-processes.js';

/** Command lines of every process on the host whose command line contains `marker`. */

function memoryArtifacts(): ArtifactWriter & { stored: Buffer[] } {
  const stored: Buffer[] = [];
  const reference = (content: Buffer): ArtifactReference => ({
    id: `artifact-${stored.length}`,
    mediaType: 'text/plain; charset=utf-8',
    byteLength: content.length,
    lineCount: content.toString('utf8').split('\n').length,
  });
  return {
    stored,
    async write(content) {
      const buffer = Buffer.from(content);
      const storedReference = reference(buffer);
      stored.push(buffer);
      return storedReference;
    },
    async openAppendable() {
      throw new Error('not used by run_command');
    },
  };
}

function context(workspaceRoot: string, extra: Partial<ToolExecutionContext> = {}): ToolExecutionContext {
  return {
    authorized: true,
    workspaceRoot,
    sessionId: 's1',
    turnId: 't1',
    toolCallId: 'c1',
    signal: new AbortController().signal,
    ...extra,
  };
}

describe('run_command in the real sandbox', () => {
  let server: Server;
  let port: number;
  const secret = `clawsmith-secret-${process.pid}-value`;

  beforeAll(async () => {
    process.env.CLAWSMITH_TEST_API_TOKEN = secret;
    server = createServer((_request, response) => response.end('reached'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    delete process.env.CLAWSMITH_TEST_API_TOKEN;
    await new Promise((resolve) => server.close(resolve));
  });

  it('writes the workspace but nothing outside it, and keeps /tmp private', async () => {
    const workspace = testdir({ 'a.txt': 'a' });
    const result = await runCommand(
      {},
      {
        workspaceRoot: workspace,
        command: `echo made > b.txt; touch /etc/clawsmith-escape-${process.pid}; echo etc=$?; echo x > /tmp/clawsmith-tmp-${process.pid}; cat /tmp/clawsmith-tmp-${process.pid}; touch /root/clawsmith-home-${process.pid}; echo home=$?`,
      },
    );
    expect(result.sandbox).toBe('bubblewrap');
    expect(result.output).toContain('Read-only file system');
    expect(result.output).toContain('etc=1');
    expect(readFileSync(`${workspace}/b.txt`, 'utf8')).toBe('made\n');
    expect(existsSync(`/etc/clawsmith-escape-${process.pid}`)).toBe(false);
    expect(existsSync(`/tmp/clawsmith-tmp-${process.pid}`)).toBe(false);
    expect(existsSync(`/root/clawsmith-home-${process.pid}`)).toBe(false);
  });

  it('keeps .git/hooks, .git/config and .clawsmith read-only inside the workspace', async () => {
    const workspace = testdir({
      '.git/config': '[core]\n',
      '.git/hooks/README': 'hooks',
      '.clawsmith/settings.json': '{}',
      'src/a.ts': '',
    });
    const before = snapshotTree(`${workspace}/.git`);
    const result = await runCommand(
      {},
      {
        workspaceRoot: workspace,
        command:
          'echo evil > .git/hooks/pre-commit; echo "[core] fsmonitor=evil" >> .git/config; echo x > .clawsmith/settings.json; rm -rf .clawsmith; echo ok > src/a.ts',
      },
    );
    expect(result.output.match(/Read-only file system/g)?.length).toBeGreaterThanOrEqual(3);
    expect(snapshotTree(`${workspace}/.git`)).toEqual(before);
    expect(readFileSync(`${workspace}/.clawsmith/settings.json`, 'utf8')).toBe('{}');
    expect(readFileSync(`${workspace}/src/a.ts`, 'utf8')).toBe('ok\n');
  });

  it("does not show the parent's secrets through /proc, while unsandboxed it would", async () => {
    const workspace = testdir({});
    // /proc/<pid>/environ shows the environment a process was started with: pick a variable of
    // this test process's own start-up environment that the allowlist does not pass.
    const startupEnvironment = readFileSync('/proc/self/environ', 'utf8').split('\0');
    const parentOnly = startupEnvironment.find(
      (entry) => /^(npm_|VITEST|NODE_)[A-Za-z_]*=.{8,}$/.test(entry) && !entry.startsWith('NODE_ENV='),
    );
    expect(parentOnly).toBeDefined();
    const command = `cat /proc/${process.pid}/environ /proc/${process.ppid}/environ 2>&1; for f in /proc/[0-9]*/environ; do tr '\\0' '\\n' < "$f"; done; env`;
    const sandboxed = await runCommand({}, { workspaceRoot: workspace, command });
    expect(sandboxed.output).not.toContain(parentOnly);
    expect(sandboxed.output).not.toContain(secret);
    expect(sandboxed.output).toMatch(/No such file or directory/);
    // The same read without the sandbox shows the parent's environment: the check above can fail.
    const unsandboxed = await runCommand(
      { sandbox: 'off' },
      { workspaceRoot: workspace, command: `tr '\\0' '\\n' < /proc/${process.pid}/environ` },
    );
    expect(unsandboxed.output).toContain(parentOnly);
    expect(unsandboxed.notes.join(' ')).toMatch(/WITHOUT a sandbox/);
  });

  it('passes no secret-looking variable of the caller into the command', async () => {
    const workspace = testdir({});
    const result = await runCommand({ sandbox: 'off', env: ['LANG'] }, { workspaceRoot: workspace, command: 'env' });
    expect(result.output).not.toContain(secret);
    expect(result.output).toMatch(/^PATH=/m);
    expect(result.output).not.toMatch(/^(NODE_OPTIONS|LD_PRELOAD|BASH_ENV|npm_config_[a-z_]+)=/m);
  });

  it('cannot reach a server on the host loopback unless the network is allowed', async () => {
    const workspace = testdir({});
    const command = `exec 3<>/dev/tcp/127.0.0.1/${port} && printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3`;
    const closed = await runCommand({}, { workspaceRoot: workspace, command });
    expect(closed.output).not.toContain('reached');
    expect(closed.exitCode).not.toBe(0);
    const open = await runCommand({ network: true }, { workspaceRoot: workspace, command });
    expect(open.output).toContain('reached');
  });

  it('kills a setsid child on cancel: nothing survives in the host process list', async () => {
    const workspace = testdir({});
    const marker = `${1000 + (process.pid % 1000)}.${Date.now() % 1000}1`;
    const controller = new AbortController();
    const artifacts = memoryArtifacts();
    const running = runCommand(
      {},
      {
        workspaceRoot: workspace,
        command: `setsid sleep ${marker} & echo started; sleep ${marker}`,
        signal: controller.signal,
        artifacts,
      },
    );
    await expect.poll(() => hostProcessesWith(`sleep ${marker}`).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    controller.abort();
    const result = await running;
    expect(result.cancelled).toBe(true);
    expect(hostProcessesWith(`sleep ${marker}`)).toEqual([]);
  });

  it('kills a setsid child on cancel when unsandboxed too (pids cgroup and process group)', async () => {
    const workspace = testdir({});
    const marker = `${2000 + (process.pid % 1000)}.${Date.now() % 1000}3`;
    const controller = new AbortController();
    const running = runCommand(
      { sandbox: 'off' },
      { workspaceRoot: workspace, command: `setsid sleep ${marker} & sleep ${marker}`, signal: controller.signal },
    );
    await expect.poll(() => hostProcessesWith(`sleep ${marker}`).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    controller.abort();
    await running;
    expect(hostProcessesWith(`sleep ${marker}`)).toEqual([]);
  });

  it('returns on timeout although a double-forked grandchild holds stdout, and kills it', async () => {
    const workspace = testdir({});
    const marker = `${3000 + (process.pid % 1000)}.${Date.now() % 1000}7`;
    const result = await runCommand(
      {},
      {
        workspaceRoot: workspace,
        command: `(setsid sh -c 'sleep ${marker}' &); echo forked; sleep ${marker}`,
        timeoutMs: 1_500,
      },
    );
    expect(result.timedOut).toBe(true);
    expect(result.output).toContain('forked');
    expect(result.notes.join(' ')).toMatch(/Timed out after 2 s|Timed out after 1 s/);
    expect(hostProcessesWith(`sleep ${marker}`)).toEqual([]);
  });

  it('returns when the command exits although a background grandchild still holds stdout', async () => {
    const workspace = testdir({});
    const marker = `${4000 + (process.pid % 1000)}.${Date.now() % 1000}9`;
    const result = await runCommand(
      {},
      { workspaceRoot: workspace, command: `(sleep ${marker} &); echo done`, timeoutMs: 60_000 },
    );
    expect(result.timedOut).toBe(false);
    expect(result.exitCode).toBe(0);
    expect(result.output).toBe('done\n');
    expect(hostProcessesWith(`sleep ${marker}`)).toEqual([]);
  });

  it('contains a process flood with the process limit and reports it', async () => {
    const workspace = testdir({});
    const marker = `${5000 + (process.pid % 1000)}.${Date.now() % 1000}5`;
    const result = await runCommand(
      { limits: { processes: 40 } },
      {
        workspaceRoot: workspace,
        command: `for i in $(seq 1 200); do sleep ${marker} & done 2>/dev/null; echo spawned`,
        timeoutMs: 8_000,
      },
    );
    expect(result.processLimitHits).toBeGreaterThan(0);
    expect(result.notes.join(' ')).toMatch(/Process limit reached: \d+ forks were refused at 40 processes/);
    expect(hostProcessesWith(`sleep ${marker}`)).toEqual([]);
  });

  it('says so when no pids cgroup could hold the tree, and the process cap then did not apply', async () => {
    const workspace = testdir({});
    const notACgroup = testdir({});
    const held = await runCommand({}, { workspaceRoot: workspace, command: 'echo held' });
    expect(held.contained).toBe(true);
    expect(held.notes.join(' ')).not.toMatch(/cgroup/);
    const loose = await runCommand({ cgroupRoot: notACgroup }, { workspaceRoot: workspace, command: 'echo loose' });
    expect(loose.exitCode).toBe(0);
    expect(loose.contained).toBe(false);
    expect(loose.notes.join(' ')).toMatch(/process cap \(\d+\) was not enforced: no pids cgroup could be created here/);
    const tool = createRunCommandTool({ cgroupRoot: notACgroup });
    const result = (await tool.execute({ command: 'true' }, context(workspace))) as ToolExecutionResult;
    expect(result.display?.fields).toContainEqual({
      label: 'process tree',
      value: 'not in a pids cgroup (no process cap)',
    });
    expect(readdirSync(notACgroup)).toEqual([]);
  });

  it('stops `yes > big` at the file size limit and says so', async () => {
    const workspace = testdir({});
    const result = await runCommand(
      { limits: { fileSizeBytes: 1_048_576 } },
      { workspaceRoot: workspace, command: 'yes > big' },
    );
    expect(result.signal).toBe('SIGXFSZ');
    expect(result.notes.join(' ')).toMatch(/File size limit reached \(SIGXFSZ\)/);
    expect(readFileSync(`${workspace}/big`).length).toBeLessThanOrEqual(1_048_576);
  });

  it('merges stdout and stderr in arrival order, passes stdin, and keeps head and tail of long output', async () => {
    const workspace = testdir({});
    const merged = await runCommand(
      {},
      { workspaceRoot: workspace, command: 'echo a; echo b >&2; cat; echo c', stdin: 'from stdin\n' },
    );
    expect(merged.output).toBe('a\nb\nfrom stdin\nc\n');
    const artifacts = memoryArtifacts();
    const long = await runCommand(
      { outputLimitBytes: 1_000 },
      { workspaceRoot: workspace, command: 'seq 1 100000', artifacts },
    );
    expect(long.outputTruncated).toBe(true);
    expect(long.output.startsWith('1\n2\n3\n')).toBe(true);
    expect(long.output.endsWith('99999\n100000\n')).toBe(true);
    expect(long.output).toMatch(/bytes of output left out/);
    expect(long.artifact?.byteLength).toBe(long.outputBytes);
    expect(artifacts.stored[0]?.toString('utf8').split('\n')).toHaveLength(100_001);
    const unstored = await runCommand(
      { outputLimitBytes: 1_000 },
      { workspaceRoot: workspace, command: 'seq 1 100000' },
    );
    expect(unstored.artifact).toBeUndefined();
    expect(unstored.notes.join(' ')).toMatch(/No artifact store/);
  });
});

describe('createRunCommandTool', () => {
  it('declares execute risk and its capabilities', () => {
    const tool = createRunCommandTool();
    expect(tool).toMatchObject({
      name: 'run_command',
      risk: 'execute',
      concurrencySafe: false,
      capabilities: ['process.execute', 'filesystem.write', 'filesystem.read'],
    });
  });

  it('reports a non-zero exit with its output and the sandbox', async () => {
    const workspace = testdir({});
    const result = (await createRunCommandTool().execute(
      { command: 'echo out; exit 3' },
      context(workspace),
    )) as ToolExecutionResult;
    expect(result.status).toBe('error');
    expect(result.content).toContain('exit code 3');
    expect(result.content).toContain('sandbox: bubblewrap, network off');
    expect(result.display?.kind).toBe('command');
  });

  it('refuses a catastrophic command with command_refused naming the rule, and changes nothing', async () => {
    const workspace = testdir({ 'keep.txt': 'keep' });
    const before = snapshotTree(workspace);
    const run = createRunCommandTool().execute({ command: "echo hi > x.txt; bash -c 'rm -rf ~'" }, context(workspace));
    await expect(run).rejects.toMatchObject({ code: 'command_refused', rule: 'recursive_delete_root' });
    await expect(run).rejects.toThrow(/recursive_delete_root/);
    expect(snapshotTree(workspace)).toEqual(before);
  });

  it('refuses to run unauthorized, outside the workspace, or without a sandbox', async () => {
    const workspace = testdir({ sub: {}, escape: { symlink: '/etc' } });
    const tool = createRunCommandTool();
    await expect(tool.execute({ command: 'true', cwd: 'escape' }, context(workspace))).rejects.toMatchObject({
      code: 'working_directory_outside_workspace',
    });
    await expect(tool.execute({ command: 'true' }, context(workspace, { authorized: false }))).rejects.toMatchObject({
      code: 'unauthorized',
    });
    await expect(tool.execute({ command: 'true', cwd: '../..' }, context(workspace))).rejects.toMatchObject({
      code: 'working_directory_outside_workspace',
    });
    await expect(tool.execute({ command: 'true', cwd: 'missing' }, context(workspace))).rejects.toMatchObject({
      code: 'working_directory_not_found',
    });
    const noSandbox = createRunCommandTool({ bubblewrapProgram: '/nonexistent/bwrap' });
    await expect(noSandbox.execute({ command: 'true' }, context(workspace))).rejects.toMatchObject({
      code: 'sandbox_unavailable',
    });
    const off = createRunCommandTool({ sandbox: 'off' });
    const result = (await off.execute({ command: 'pwd', cwd: 'sub' }, context(workspace))) as ToolExecutionResult;
    expect(result.content).toContain('WITHOUT a sandbox');
    expect(result.content).toContain(`${workspace}/sub`);
  });

  it('refuses a forbidden environment name at construction', () => {
    expect(() => createRunCommandTool({ env: ['LD_PRELOAD'] })).toThrow(
      expect.objectContaining({ code: 'environment_name_forbidden' }),
    );
    expect(() => createRunCommandTool({ env: ['GITHUB_TOKEN'] })).toThrow(/may not be passed/);
  });

  it('keeps a small output inline and stores no artifact for it, even with the port wired in', async () => {
    const workspace = testdir({});
    const artifacts = memoryArtifacts();
    const result = (await createRunCommandTool().execute(
      { command: 'echo hello' },
      context(workspace, { artifacts }),
    )) as ToolExecutionResult;
    expect(result.artifact).toBeUndefined();
    expect(artifacts.stored).toEqual([]);
    expect(result.content).toContain('--- output (6 bytes) ---\nhello\n');
    expect(result.content).not.toContain('Complete log');
  });

  it('stores the complete log as an artifact when the output was cut to head and tail', async () => {
    const workspace = testdir({});
    const artifacts = memoryArtifacts();
    const result = (await createRunCommandTool({ outputLimitBytes: 100 }).execute(
      { command: 'seq 1 200' },
      context(workspace, { artifacts }),
    )) as ToolExecutionResult;
    expect(result.artifact).toMatchObject({ id: 'artifact-0', byteLength: 692 });
    expect(artifacts.stored[0]?.toString().split('\n')).toHaveLength(201);
    expect(result.content).toContain('Complete log: artifact artifact-0 (692 bytes).');
  });
});
