import type { SessionEvent, TurnResult } from '@clawsmith/core';
import { z } from 'zod';
import { CliError } from '../cli-errors.js';
import { entryExtensions } from '../extensions/extensions-composition.js';
import { EXIT_CODES } from '../exit-codes.js';
import { oneLine } from '../terminal/terminal-text.js';
import { terminalStyle } from '../terminal/terminal-style.js';
import { TranscriptPrinter } from '../terminal/transcript-printer.js';
import { explicitWorkspace, openAgentRuntime, openOrCreateSession, resolveWorkspace } from './agent-runtime.js';
import { isScriptProvider, scriptExhaustionNote, selectProvider } from './provider-selection.js';
import { selectContext } from './context-options.js';
import { selectSubagents } from './subagent-options.js';
import { selectNetwork } from './network-options.js';
import {
  parseCommandOptions,
  permissionModeOption,
  providerOption,
  settingsFlagsShape,
} from '../options/command-options.js';

/** The schema of `clawsmith run`'s options (`chat` takes the same but `--json`). */
export const runOptions = z.object({
  ...settingsFlagsShape,
  networkAllow: z.string().optional(),
  webFetchAllow: z.string().optional(),
  webFetchDeny: z.string().optional(),
  allowPrivateNetwork: z.string().optional(),
  home: z.string().optional(),
  workspace: z.string(),
  script: z.string().optional(),
  provider: providerOption.optional(),
  model: z.string().optional(),
  session: z.string().optional(),
  permissionMode: permissionModeOption,
  json: z.boolean().optional(),
  systemPrompt: z.string().optional(),
  appendSystemPrompt: z.string().optional(),
  subagentModel: z.string().optional(),
  subagentMaxSteps: z.string().optional(),
  traceparent: z.string().optional(),
  contextWindow: z.string().optional(),
  maxTurnTokens: z.string().optional(),
  maxSessionTokens: z.string().optional(),
});
/** Options of `clawsmith run`. */
export type RunOptions = z.output<typeof runOptions>;

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function promptOf(argument: string | undefined): Promise<string> {
  const prompt = argument ?? (process.stdin.isTTY ? '' : await readStdin());
  if (prompt.trim() === '') {
    throw new CliError(
      'prompt_required',
      'No prompt: pass it as an argument (clawsmith run "fix the tests") or pipe it on stdin.',
      EXIT_CODES.usage,
    );
  }
  return prompt.trim();
}

/** `clawsmith run [prompt]`: one turn, then exit 0 when it completed and 1 (with a message on stderr) otherwise. */
export async function runTurnCommand(
  rawOptions: Record<string, unknown>,
  command: unknown,
  promptArgument?: string,
): Promise<number> {
  const options = parseCommandOptions(runOptions, rawOptions, 'run');
  const requestedWorkspace = explicitWorkspace(command, options.workspace);
  const workspaceRoot = options.session === undefined ? resolveWorkspace(options.workspace) : requestedWorkspace;
  const prompt = await promptOf(promptArgument);
  const provider = await selectProvider(options);
  const subagents = await selectSubagents(options);
  const network = selectNetwork(options);
  const context = selectContext(options);
  const runtime = await openAgentRuntime({
    context,
    home: options.home,
    provider,
    subagents,
    network,
    permissionMode: options.permissionMode,
    mcp: {
      ...(workspaceRoot ? { workspaceRoot } : {}),
      onNotice: (notice) => process.stderr.write(`clawsmith: ${oneLine(notice, 500)}\n`),
    },
    extensions: entryExtensions(workspaceRoot),
    ...(options.traceparent !== undefined ? { traceparent: options.traceparent } : {}),
    settings: {
      workspaceRoot: workspaceRoot ?? resolveWorkspace(options.workspace),
      flags: options,
      onNotice: (notice) => process.stderr.write(`clawsmith: ${oneLine(notice, 500)}\n`),
    },
  });
  const style = terminalStyle(process.stdout);
  const printer = new TranscriptPrinter(process.stdout, style);
  // In --json mode stdout carries the persisted events and nothing else, each written the moment it is stored.
  const unsubscribe = runtime.core.subscribe((event: SessionEvent) => {
    if (options.json) process.stdout.write(`${JSON.stringify(event)}\n`);
    else printer.event(event);
  });
  const controller = new AbortController();
  let interrupts = 0;
  const onInterrupt = () => {
    interrupts += 1;
    if (interrupts > 1) process.exit(EXIT_CODES.interrupted);
    process.stderr.write('\nclawsmith: cancelling the turn (Ctrl-C again to exit now)\n');
    controller.abort();
  };
  process.on('SIGINT', onInterrupt);
  let result: TurnResult;
  const pastEndBefore = isScriptProvider(provider) ? provider.requestsPastEnd : 0;
  try {
    const session = await openOrCreateSession(
      runtime.core,
      options.session,
      workspaceRoot ?? '',
      prompt.slice(0, 80),
      requestedWorkspace,
    );
    if (!options.json)
      printer.line(style.dim(`session ${session.id} · workspace ${oneLine(session.workspaceRoot, 200)}`));
    result = await runtime.core.runTurn({
      sessionId: session.id,
      prompt,
      systemPrompt: runtime.systemPrompt(session.workspaceRoot, options),
      signal: controller.signal,
      ...(options.json ? {} : { onTextDelta: (text: string) => printer.textDelta(text) }),
    });
  } finally {
    process.off('SIGINT', onInterrupt);
    printer.stop();
    unsubscribe();
    await runtime.close();
  }
  if (!options.json) {
    const changed = result.changedFiles.length;
    printer.line(
      style.dim(
        `turn ${result.turnId} ${result.status}; ${changed} file(s) changed${changed > 0 ? `; undo: clawsmith undo files ${result.turnId} --session ${result.sessionId}` : ''}${scriptExhaustionNote(provider, pastEndBefore)}`,
      ),
    );
  }
  if (result.status === 'completed') return EXIT_CODES.ok;
  const reason = result.error
    ? `${result.error.message} [${result.error.code}]`
    : result.status === 'step_limit'
      ? 'the model kept calling tools past the step limit'
      : result.status;
  process.stderr.write(`clawsmith: the turn did not complete (${result.status}): ${oneLine(reason, 500)}\n`);
  return EXIT_CODES.failed;
}
