// Test harness: an MCP client (the official SDK's) connected to the BUILT `clawsmith mcp serve`
// over stdio, with a temporary home. Not part of the build.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { onTestFinished } from 'vitest';
import { BIN, childEnvironment } from './cli-harness.js';

/** What {@link connectServe} opens. */
export interface ServeClient {
  readonly client: Client;
  readonly transport: StdioClientTransport;
  /** The pid of the `clawsmith mcp serve` process. */
  readonly pid: number;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** The text of a result's text blocks. */
  text(result: CallToolResult): string;
}

/** Options of {@link connectServe}. */
export interface ConnectServeOptions {
  readonly home: string;
  readonly workspace: string;
  readonly extraArgs?: readonly string[];
  /** Answers approval questions (elicitation) with this decision; without it the client cannot be asked. */
  readonly approve?: 'allow' | 'allow-session' | 'deny';
  readonly name?: string;
  /** Variables added to the server's environment. */
  readonly env?: Record<string, string>;
}

/** Spawns `clawsmith mcp serve --workspace` and connects the SDK client to it; closed after the test. */
export async function connectServe(options: ConnectServeOptions): Promise<ServeClient> {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing; build the package first (nx run @clawsmith/cli:build).`);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', 'serve', '--workspace', options.workspace, ...(options.extraArgs ?? [])],
    env: childEnvironment(options.home, options.env),
    stderr: 'pipe',
  });
  const client = new Client(
    { name: options.name ?? 'serve-test', version: '1.0.0' },
    { capabilities: options.approve ? { elicitation: { form: {} } } : {} },
  );
  if (options.approve) {
    const decision = options.approve;
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { decision } }));
  }
  await client.connect(transport);
  onTestFinished(async () => {
    await client.close().catch(() => undefined);
  });
  const text = (result: CallToolResult) =>
    result.content
      .filter((block): block is { type: 'text'; text: string } => block.type === 'text')
      .map((block) => block.text)
      .join('\n');
  return {
    client,
    transport,
    pid: transport.pid!,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    text,
  };
}

/** Whether a process with this pid exists (and is not a zombie). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Pids of processes whose command line contains `marker` (real pids, read from /proc). */
export function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(marker)) found.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}

/** Resolves once `check` is true, polling every 50 ms; rejects after `timeoutMs` naming `what`. */
export async function waitFor(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
