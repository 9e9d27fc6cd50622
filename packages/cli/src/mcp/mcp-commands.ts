import type { McpServerEntry, McpServerStatus } from '@clawsmith/mcp';
import { resolveClawsmithHome } from '@clawsmith/core';
import { z } from 'zod';
import { resolveWorkspace } from '../commands/agent-runtime.js';
import { EXIT_CODES } from '../exit-codes.js';
import { parseCommandOptions } from '../options/command-options.js';
import { oneLine } from '../terminal/terminal-text.js';

/** Options of the `clawsmith mcp` commands. */
const mcpCommandOptions = z.object({
  home: z.string().optional(),
  workspace: z.string(),
  json: z.boolean().optional(),
});

// Values of env and headers may be secrets (literal or expanded): only their names are shown.
function describeEntry(entry: McpServerEntry): Record<string, unknown> {
  if ('command' in entry && typeof entry.command === 'string') {
    return {
      command: entry.command,
      args: entry.args ?? [],
      ...(entry.env ? { env: Object.keys(entry.env) } : {}),
      ...(entry.cwd ? { cwd: entry.cwd } : {}),
    };
  }
  const http = entry as { url: string; headers?: Record<string, string> };
  return { url: http.url, ...(http.headers ? { headers: Object.keys(http.headers) } : {}) };
}

function line(status: McpServerStatus, entry: Record<string, unknown>): string {
  const target =
    typeof entry.command === 'string'
      ? [entry.command, ...(entry.args as string[])].join(' ')
      : `${String(entry.url)}${Array.isArray(entry.headers) ? ` (headers: ${entry.headers.join(', ')})` : ''}`;
  const env = Array.isArray(entry.env) && entry.env.length > 0 ? ` (env: ${entry.env.join(', ')})` : '';
  const tools = status.availability === 'offered' ? `${status.toolCount} tools` : status.availability;
  const head = `${status.name}  ${status.scope}  ${status.transport}  ${status.trust}  ${tools}`;
  const signIn = signInLine(status);
  return `${head}\n    ${oneLine(target + env, 300)}${signIn ? `\n    ${signIn}` : ''}${status.problem ? `\n    ${oneLine(status.problem, 300)}` : ''}`;
}

// Who is signed in and until when; never a token.
function signInLine(status: McpServerStatus): string | undefined {
  if (status.auth === 'headers') return 'auth: Authorization header from the entry';
  if (status.auth === 'none') return 'auth: none ("oauth": false)';
  const signIn = status.signIn;
  if (status.auth !== 'oauth' || !signIn) return undefined;
  if (!signIn.signedIn) return `auth: OAuth, not signed in (clawsmith mcp login ${status.name})`;
  const expiry = signIn.expiresAt
    ? Date.parse(signIn.expiresAt) > Date.now()
      ? `, access token expires ${signIn.expiresAt}`
      : `, access token expired ${signIn.expiresAt}`
    : '';
  const refresh = signIn.refreshable ? ' (refreshed without asking)' : ' (sign in again then)';
  const scope = signIn.scope ? `, scope ${oneLine(signIn.scope, 120)}` : '';
  return `auth: OAuth, signed in${scope}${expiry}${signIn.expiresAt ? refresh : ''}`;
}

/** `clawsmith mcp list`: every configured server, its trust and tools. Starts nothing. */
export async function mcpListCommand(rawOptions: Record<string, unknown>): Promise<number> {
  const options = parseCommandOptions(mcpCommandOptions, rawOptions, 'mcp list');
  const { openMcpTools } = await import('@clawsmith/mcp');
  const homeDir = resolveClawsmithHome(options.home);
  const workspaceRoot = resolveWorkspace(options.workspace);
  const tools = await openMcpTools({ homeDir, workspaceRoot, discover: false });
  try {
    const entries = new Map(tools.configuration.servers.map((server) => [server.name, describeEntry(server.entry)]));
    for (const status of tools.servers()) {
      const entry = entries.get(status.name) ?? {};
      process.stdout.write(options.json ? `${JSON.stringify({ ...status, ...entry })}\n` : `${line(status, entry)}\n`);
    }
    for (const shadowed of tools.configuration.shadowed) {
      const note = `${shadowed.name} in ${shadowed.file} is shadowed by the entry of the same name above`;
      if (!options.json) process.stdout.write(`(${note})\n`);
    }
    for (const problem of tools.configuration.problems)
      process.stderr.write(
        `clawsmith: ${problem.file}${problem.server ? ` (${problem.server})` : ''}: ${problem.message}\n`,
      );
    if (!options.json && tools.servers().length === 0)
      process.stdout.write('No MCP servers configured (files: <home>/mcp.json, .clawsmith/mcp.json, .mcp.json).\n');
  } finally {
    await tools.close();
  }
  return EXIT_CODES.ok;
}

/** `clawsmith mcp trust NAME`: trust this exact project entry, then list its tools once. */
export async function mcpTrustCommand(
  rawOptions: Record<string, unknown>,
  _command: unknown,
  name: string,
): Promise<number> {
  const options = parseCommandOptions(mcpCommandOptions, rawOptions, 'mcp trust');
  const { trustMcpServer } = await import('@clawsmith/mcp');
  const workspaceRoot = resolveWorkspace(options.workspace);
  const result = await trustMcpServer({ homeDir: resolveClawsmithHome(options.home), workspaceRoot, name });
  process.stdout.write(`Trusted ${name} (${result.server.file}) in ${workspaceRoot}.\n`);
  if (result.toolCount !== undefined) process.stdout.write(`It offers ${result.toolCount} tools.\n`);
  else process.stderr.write(`clawsmith: its tools could not be listed yet: ${oneLine(result.problem ?? '', 500)}\n`);
  return EXIT_CODES.ok;
}

/** `clawsmith mcp untrust NAME`: forget trust in a project server; it will not start again. */
export async function mcpUntrustCommand(
  rawOptions: Record<string, unknown>,
  _command: unknown,
  name: string,
): Promise<number> {
  const options = parseCommandOptions(mcpCommandOptions, rawOptions, 'mcp untrust');
  const { untrustMcpServer } = await import('@clawsmith/mcp');
  const workspaceRoot = resolveWorkspace(options.workspace);
  const removed = untrustMcpServer({ homeDir: resolveClawsmithHome(options.home), workspaceRoot, name });
  process.stdout.write(removed ? `${name} is no longer trusted in ${workspaceRoot}.\n` : `${name} was not trusted.\n`);
  return EXIT_CODES.ok;
}

/** Options of `clawsmith mcp login`. */
const mcpLoginOptions = mcpCommandOptions.extend({ browser: z.boolean().optional() });

// The person's browser: $BROWSER when set, else the desktop's opener. Failing to start one is
// fine: the URL is printed either way.
function openBrowser(url: string): void {
  const command =
    process.env.BROWSER ??
    (process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open');
  void import('node:child_process').then(({ spawn }) => {
    try {
      const child = spawn(command, [url], { detached: true, stdio: 'ignore' });
      child.on('error', () => undefined);
      child.unref();
    } catch {
      // no browser here: the printed URL is the way
    }
  });
}

/** `clawsmith mcp login NAME`: sign in to a remote server with OAuth in a browser. */
export async function mcpLoginCommand(
  rawOptions: Record<string, unknown>,
  _command: unknown,
  name: string,
): Promise<number> {
  const options = parseCommandOptions(mcpLoginOptions, rawOptions, 'mcp login');
  const { signInToMcpServer } = await import('@clawsmith/mcp');
  const homeDir = resolveClawsmithHome(options.home);
  const workspaceRoot = resolveWorkspace(options.workspace);
  const stop = new AbortController();
  const onInterrupt = () => stop.abort(new Error('The sign-in was interrupted.'));
  process.once('SIGINT', onInterrupt);
  try {
    const result = await signInToMcpServer({
      homeDir,
      workspaceRoot,
      name,
      signal: stop.signal,
      openAuthorizationUrl: (url) => {
        process.stderr.write(
          `To sign in to ${name}, open this URL in a browser on this machine (it returns to 127.0.0.1):\n${url.href}\n`,
        );
        if (options.browser !== false) openBrowser(url.href);
      },
    });
    if (!result.signInNeeded) process.stdout.write(`${name} did not ask for a sign-in; nothing was stored.\n`);
    else {
      const expiry = result.status.expiresAt ? `; the access token expires ${result.status.expiresAt}` : '';
      const refresh = result.status.refreshable ? ' and is refreshed without asking' : '';
      process.stdout.write(`Signed in to ${name}${expiry}${expiry ? refresh : ''}.\n`);
    }
    if (result.toolCount !== undefined) process.stdout.write(`It offers ${result.toolCount} tools.\n`);
    else process.stderr.write(`clawsmith: its tools could not be listed yet: ${oneLine(result.problem ?? '', 500)}\n`);
    return EXIT_CODES.ok;
  } finally {
    process.off('SIGINT', onInterrupt);
  }
}

/** Options of `clawsmith mcp logout`: the home only (sign-ins are kept there, not per workspace). */
const mcpLogoutOptions = z.object({ home: z.string().optional() });

/** `clawsmith mcp logout NAME`: forget the stored sign-in of a remote server. */
export async function mcpLogoutCommand(
  rawOptions: Record<string, unknown>,
  _command: unknown,
  name: string,
): Promise<number> {
  const options = parseCommandOptions(mcpLogoutOptions, rawOptions, 'mcp logout');
  const { signOutOfMcpServer } = await import('@clawsmith/mcp');
  const removed = signOutOfMcpServer({ homeDir: resolveClawsmithHome(options.home), name });
  process.stdout.write(
    removed > 0 ? `Signed out of ${name}; its tokens are deleted.\n` : `${name} had no stored sign-in.\n`,
  );
  return EXIT_CODES.ok;
}
