import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { writeMcpConfig } from './__fixtures__/mcp-servers.js';
import { expandReferences } from './environment-references.js';
import { EDITOR_CONFIGURATION, loadMcpConfiguration } from './mcp-configuration.js';
import { McpTrustStore } from './trust-store.js';

describe('loadMcpConfiguration', () => {
  it('reads the user file and both project files; the user file wins, then .clawsmith/mcp.json', () => {
    const home = testdir();
    const workspace = testdir({
      '.mcp.json': JSON.stringify({ mcpServers: { shared: { url: 'http://x/' }, legacy: { command: 'b' } } }),
    });
    writeMcpConfig(join(home, 'mcp.json'), { mine: { command: 'a' }, shared: { command: 'user-version' } });
    writeMcpConfig(join(workspace, '.clawsmith/mcp.json'), { legacy: { command: 'preferred' } });
    const configuration = loadMcpConfiguration({ homeDir: home, workspaceRoot: workspace });
    expect(configuration.servers.map((server) => [server.name, server.scope, server.entry])).toEqual([
      ['mine', 'user', { command: 'a' }],
      ['shared', 'user', { command: 'user-version' }],
      ['legacy', 'project', { command: 'preferred' }],
    ]);
    expect(configuration.shadowed.map((server) => [server.name, server.file])).toEqual([
      ['shared', join(workspace, '.mcp.json')],
      ['legacy', join(workspace, '.mcp.json')],
    ]);
    expect(configuration.problems).toEqual([]);
  });

  it('leaves out a file that is not JSON and an entry without command or url, and says why', () => {
    const home = testdir({ 'mcp.json': '{ not json' });
    const workspace = testdir({
      '.mcp.json': JSON.stringify({ mcpServers: { broken: { args: ['x'] }, fine: { command: 'ok', args: ['1'] } } }),
    });
    const configuration = loadMcpConfiguration({ homeDir: home, workspaceRoot: workspace });
    expect(configuration.servers.map((server) => server.name)).toEqual(['fine']);
    expect(configuration.problems).toHaveLength(2);
    expect(configuration.problems[0]?.message).toMatch(/not JSON/);
    expect(configuration.problems[1]).toMatchObject({ server: 'broken' });
    expect(configuration.problems[1]?.message).toMatch(/needs "command" \(stdio\) or "url" \(HTTP\)/);
  });

  it('puts the editor’s servers first, trusted as the person’s own, and says why a bad one is left out', () => {
    const home = testdir();
    const workspace = testdir({ '.mcp.json': JSON.stringify({ mcpServers: { repo: { command: 'from-repo' } } }) });
    writeMcpConfig(join(home, 'mcp.json'), { shared: { command: 'user-version' } });
    const configuration = loadMcpConfiguration({
      homeDir: home,
      workspaceRoot: workspace,
      editorServers: [
        { name: 'shared', entry: { command: 'editor-version', args: ['--stdio'] } },
        { name: 'repo', entry: { command: 'editor-repo' } },
        { name: 'broken', entry: { args: ['x'] } as never },
      ],
    });
    expect(configuration.servers.map((server) => [server.name, server.scope, server.file, server.entry])).toEqual([
      ['shared', 'editor', EDITOR_CONFIGURATION, { command: 'editor-version', args: ['--stdio'] }],
      ['repo', 'editor', EDITOR_CONFIGURATION, { command: 'editor-repo' }],
    ]);
    expect(configuration.shadowed.map((server) => [server.name, server.scope])).toEqual([
      ['shared', 'user'],
      ['repo', 'project'],
    ]);
    expect(configuration.problems).toEqual([
      {
        file: EDITOR_CONFIGURATION,
        server: 'broken',
        message: expect.stringMatching(/needs "command" \(stdio\) or "url" \(HTTP\)/),
      },
    ]);
    const store = new McpTrustStore(home);
    expect(configuration.servers.map((server) => store.stateOf(server, workspace))).toEqual(['user', 'user']);
  });

  it('hashes the entry as written, whatever its key order, and differently once it changes', () => {
    const home = testdir();
    const first = testdir({ '.mcp.json': '{"mcpServers":{"s":{"command":"c","args":["1"]}}}' });
    const reordered = testdir({ '.mcp.json': '{"mcpServers":{"s":{"args":["1"],"command":"c"}}}' });
    const changed = testdir({ '.mcp.json': '{"mcpServers":{"s":{"args":["2"],"command":"c"}}}' });
    const sha = (workspace: string) =>
      loadMcpConfiguration({ homeDir: home, workspaceRoot: workspace }).servers[0]?.entrySha256;
    expect(sha(first)).toBe(sha(reordered));
    expect(sha(first)).not.toBe(sha(changed));
  });
});

describe('McpTrustStore', () => {
  it('trusts a project entry only in its exact form, in that workspace, and forgets it on untrust', () => {
    const home = testdir();
    const workspace = testdir();
    writeMcpConfig(join(workspace, '.mcp.json'), { s: { command: 'c', env: { TOKEN: '${TOKEN}' } } });
    const store = new McpTrustStore(home);
    const server = () => loadMcpConfiguration({ homeDir: home, workspaceRoot: workspace }).servers[0]!;
    expect(store.stateOf(server(), workspace)).toBe('untrusted');
    store.trust(server(), workspace);
    expect(store.stateOf(server(), workspace)).toBe('trusted');
    expect(store.stateOf(server(), testdir())).toBe('untrusted');
    writeMcpConfig(join(workspace, '.mcp.json'), { s: { command: 'c', env: { TOKEN: '${OTHER}' } } });
    expect(store.stateOf(server(), workspace)).toBe('changed');
    expect(store.untrust('s', workspace)).toBe(true);
    expect(store.untrust('s', workspace)).toBe(false);
    expect(store.stateOf(server(), workspace)).toBe('untrusted');
  });

  it('trusts nothing when its file is unreadable (fails closed)', () => {
    const workspace = testdir();
    writeMcpConfig(join(workspace, '.mcp.json'), { s: { command: 'c' } });
    const home = testdir({ 'mcp/trust.json': '{ broken' });
    const server = loadMcpConfiguration({ homeDir: home, workspaceRoot: workspace }).servers[0]!;
    expect(new McpTrustStore(home).stateOf(server, workspace)).toBe('untrusted');
  });
});

describe('expandReferences', () => {
  it('expands ${VAR} and ${VAR:-default}; a missing variable names itself and the server, never a value', () => {
    expect(expandReferences('Bearer ${TOKEN}', { TOKEN: 's3cret' }, 'api')).toBe('Bearer s3cret');
    expect(expandReferences('${MISSING:-fallback}', {}, 'api')).toBe('fallback');
    expect(() => expandReferences('${MISSING}', { TOKEN: 's3cret' }, 'api')).toThrowError(
      expect.objectContaining({
        code: 'mcp_env_missing',
        message: expect.stringMatching(/"api" refers to \$\{MISSING\}/),
      }),
    );
  });
});
