import { Readable, Writable } from 'node:stream';
import { ndJsonStream } from '@agentclientprotocol/sdk';
import type { EditorMcpServer } from '@clawsmith/mcp';
import { ClawsmithError } from '@clawsmith/tool-protocol';
import { z } from 'zod';
import { EXIT_CODES } from '../exit-codes.js';
import { cliPackageFile } from '../package-files.js';
import { openAgentRuntime, resolveWorkspace } from '../commands/agent-runtime.js';
import { selectProvider } from '../commands/provider-selection.js';
import { entryExtensions } from '../extensions/extensions-composition.js';
import {
  parseCommandOptions,
  permissionModeOption,
  providerOption,
  settingsFlagsShape,
} from '../options/command-options.js';
import { createAcpAgent, type AcpAgent } from './acp-agent.js';

/** Options of `clawsmith acp`. */
const acpOptions = z.object({
  ...settingsFlagsShape,
  home: z.string().optional(),
  workspace: z.string().optional(),
  script: z.string().optional(),
  provider: providerOption.optional(),
  model: z.string().optional(),
  permissionMode: permissionModeOption,
  systemPrompt: z.string().optional(),
  appendSystemPrompt: z.string().optional(),
});
type AcpOptions = z.output<typeof acpOptions>;

const KEY_VARIABLES = { openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY' } as const;

async function packageVersion(): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  try {
    return (JSON.parse(await readFile(cliPackageFile('package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

/** The provider, or the variable whose missing key keeps turns from running (sessions still open and load). */
async function providerOrMissingKey(options: AcpOptions) {
  try {
    return { provider: await selectProvider(options) };
  } catch (error) {
    if (ClawsmithError.isInstance(error) && error.code === 'provider_missing_api_key' && options.provider)
      return { missingKeyVariable: KEY_VARIABLES[options.provider] };
    throw error;
  }
}

/**
 * `clawsmith acp`: clawsmith as the agent of an editor that speaks the Agent Client Protocol, over
 * this process's stdin and stdout (stdout belongs to the protocol; notices go to stderr). Ends
 * when the editor closes stdin: running turns are cancelled (their calls closed, their process
 * trees killed) and recorded before the process exits.
 */
export async function acpCommand(rawOptions: Record<string, unknown>): Promise<number> {
  const options = parseCommandOptions(acpOptions, rawOptions, 'acp');
  const workspace = options.workspace === undefined ? undefined : resolveWorkspace(options.workspace);
  const { provider, missingKeyVariable } = await providerOrMissingKey(options);
  let acp: AcpAgent | undefined;
  const onNotice = (notice: string) => process.stderr.write(`clawsmith: ${notice}\n`);
  // The connection's runtime, and (same options) one per session whose editor configured MCP servers.
  const openRuntime = (workspaceRoot: string | undefined, editorServers?: readonly EditorMcpServer[]) =>
    openAgentRuntime({
      home: options.home,
      ...(provider ? { provider } : {}),
      permissionMode: options.permissionMode,
      approvalHandler: (request, signal) => {
        if (!acp) throw new Error('the editor connection is not open yet');
        return acp.approve(request, signal);
      },
      mcp: {
        ...(workspaceRoot ? { workspaceRoot } : {}),
        ...(editorServers ? { editorServers } : {}),
        onNotice,
        onElicitation: (request) => {
          if (!acp) throw new Error('the editor connection is not open yet');
          return acp.elicit(request);
        },
      },
      extensions: entryExtensions(workspaceRoot),
      // Sessions of the folders the editor opens: each turn reads its session's workspace settings.
      settings: { workspaceRoot: workspace ?? process.cwd(), flags: options, perSession: true, onNotice },
    });
  const runtime = await openRuntime(workspace);
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    acp = createAcpAgent({
      runtime,
      version: await packageVersion(),
      ...(workspace ? { workspace } : {}),
      permissionMode: options.permissionMode,
      systemPrompt: {
        ...(options.systemPrompt ? { systemPrompt: options.systemPrompt } : {}),
        ...(options.appendSystemPrompt ? { appendSystemPrompt: options.appendSystemPrompt } : {}),
      },
      ...(missingKeyVariable ? { missingKeyVariable } : {}),
      openSessionRuntime: (workspaceRoot, servers) => openRuntime(workspaceRoot, servers),
      onNotice,
    });
    const stream = ndJsonStream(
      Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
      Readable.toWeb(process.stdin) as unknown as ReadableStream<Uint8Array>,
    );
    const connection = acp.app.connect(stream);
    stop.signal.addEventListener('abort', () => connection.close(), { once: true });
    await connection.closed.catch(() => undefined);
    await acp.cancelAll();
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await runtime.close();
  }
  return EXIT_CODES.ok;
}
