import { testdir } from '@clawsmith/test-utils';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { builtinServers } from './builtin-servers.js';
import { LspError } from './lsp-error.js';
import { resolveServers, workspaceCommandFingerprint } from './server-config.js';

function failure(run: () => unknown): { code: string; message: string } {
  try {
    run();
  } catch (error) {
    if (LspError.isInstance(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a failure');
}

const require = createRequire(import.meta.url);
const RUST = { command: 'rust-analyzer', extensions: { '.rs': 'rust' } };

describe(resolveServers, () => {
  it('keeps the built-ins, adds home servers, and lets the workspace tune or disable them', () => {
    const home = testdir({ 'lsp.json': JSON.stringify({ servers: { rust: RUST } }) });
    const workspace = testdir({
      '.clawsmith/lsp.json': JSON.stringify({
        servers: { python: { disabled: true }, typescript: { initializationOptions: { hostInfo: 'test' } } },
      }),
    });
    const servers = resolveServers(builtinServers(), { home, workspaceRoot: workspace, trusted: true });
    expect(servers.map((server) => server.id)).toEqual(['typescript', 'rust']);
    expect(servers[0]!.initializationOptions).toEqual({
      hostInfo: 'test',
      tsserver: { fallbackPath: require.resolve('typescript/lib/tsserver.js') },
    });
    expect(servers[1]!.command()).toEqual({ command: 'rust-analyzer', args: [] });
    expect(servers[1]!.languages).toEqual({ '.rs': 'rust' });
  });

  it('refuses a workspace that chooses a command until the home trusts its fingerprint', () => {
    const workspace = testdir({ '.clawsmith/lsp.json': JSON.stringify({ servers: { rust: RUST } }) });
    const fingerprint = workspaceCommandFingerprint(workspace, 'rust', RUST);
    const home = testdir({});
    const refused = failure(() => resolveServers(builtinServers(), { home, workspaceRoot: workspace }));
    expect(refused.code).toBe('lsp_invalid_config');
    expect(refused.message).toContain(`add "${fingerprint}" to "trustedWorkspaceCommands" in the home's lsp.json`);

    const trusting = testdir({ 'lsp.json': JSON.stringify({ trustedWorkspaceCommands: [fingerprint] }) });
    const servers = resolveServers(builtinServers(), { home: trusting, workspaceRoot: workspace });
    expect(servers.find((server) => server.id === 'rust')?.command()).toEqual({ command: 'rust-analyzer', args: [] });

    // The fingerprint binds the workspace folder: the same file elsewhere is refused again.
    const elsewhere = testdir({ '.clawsmith/lsp.json': JSON.stringify({ servers: { rust: RUST } }) });
    expect(failure(() => resolveServers(builtinServers(), { home: trusting, workspaceRoot: elsewhere })).code).toBe(
      'lsp_invalid_config',
    );
  });

  it("ignores an untrusted workspace's initializationOptions and pins our own tsserver", () => {
    const workspace = testdir({
      '.clawsmith/lsp.json': JSON.stringify({
        servers: {
          typescript: {
            initializationOptions: {
              tsserver: { path: 'node_modules/typescript/lib' },
              plugins: [{ name: 'p', location: '.' }],
            },
          },
        },
      }),
    });
    const ignored: string[] = [];
    const [typescript] = resolveServers(builtinServers(), {
      workspaceRoot: workspace,
      onIgnored: (note) => ignored.push(note),
    });
    expect(typescript!.initializationOptions).toEqual({
      tsserver: { path: require.resolve('typescript/lib/tsserver.js'), useSyntaxServer: 'never' },
      disableAutomaticTypingAcquisition: true,
      preferences: { includeCompletionsForModuleExports: false },
    });
    expect(ignored).toEqual([
      'The initializationOptions of "typescript" in .clawsmith/lsp.json were ignored: this workspace\'s language tooling is not trusted.',
    ]);

    // The home's choices are the person's: an absolute path outside the workspace is kept, a relative one is not.
    const home = testdir({
      'lsp.json': JSON.stringify({
        servers: {
          typescript: {
            initializationOptions: {
              tsserver: { path: '/opt/ts/lib/tsserver.js' },
              plugins: [
                { name: 'a', location: '/opt/p' },
                { name: 'b', location: 'here' },
              ],
            },
          },
        },
      }),
    });
    const [fromHome] = resolveServers(builtinServers(), { home, workspaceRoot: testdir({}) });
    expect(fromHome!.initializationOptions).toEqual({
      tsserver: { path: '/opt/ts/lib/tsserver.js' },
      plugins: [{ name: 'a', location: '/opt/p' }],
    });
  });

  it('names the file and the field of an unusable configuration', () => {
    const workspace = testdir({ '.clawsmith/lsp.json': '{ "servers": ' });
    expect(failure(() => resolveServers(builtinServers(), { workspaceRoot: workspace })).message).toBe(
      `${workspace}/.clawsmith/lsp.json is not valid JSON; fix it or remove it.`,
    );
    const home = testdir({
      'lsp.json': JSON.stringify({ servers: { rust: { command: 'x', extensions: { rs: 'rust' } } } }),
    });
    expect(failure(() => resolveServers(builtinServers(), { home, workspaceRoot: testdir({}) })).message).toBe(
      `${home}/lsp.json is not a valid lsp configuration: servers.rust.extensions.rs: an extension starts with a dot, like ".rs".`,
    );
    const noExtensions = testdir({ 'lsp.json': JSON.stringify({ servers: { rust: { command: 'rust-analyzer' } } }) });
    expect(
      failure(() => resolveServers(builtinServers(), { home: noExtensions, workspaceRoot: testdir({}) })).message,
    ).toBe('The lsp server "rust" has no "extensions"; give it a map like {".rs": "rust"}.');
  });
});
