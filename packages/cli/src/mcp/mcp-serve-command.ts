import { z } from 'zod';
import { EXIT_CODES } from '../exit-codes.js';
import { openAgentRuntime, resolveWorkspace } from '../commands/agent-runtime.js';
import { entryExtensions } from '../extensions/extensions-composition.js';
import { coreServedWorkspace } from './core-served-workspace.js';
import {
  parseCommandOptions,
  permissionModeOption,
  repeatedOption,
  settingsFlagsShape,
} from '../options/command-options.js';

/** Options of `clawsmith mcp serve`. */
const mcpServeOptions = z.object({
  ...settingsFlagsShape,
  home: z.string().optional(),
  workspace: z.string(),
  permissionMode: permissionModeOption,
  http: z.boolean().optional(),
  port: z.string(),
  allowedHost: repeatedOption.optional(),
});

/**
 * `clawsmith mcp serve`: clawsmith's tools for an MCP client, over stdio (one connection: the
 * client that launched this process) or Streamable HTTP on 127.0.0.1 (`--http`). Stdout belongs
 * to the protocol in stdio mode: everything else goes to stderr.
 */
export async function mcpServeCommand(rawOptions: Record<string, unknown>): Promise<number> {
  const options = parseCommandOptions(mcpServeOptions, rawOptions, 'mcp serve');
  const workspaceRoot = resolveWorkspace(options.workspace);
  const runtime = await openAgentRuntime({
    home: options.home,
    permissionMode: options.permissionMode,
    extensions: entryExtensions(workspaceRoot),
    settings: {
      workspaceRoot,
      flags: options,
      onNotice: (notice) => process.stderr.write(`clawsmith: ${notice}\n`),
    },
  });
  const workspace = coreServedWorkspace(runtime, workspaceRoot, options.permissionMode);
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    if (options.http) {
      const { serveHttp } = await import('./mcp-serve-http.js');
      await serveHttp({ workspace, port: options.port, allowedHosts: options.allowedHost ?? [], stop: stop.signal });
    } else {
      const { serveMcpOverStdio } = await import('@clawsmith/mcp');
      await serveMcpOverStdio({ workspace, stop: stop.signal });
    }
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await runtime.close();
  }
  return EXIT_CODES.ok;
}
