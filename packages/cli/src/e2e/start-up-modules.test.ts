// What the built `clawsmith` loads to start a command: every start of the command (and every
// end-to-end test) compiles what it loads. The probe is a module hook (`--import` of
// __fixtures__/record-loaded-modules.mjs) that lists the files loaded; which packages a bundle file
// holds is read from the `// ../../node_modules/<package>/…` comments esbuild writes before each
// module's code.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { BIN, runCli, writeScript } from './cli-harness.js';
import { connectServe } from './mcp-serve-harness.js';

const RECORDER = fileURLToPath(new URL('./__fixtures__/record-loaded-modules.mjs', import.meta.url));
const FUNCTION_RECORDER = fileURLToPath(new URL('./__fixtures__/record-compiled-functions.mjs', import.meta.url));
const BUNDLE_FOLDER = dirname(BIN);
const BUNDLED_MODULE = /^\/\/ (?:\.\.\/)+node_modules\/((?:@[^/\n]+\/)?[^/\n]+)\/(.*)$/gm;

// The modules of this repository's packages are `// ../<package>/dist/…` (the cli's own have no comment).
const BUNDLED_WORKSPACE_MODULE = /^\/\/ (?:\.\.\/)+([a-z-]+)\/dist\/(.*)$/gm;

/** The bundled modules of `files`, as `package/path inside it`. */
function bundledModules(files: readonly string[]): string[] {
  return files.flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(BUNDLED_MODULE)].map(([, name, path]) => `${name}/${path}`),
  );
}

/** The modules of workspace packages bundled in `files`, as `package/path inside its dist`. */
function bundledWorkspaceModules(files: readonly string[]): string[] {
  return files.flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(BUNDLED_WORKSPACE_MODULE)].map(([, name, path]) => `${name}/${path}`),
  );
}

/**
 * Runs `clawsmith run` of a one-write script in `workspace`; the bundle files it loaded and the
 * functions it compiled from source text.
 */
async function filesLoadedByRun(
  workspace: string,
): Promise<{ stderr: string; files: string[]; compiledFunctions: string[] }> {
  const home = testdir();
  const log = join(home, 'loaded-modules.txt');
  const functionLog = join(home, 'compiled-functions.txt');
  writeFileSync(log, '');
  writeFileSync(functionLog, '');
  const script = writeScript(home, [
    { toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'written\n' } }] },
    { text: 'done' },
  ]);
  const run = await runCli(['run', '--json', '--permission-mode', 'accept-edits', '--script', script, 'go'], {
    home,
    cwd: workspace,
    env: {
      NODE_OPTIONS: `--import=${RECORDER} --import=${FUNCTION_RECORDER}`,
      CLAWSMITH_TEST_MODULE_LOG: log,
      CLAWSMITH_TEST_FUNCTION_LOG: functionLog,
    },
  });
  expect(run.code, run.stderr).toBe(0);
  const compiledFunctions = readFileSync(functionLog, 'utf8').split('\n').filter(Boolean);
  return { stderr: run.stderr, files: bundleFilesIn(log), compiledFunctions };
}

/** The bundle files a module log of the recorder names, each once. */
function bundleFilesIn(log: string): string[] {
  const files = readFileSync(log, 'utf8')
    .split('\n')
    .filter((url) => url.startsWith('file:'))
    .map((url) => fileURLToPath(url))
    .filter((file) => file.startsWith(`${BUNDLE_FOLDER}/`));
  return [...new Set(files)];
}

const loadsMcpSdk = (files: readonly string[]) =>
  bundledModules(files).some((module) => module.startsWith('@modelcontextprotocol/sdk/'));
const loadsLanguageServerProtocol = (files: readonly string[]) =>
  bundledModules(files).some((module) =>
    /^vscode-(jsonrpc|languageserver-protocol|languageserver-types)\//.test(module),
  );

// One run in a workspace that configures nothing, read by every test that needs one: a start of
// the command costs a few tenths of a processor-second.
let plainWorkspaceRun: ReturnType<typeof filesLoadedByRun> | undefined;
const runInPlainWorkspace = () => (plainWorkspaceRun ??= filesLoadedByRun(testdir({ 'README.md': '# a workspace\n' })));

describe('what the clawsmith command loads', { timeout: 120_000 }, () => {
  it('runs a turn without the MCP client and SDK when no MCP server is configured, and without the language-server protocol when no server starts', async () => {
    const { files } = await runInPlainWorkspace();
    expect(files).toContain(BIN);
    // The probe sees bundled packages: zod is in every turn, and so are the lsp tools themselves.
    expect(bundledModules(files).some((module) => module.startsWith('zod/'))).toBe(true);
    expect(bundledWorkspaceModules(files)).toContain('lsp/create-lsp-tools.js');
    expect(loadsMcpSdk(files)).toBe(false);
    expect(loadsLanguageServerProtocol(files)).toBe(false);
  });

  it('runs a turn from one-byte files only (no character above U+00FF, which makes V8 hold a file as two-byte text)', async () => {
    const { files } = await runInPlainWorkspace();
    const twoByte = files.filter((file) => /[\u0100-\u{10ffff}]/u.test(readFileSync(file, 'utf8')));
    expect(twoByte).toEqual([]);
  });

  it('runs a turn without compiling a parser for any zod schema (a command that runs once interprets them)', async () => {
    const { compiledFunctions } = await runInPlainWorkspace();
    expect(compiledFunctions).toEqual([]);
  });

  it('loads them once the workspace configures a server (an untrusted one is still not started)', async () => {
    const workspace = testdir({
      '.mcp.json': JSON.stringify({ mcpServers: { repo: { command: process.execPath, args: ['-e', '0'] } } }),
    });
    const { stderr, files } = await filesLoadedByRun(workspace);
    expect(stderr).toContain('clawsmith mcp trust repo');
    expect(loadsMcpSdk(files)).toBe(true);
  });

  it('serves MCP over stdio without the Streamable HTTP transport and its HTTP adapter', async () => {
    const home = testdir();
    const log = join(home, 'loaded-modules.txt');
    writeFileSync(log, '');
    const serve = await connectServe({
      home,
      workspace: testdir({ 'README.md': '# a workspace\n' }),
      env: { NODE_OPTIONS: `--import=${RECORDER}`, CLAWSMITH_TEST_MODULE_LOG: log },
    });
    const { tools } = await serve.client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('read_file');
    const modules = bundledModules(bundleFilesIn(log));
    expect(modules.some((module) => module.startsWith('@modelcontextprotocol/sdk/dist/esm/server/'))).toBe(true);
    expect(
      modules.filter((module) => module.startsWith('@hono/') || module.includes('/server/streamableHttp.js')),
    ).toEqual([]);
  });

  it("bundles zod's English messages and none of its other locales", () => {
    const bundleFiles = [
      BIN,
      ...readdirSync(join(BUNDLE_FOLDER, 'chunks'))
        .filter((name) => name.endsWith('.js'))
        .map((name) => join(BUNDLE_FOLDER, 'chunks', name)),
    ];
    const locales = new Set(
      bundledModules(bundleFiles)
        .filter((module) => module.startsWith('zod/v4/locales/'))
        .map((module) => module.slice('zod/v4/locales/'.length)),
    );
    expect([...locales]).toEqual(['en.js']);
  });
});
