import { getEventListeners } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import type { AnyToolDefinition, ToolExecutionContext, ToolProgress } from '@clawsmith/tool-protocol';
import { describe, expect, it, onTestFinished } from 'vitest';
import { folderArtifacts, servers, startedPids, writeMcpConfig } from './__fixtures__/mcp-servers.js';
import { loadMcpConfiguration } from './mcp-configuration.js';
import { openMcpTools, type McpTools } from './mcp-tools.js';
import { ToolCatalogueStore } from './tool-catalogue.js';
import { trustMcpServer } from './trust-commands.js';

async function open(options: Parameters<typeof openMcpTools>[0]): Promise<McpTools> {
  const tools = await openMcpTools(options);
  onTestFinished(() => tools.close());
  return tools;
}

function toolNamed(tools: McpTools, name: string): AnyToolDefinition {
  const tool = tools.tools.find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no tool ${name} among ${tools.tools.map((candidate) => candidate.name).join(', ')}`);
  return tool;
}

function context(workspaceRoot: string, extra: Partial<ToolExecutionContext> = {}): ToolExecutionContext {
  return {
    authorized: true,
    workspaceRoot,
    sessionId: 'session',
    turnId: 'turn',
    toolCallId: 'call',
    signal: new AbortController().signal,
    ...extra,
  };
}

async function call(tool: AnyToolDefinition, input: unknown, executionContext: ToolExecutionContext) {
  const parsed = tool.inputSchema.safeParse(input);
  if (!parsed.success) throw new Error(parsed.error.message);
  return tool.execute(parsed.data, executionContext) as Promise<{ status: string; content: string; code?: string }>;
}

describe('openMcpTools with the everything reference server (stdio)', () => {
  it('lists the tools once, keeps them, and offers them as deferred tools without starting the server again', async () => {
    const home = testdir();
    const workspace = testdir();
    writeMcpConfig(join(home, 'mcp.json'), {
      everything: { command: process.execPath, args: [servers.everything, 'stdio'] },
    });
    const first = await open({ homeDir: home, workspaceRoot: workspace });
    expect(first.connections.get('everything')?.starts).toBe(1);
    await first.close();

    const second = await open({ homeDir: home, workspaceRoot: workspace });
    const echo = toolNamed(second, 'mcp__everything__echo');
    expect(second.connections.get('everything')?.starts).toBe(0);
    expect(second.tools.every((tool) => tool.deferred === true)).toBe(true);
    expect(echo).toMatchObject({
      risk: 'execute',
      concurrencySafe: false,
      searchMetadata: { aliases: ['echo', 'Echo Tool'], tags: ['mcp', 'everything', 'read-only', 'idempotent'] },
      inputJsonSchema: {
        type: 'object',
        properties: { message: { type: 'string', description: 'Message to echo' } },
        required: ['message'],
        $schema: 'http://json-schema.org/draft-07/schema#',
      },
    });
    expect(second.servers()).toEqual([
      expect.objectContaining({
        name: 'everything',
        scope: 'user',
        trust: 'user',
        availability: 'offered',
        // The server's own tools, plus reading its resources (it announces the capability).
        toolCount: second.tools.length - 1,
      }),
    ]);
    expect(toolNamed(second, 'mcp__everything__read_resource')).toMatchObject({ deferred: true, risk: 'execute' });

    const result = await call(echo, { message: 'hello' }, context(workspace));
    expect(result).toMatchObject({ status: 'success', content: 'Echo: hello' });
    expect(second.connections.get('everything')?.starts).toBe(1);
  });

  it('validates arguments with the server’s JSON Schema before the call', async () => {
    const home = testdir();
    writeMcpConfig(join(home, 'mcp.json'), {
      everything: { command: process.execPath, args: [servers.everything, 'stdio'] },
    });
    const tools = await open({ homeDir: home });
    const sum = toolNamed(tools, 'mcp__everything__get-sum');
    expect(sum.inputSchema.safeParse({ a: 1, b: 2 }).success).toBe(true);
    const wrong = sum.inputSchema.safeParse({ a: 'one' });
    expect(wrong.success).toBe(false);
    expect(wrong.error?.issues.map((issue) => issue.message)).toEqual([
      "The arguments do not match the server's schema: arguments must have required property 'b', arguments/a must be number.",
    ]);
    expect(await call(sum, { a: 2, b: 40 }, context(testdir()))).toMatchObject({
      status: 'success',
      content: expect.stringContaining('42'),
    });
  });

  it('stores images as artifacts, shows structured content as json, and passes progress on', async () => {
    const home = testdir();
    const workspace = testdir();
    writeMcpConfig(join(home, 'mcp.json'), {
      everything: { command: process.execPath, args: [servers.everything, 'stdio'] },
    });
    const tools = await open({ homeDir: home });
    const artifacts = folderArtifacts(join(workspace, 'artifacts'));

    const image = await call(
      toolNamed(tools, 'mcp__everything__get-tiny-image'),
      {},
      context(workspace, { artifacts }),
    );
    expect(image.status).toBe('success');
    expect(image.content).toMatch(/\[image image\/png, \d+ bytes: stored as artifact artifact-1\]/);
    expect(readFileSync(join(workspace, 'artifacts/artifact-1')).subarray(1, 4).toString()).toBe('PNG');

    const weather = await call(
      toolNamed(tools, 'mcp__everything__get-structured-content'),
      { location: 'Chicago' },
      context(workspace),
    );
    expect(weather).toMatchObject({
      status: 'success',
      display: { kind: 'json', title: 'everything · get-structured-content' },
    });
    expect(JSON.parse((weather as unknown as { display: { body: string } }).display.body)).toHaveProperty(
      'temperature',
    );

    const progress: ToolProgress[] = [];
    const long = await call(
      toolNamed(tools, 'mcp__everything__trigger-long-running-operation'),
      { duration: 1, steps: 3 },
      context(workspace, { reportProgress: (update) => progress.push(update) }),
    );
    expect(long.status).toBe('success');
    // The last notification may arrive after the answer, when nobody is listening any more.
    expect(progress.map((update) => [update.progress, update.total]).slice(0, 2)).toEqual([
      [1, 3],
      [2, 3],
    ]);
  });

  it('hears the server’s own tools/list_changed: the table stays frozen, the new list is stored and said once', async () => {
    // The everything server registers some tools after initialize and sends tools/list_changed
    // for them by itself. The stored list lacks get-sum, as if the server gained it since.
    const home = testdir();
    const workspace = testdir();
    writeMcpConfig(join(home, 'mcp.json'), {
      everything: { command: process.execPath, args: [servers.everything, 'stdio'] },
    });
    await (await open({ homeDir: home, workspaceRoot: workspace })).close();
    const [server] = loadMcpConfiguration({ homeDir: home, workspaceRoot: workspace }).servers;
    const catalogues = new ToolCatalogueStore(home);
    const stored = catalogues.read(server!.entrySha256)!;
    catalogues.write(
      server!.entrySha256,
      server!.name,
      stored.tools.filter((tool) => tool.name !== 'get-sum'),
    );

    const notices: string[] = [];
    const session = await open({ homeDir: home, workspaceRoot: workspace, onNotice: (notice) => notices.push(notice) });
    expect(session.tools.some((tool) => tool.name === 'mcp__everything__get-sum')).toBe(false);
    const echo = toolNamed(session, 'mcp__everything__echo');
    const changed = /MCP server everything changed its tool list; new tools appear in the next session/;
    for (let attempt = 0; attempt < 200 && !notices.some((notice) => changed.test(notice)); attempt += 1) {
      expect((await call(echo, { message: `hello ${attempt}` }, context(workspace))).status).toBe('success');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(notices).toEqual([expect.stringMatching(changed)]);
    expect(session.tools.some((tool) => tool.name === 'mcp__everything__get-sum')).toBe(false);
    expect(catalogues.read(server!.entrySha256)!.tools.some((tool) => tool.name === 'get-sum')).toBe(true);

    const next = await open({ homeDir: home, workspaceRoot: workspace });
    expect(next.tools.some((tool) => tool.name === 'mcp__everything__get-sum')).toBe(true);
  });

  it('leaves no abort listener on the turn’s signal after its calls (the SDK never removes its own)', async () => {
    const home = testdir();
    const workspace = testdir();
    writeMcpConfig(join(home, 'mcp.json'), {
      everything: { command: process.execPath, args: [servers.everything, 'stdio'] },
    });
    const echo = toolNamed(await open({ homeDir: home, workspaceRoot: workspace }), 'mcp__everything__echo');
    const turn = new AbortController();
    for (let index = 0; index < 12; index += 1)
      expect(await call(echo, { message: `call ${index}` }, context(workspace, { signal: turn.signal }))).toMatchObject(
        {
          status: 'success',
        },
      );
    expect(getEventListeners(turn.signal, 'abort')).toHaveLength(0);
  });

  it('gives the server only the minimal environment plus its configured env', async () => {
    const home = testdir();
    writeMcpConfig(join(home, 'mcp.json'), {
      fixture: { command: process.execPath, args: [servers.fixture], env: { API_TOKEN: '${CLAWSMITH_TEST_TOKEN}' } },
    });
    const tools = await open({
      homeDir: home,
      environment: { ...process.env, CLAWSMITH_TEST_TOKEN: 'from-env', SECRET_OF_PARENT: 'x' },
    });
    const result = await call(toolNamed(tools, 'mcp__fixture__environment_names'), {}, context(testdir()));
    const names = result.content.split('\n');
    expect(names).toContain('API_TOKEN');
    expect(names).toContain('PATH');
    expect(names).not.toContain('SECRET_OF_PARENT');
    expect(
      names.filter((name) => !['API_TOKEN', 'HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'].includes(name)),
    ).toEqual([]);
  });
});

describe('openMcpTools and trust', () => {
  it('never starts an untrusted project server, and asks again when its entry changes', async () => {
    const home = testdir();
    const workspace = testdir();
    const marker = join(home, 'started');
    const entry = { command: process.execPath, args: [servers.fixture], env: { STARTED_MARKER: marker } };
    writeMcpConfig(join(workspace, '.clawsmith/mcp.json'), { fixture: entry });

    const untrusted = await open({ homeDir: home, workspaceRoot: workspace });
    expect(untrusted.tools).toEqual([]);
    expect(untrusted.servers()).toEqual([
      expect.objectContaining({ name: 'fixture', scope: 'project', trust: 'untrusted', availability: 'untrusted' }),
    ]);
    await untrusted.close();
    expect(existsSync(marker)).toBe(false);

    const trusted = await trustMcpServer({ homeDir: home, workspaceRoot: workspace, name: 'fixture' });
    expect(trusted.toolCount).toBe(5);
    expect(startedPids(marker)).toHaveLength(1);
    const afterTrust = await open({ homeDir: home, workspaceRoot: workspace });
    expect(afterTrust.tools.map((tool) => tool.name)).toContain('mcp__fixture__slow');
    await afterTrust.close();
    expect(startedPids(marker)).toHaveLength(1);

    writeMcpConfig(join(workspace, '.clawsmith/mcp.json'), {
      fixture: { ...entry, args: [servers.fixture, '--changed'] },
    });
    const changed = await open({ homeDir: home, workspaceRoot: workspace });
    expect(changed.tools).toEqual([]);
    expect(changed.servers()[0]).toMatchObject({ trust: 'changed', availability: 'untrusted' });
    expect(startedPids(marker)).toHaveLength(1);
  });

  it('does not lower the risk of a tool that claims readOnlyHint unless the person trusts the hints', async () => {
    const home = testdir();
    const entry = { command: process.execPath, args: [servers.fixture] };
    writeMcpConfig(join(home, 'mcp.json'), { plain: entry, hinted: { ...entry, trustAnnotations: true } });
    const tools = await open({ homeDir: home });
    expect(toolNamed(tools, 'mcp__plain__claims_read_only')).toMatchObject({ risk: 'execute', concurrencySafe: false });
    expect(toolNamed(tools, 'mcp__hinted__claims_read_only')).toMatchObject({
      risk: 'read',
      capabilities: [],
      concurrencySafe: true,
    });
    expect(toolNamed(tools, 'mcp__hinted__slow')).toMatchObject({ risk: 'execute' });
  });

  it('refuses two servers whose tools map to one name, naming both, and ends what it started', async () => {
    const home = testdir();
    const marker = join(home, 'started');
    const entry = { command: process.execPath, args: [servers.fixture], env: { STARTED_MARKER: marker } };
    writeMcpConfig(join(home, 'mcp.json'), { 'my.fixture': entry, my_fixture: entry });
    await expect(openMcpTools({ homeDir: home })).rejects.toMatchObject({
      code: 'mcp_tool_name_collision',
      message: expect.stringMatching(/tool "\w+" of server "my\.fixture" and tool "\w+" of server "my_fixture"/),
    });
    const pids = startedPids(marker);
    expect(pids).toHaveLength(2);
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
  });
});
