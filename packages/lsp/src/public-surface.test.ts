import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('@clawsmith/lsp public surface', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(api).sort()).toEqual([
      'DEFAULT_LSP_LIMITS',
      'HOME_CONFIG_FILE',
      'LANGUAGE_TOOLING_FILES',
      'LOCAL_TYPESCRIPT_FOLDERS',
      'LSP_ERROR_CODES',
      'LanguageToolingTrustStore',
      'LspError',
      'LspService',
      'PINNED_SERVER_PACKAGES',
      'SERVER_ENVIRONMENT_KEYS',
      'WORKSPACE_CONFIG_PATH',
      'builtinServers',
      'createLspService',
      'createLspTools',
      'languageToolingFingerprint',
      'readLspConfig',
      'resolveServers',
      'serverEnvironment',
      'workspaceCommandFingerprint',
    ]);
  });

  it('pins the error codes, limits, pinned servers and configuration paths', () => {
    expect(api.LSP_ERROR_CODES).toEqual({
      serverUnavailable: 'lsp_server_unavailable',
      serverNotInstalled: 'lsp_server_not_installed',
      noServer: 'lsp_no_server',
      requestTimeout: 'lsp_request_timeout',
      requestFailed: 'lsp_request_failed',
      invalidConfig: 'lsp_invalid_config',
      pathOutsideWorkspace: 'path_outside_workspace',
      fileNotFound: 'file_not_found',
      invalidPosition: 'lsp_invalid_position',
      noChangedFiles: 'lsp_no_changed_files',
    });
    expect(api.DEFAULT_LSP_LIMITS).toEqual({
      maxDiagnostics: 100,
      defaultReferences: 50,
      maxReferences: 200,
      maxSymbols: 200,
      maxHoverCharacters: 4000,
      maxChangedFiles: 20,
      maxOpenDocuments: 100,
      startTimeoutMs: 60000,
      requestTimeoutMs: 60000,
      diagnosticsWaitMs: 5000,
      restartDelayMs: 250,
      maxRestartDelayMs: 30000,
      stopTimeoutMs: 1000,
    });
    expect(api.PINNED_SERVER_PACKAGES).toEqual({
      'typescript-language-server': '5.3.0',
      typescript: '5.9.3',
      pyright: '1.1.414',
    });
    expect([api.HOME_CONFIG_FILE, api.WORKSPACE_CONFIG_PATH]).toEqual(['lsp.json', '.clawsmith/lsp.json']);
    expect(api.SERVER_ENVIRONMENT_KEYS).toEqual(['PATH', 'HOME', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TMPDIR', 'SYSTEMROOT']);
  });

  it('declares five deferred, read-only, concurrency-safe tools', () => {
    const tools = api.createLspTools(api.createLspService());
    expect(tools.map((tool) => [tool.name, tool.risk, tool.deferred, tool.concurrencySafe, tool.capabilities])).toEqual(
      ['lsp_diagnostics', 'lsp_definition', 'lsp_references', 'lsp_hover', 'lsp_symbols'].map((name) => [
        name,
        'read',
        true,
        true,
        ['filesystem.read'],
      ]),
    );
  });

  it('pins the server versions in package.json to PINNED_SERVER_PACKAGES', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      peerDependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    for (const [name, version] of Object.entries(api.PINNED_SERVER_PACKAGES)) {
      expect([name, manifest.peerDependencies[name], manifest.devDependencies[name]]).toEqual([name, version, version]);
    }
  });
});
