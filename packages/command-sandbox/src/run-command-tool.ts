import {
  assertAuthorized,
  defineTool,
  toolCancelled,
  toolError,
  toolSuccess,
  type ArtifactReference,
  type ArtifactWriter,
  type FileChangeRecorder,
  type ToolDefinition,
  type ToolExecutionResult,
  type TraceContext,
} from '@clawsmith/tool-protocol';
import { isAbsolute, relative, sep } from 'node:path';
import { z } from 'zod';
import { BoundedOutput } from './process/bounded-output.js';
import { beginCapture, finishCapture, type CommandFileChanges } from './capture/command-capture.js';
import { retireCaptureFolder, type CaptureFolder } from './capture/capture-folder.js';
import { fileChangeFields, fileChangeLines } from './capture/capture-report.js';
import { changedBetween, statWalk, STAT_WALK_LIMIT, type StatWalk } from './capture/workspace-stat-walk.js';
import { PROTECTED_SANDBOX_PATHS } from './sandbox/sandbox-plan.js';
import { prepareCommand, validateSandboxOptions, type CommandSandboxOptions } from './command-launch.js';
import { describeStatus, outcomeNotes, outcomeSignal, resultFields } from './command-report.js';
import { COMMAND_SANDBOX_ERROR_CODES, CommandSandboxError } from './errors.js';
import { runProcess } from './process/process-runner.js';
import { realWorkspaceRoot } from './workspace-root.js';
import { reachedLimits, type ReachedLimit } from './process/limit-report.js';
import type { SandboxKind } from './sandbox/sandbox-availability.js';
import type { RefusedHost } from './network/network-allowlist.js';
import { networkRefusalFields, networkRefusalLines, sandboxNetworkWords } from './network/network-report.js';

/** Defaults of the command limits that are part of the contract. */
export const COMMAND_DEFAULTS = Object.freeze({
  timeoutMs: 120_000,
  maxTimeoutMs: 600_000,
  outputLimitBytes: 65_536,
  logLimitBytes: 8 * 1024 * 1024,
});

/** One command to run to its end. */
export interface CommandRunRequest {
  /** Absolute path of the workspace: the only folder the command may write. */
  readonly workspaceRoot: string;
  /** The shell text, run by the configured shell. */
  readonly command: string;
  /** Workspace-relative working folder; default the workspace root. */
  readonly cwd?: string;
  /** Time limit in ms; the process tree is killed when it passes (default the service's). */
  readonly timeoutMs?: number;
  /** Text written to the command's standard input, which is then closed (default: none). */
  readonly stdin?: string;
  /** Aborting cancels the command: its process tree is killed. */
  readonly signal?: AbortSignal;
  /** Where the complete log (and a conflicting file's command version) goes, when wired. */
  readonly artifacts?: ArtifactWriter;
  /** Where the files the command changes are recorded for undo, when wired. */
  readonly fileChanges?: FileChangeRecorder;
  /** The calling tool call's trace context: the command gets it as `TRACEPARENT` / `TRACESTATE`. */
  readonly traceContext?: TraceContext;
}

/** What a finished command run observed. */
export interface CommandRunResult {
  /** The shell text that ran. */
  readonly command: string;
  /** Exit code, or `null` when a signal ended it. */
  readonly exitCode: number | null;
  /** The signal that ended it, or `null`. */
  readonly signal: string | null;
  /** Whether the time limit ended it. */
  readonly timedOut: boolean;
  /** Whether the caller cancelled it. */
  readonly cancelled: boolean;
  /** Wall time from start to end, in ms. */
  readonly durationMs: number;
  /** Merged stdout and stderr in arrival order; head and tail when longer than the cap. */
  readonly output: string;
  /** Bytes of output the command wrote in all (also those cut from `output`). */
  readonly outputBytes: number;
  /** Whether `output` holds only the head and tail. */
  readonly outputTruncated: boolean;
  /** Which sandbox held the command. */
  readonly sandbox: SandboxKind;
  /** Whether the command had the network (all of it, or the allowlist). */
  readonly network: boolean;
  /** Forks the process limit refused (0 where none was enforced). */
  readonly processLimitHits: number;
  /** Processes the kernel killed because the command reached its memory limit (0 where none was enforced). */
  readonly memoryLimitKills: number;
  /** The resource limits the command reached (memory, temporary space, processes, file size, CPU time); also in the notes, with how to raise each. */
  readonly limitsReached: readonly ReachedLimit[];
  /** Whether a pids cgroup held the whole process tree (the process cap applied); see the notes when not. */
  readonly contained: boolean;
  /** Notes on limits, timeouts and the sandbox, in words. */
  readonly notes: readonly string[];
  /** The complete log, when an artifact writer was wired in and the output was cut to head and tail. */
  readonly artifact?: ArtifactReference;
  /** The files the command changed (applied from the capture overlay), or why they were not captured. */
  readonly files?: CommandFileChanges;
  /** With a network allowlist: its domain patterns. */
  readonly networkAllowlist?: readonly string[];
  /** With a network allowlist: the hosts its proxy refused, each once. */
  readonly refusedHosts?: readonly RefusedHost[];
}

function uncapturedChanges(reason: string, workspaceRoot: string, before: StatWalk | undefined): CommandFileChanges {
  if (before === undefined) return { captured: false, reason };
  const after = statWalk(workspaceRoot);
  return {
    captured: false,
    reason,
    changedOutsideCheckpoint: changedBetween(before, after),
    ...(before.complete && after.complete ? {} : { walkLimit: STAT_WALK_LIMIT }),
  };
}

/** Clamps a requested timeout to the configured maximum. */
export function effectiveTimeout(options: CommandSandboxOptions, requestedMs: number | undefined): number {
  const maximum = options.maxTimeoutMs ?? COMMAND_DEFAULTS.maxTimeoutMs;
  return Math.min(requestedMs ?? options.defaultTimeoutMs ?? COMMAND_DEFAULTS.timeoutMs, maximum);
}

/**
 * Runs one command through every layer (refusal, environment, limits, timeout and tree kill,
 * output cap, sandbox) and returns what it observed. A non-zero exit is an observation, not an
 * error; refusals and a missing sandbox throw before anything runs.
 */
export async function runCommand(
  options: CommandSandboxOptions,
  request: CommandRunRequest,
): Promise<CommandRunResult> {
  const started = await beginCapture({
    mode: options.capture,
    sandboxOff: options.sandbox === 'off',
    bubblewrapProgram: options.bubblewrapProgram,
    captureFolder: options.captureFolder,
    workspaceRoot: realWorkspaceRoot(request.workspaceRoot),
  });
  const folder: CaptureFolder | undefined = 'folder' in started ? started.folder : undefined;
  let prepared;
  try {
    prepared = await prepareCommand(
      options,
      request.workspaceRoot,
      request.command,
      request.cwd,
      false,
      folder,
      request.traceContext,
    );
  } catch (error) {
    if (folder) await retireCaptureFolder(folder);
    throw error;
  }
  if (folder && !prepared.captured) await retireCaptureFolder(folder);
  // Without capture, a bounded stat walk before and after tells at least which paths changed.
  const walkedBefore = prepared.captured ? undefined : statWalk(prepared.plan.workspaceRoot);
  const timeoutMs = effectiveTimeout(options, request.timeoutMs);
  const half = Math.floor((options.outputLimitBytes ?? COMMAND_DEFAULTS.outputLimitBytes) / 2);
  const output = new BoundedOutput(
    half,
    half,
    request.artifacts ? (options.logLimitBytes ?? COMMAND_DEFAULTS.logLimitBytes) : 0,
  );
  let outcome: Awaited<ReturnType<typeof runProcess>>;
  try {
    outcome = await runProcess({
      launch: prepared.launch,
      timeoutMs,
      stdin: request.stdin,
      signal: request.signal,
      output,
      maxProcesses: prepared.plan.limits.processes,
      maxMemoryBytes: prepared.plan.limits.commandMemoryBytes,
      ...(options.cgroupRoot !== undefined ? { cgroupRoot: options.cgroupRoot } : {}),
    });
  } finally {
    prepared.release();
  }
  const refusedHosts = prepared.refusedHosts?.();
  if (outcome.spawnError) {
    if (folder) await retireCaptureFolder(folder);
    throw new CommandSandboxError(
      COMMAND_SANDBOX_ERROR_CODES.commandSpawnFailed,
      `The command could not be started: ${outcome.spawnError}.`,
      { retryable: true },
    );
  }
  const reached = reachedLimits(
    {
      signal: outcomeSignal(outcome),
      processLimitHits: outcome.processLimitHits,
      memoryLimitKills: outcome.memoryLimitKills ?? 0,
      output: output.text(),
    },
    prepared.plan.limits,
  );
  const notes = [
    ...reached.map((entry) => entry.note),
    ...outcomeNotes(outcome, prepared.plan, timeoutMs, prepared.sandbox),
  ];
  // What the command wrote is applied however it ended (exit, timeout, cancel): it happened.
  const files: CommandFileChanges =
    folder && prepared.captured
      ? await finishCapture({
          folder,
          workspaceRoot: prepared.plan.workspaceRoot,
          // The configured list, and every path the plan actually mounted read-only (its mount
          // points land in the upper folder and must never be applied).
          protectedPaths: [
            ...(options.protectedPaths ?? PROTECTED_SANDBOX_PATHS),
            ...prepared.plan.protectedPaths.flatMap((path) => {
              const inside = relative(prepared.plan.workspaceRoot, path);
              return inside === '' || inside.startsWith('..') || isAbsolute(inside)
                ? []
                : [inside.split(sep).join('/')];
            }),
          ],
          recorder: request.fileChanges,
          artifacts: request.artifacts,
        })
      : uncapturedChanges(
          'reason' in started ? started.reason : 'this sandbox cannot capture',
          prepared.plan.workspaceRoot,
          walkedBefore,
        );
  if (!files.captured) {
    const outside = files.changedOutsideCheckpoint ?? [];
    await request.fileChanges?.note?.(
      `Changes made by \`${request.command.slice(0, 200)}\` are not recorded (${files.reason})${outside.length > 0 ? `; changed outside the checkpoint: ${outside.slice(0, 20).join(', ')}${outside.length > 20 ? ` and ${outside.length - 20} more` : ''}` : ''}.`,
    );
  }
  let artifact: ArtifactReference | undefined;
  // Only output cut to its head and tail needs the complete log kept aside: a whole output is
  // already in the result, and a 5-byte artifact beside it is noise.
  if (request.artifacts && output.truncated) {
    const log = output.completeLog();
    const suffix = output.logTruncated
      ? Buffer.from(`\n[log cut at ${log.length} bytes of ${output.totalBytes}]\n`)
      : Buffer.alloc(0);
    artifact = await request.artifacts.write(Buffer.concat([log, suffix]));
  } else if (output.truncated) {
    notes.push('No artifact store is wired in: only the head and tail of the output were kept.');
  }
  const allowlistDomains = prepared.plan.networkBridge?.domains ?? prepared.plan.preparedNetwork?.domains;
  return {
    command: request.command,
    exitCode: outcome.exitCode,
    signal: outcomeSignal(outcome),
    timedOut: outcome.timedOut,
    cancelled: outcome.cancelled,
    durationMs: outcome.durationMs,
    output: output.text(),
    outputBytes: output.totalBytes,
    outputTruncated: output.truncated,
    sandbox: prepared.sandbox,
    network: prepared.plan.network,
    processLimitHits: outcome.processLimitHits,
    memoryLimitKills: outcome.memoryLimitKills ?? 0,
    limitsReached: reached.map((entry) => entry.limit),
    contained: outcome.contained,
    notes,
    ...(artifact ? { artifact } : {}),
    files,
    ...(allowlistDomains ? { networkAllowlist: allowlistDomains } : {}),
    ...(refusedHosts ? { refusedHosts } : {}),
  };
}

function resultContent(result: CommandRunResult): string {
  const status = describeStatus(result.exitCode, result.signal);
  const sandbox =
    result.sandbox === 'none' ? 'NONE (unsandboxed)' : `${result.sandbox}, ${sandboxNetworkWords(result)}`;
  const lines = [
    `$ ${result.command}`,
    `${status} · ${Math.round(result.durationMs)} ms · sandbox: ${sandbox}`,
    ...result.notes,
    ...networkRefusalLines(result.refusedHosts),
    ...fileChangeLines(result.files, result.timedOut || result.cancelled),
  ];
  if (result.artifact)
    lines.push(`Complete log: artifact ${result.artifact.id} (${result.artifact.byteLength} bytes).`);
  lines.push(
    result.outputBytes === 0
      ? '(no output)'
      : `--- output (${result.outputBytes} bytes${result.outputTruncated ? ', head and tail' : ''}) ---\n${result.output}`,
  );
  return lines.join('\n');
}

const runCommandInput = z.object({
  command: z.string().min(1).max(100_000).describe('The shell command (bash) to run.'),
  cwd: z.string().max(4_096).optional().describe('Working folder relative to the workspace root; default the root.'),
  timeoutSeconds: z.number().int().min(1).max(600).optional().describe('Timeout in seconds; default 120, at most 600.'),
  stdin: z.string().max(1_000_000).optional().describe('Text written to the command standard input.'),
});

/**
 * Builds the result of a finished `run_command` call: exit 0 is `success`; a non-zero exit is
 * `error` / `command_failed` and a timeout `error` / `command_timeout` (the output is still the
 * content, so the model sees what failed); a cancel is `cancelled`. `exitCode` and `durationMs`
 * are in the metadata.
 */
export function commandToolResult(result: CommandRunResult): ToolExecutionResult {
  const extras = {
    display: {
      kind: 'command' as const,
      title: `$ ${result.command}`.slice(0, 200),
      body: result.output,
      fields: [
        ...resultFields(result),
        ...networkRefusalFields(result.refusedHosts),
        ...fileChangeFields(result.files),
      ],
    },
    ...(result.artifact ? { artifact: result.artifact } : {}),
    ...(result.exitCode !== null ? { exitCode: result.exitCode } : {}),
    durationMs: Math.round(result.durationMs),
  };
  const content = resultContent(result);
  if (result.cancelled) return toolCancelled(content, extras);
  if (result.timedOut) return toolError(COMMAND_SANDBOX_ERROR_CODES.commandTimeout, content, extras);
  if (result.exitCode !== 0 && result.limitsReached.length > 0)
    return toolError(COMMAND_SANDBOX_ERROR_CODES.resourceLimitReached, content, extras);
  if (result.exitCode !== 0) return toolError(COMMAND_SANDBOX_ERROR_CODES.commandFailed, content, extras);
  return toolSuccess(content, extras);
}

/**
 * The `run_command` tool (risk `execute`, not concurrency-safe): runs a shell command in the
 * workspace through every layer of {@link runCommand}. Throws `environment_name_forbidden` at
 * construction for a forbidden allowlist addition.
 */
export function createRunCommandTool(
  options: CommandSandboxOptions = {},
): ToolDefinition<z.output<typeof runCommandInput>, ToolExecutionResult> {
  validateSandboxOptions(options);
  return defineTool({
    name: 'run_command',
    description:
      'Run a shell command (bash) in the workspace, in a sandbox: read-only system, writable workspace, private /tmp, no network unless configured, minimal environment, resource limits. Returns the exit code and the merged output; a non-zero exit is reported as an error (command_failed) with its output. Catastrophic commands (sudo, formatting disks, rm -rf /, shutdown...) are refused.',
    risk: 'execute',
    capabilities: ['process.execute', 'filesystem.write', 'filesystem.read'],
    concurrencySafe: false,
    inputSchema: runCommandInput,
    summarize: (input) => `run_command: ${input.command.slice(0, 160)}`,
    searchMetadata: { aliases: ['shell', 'bash', 'exec', 'terminal'], tags: ['process', 'command'] },
    async execute(input, context) {
      assertAuthorized(context, 'run_command');
      const result = await runCommand(options, {
        workspaceRoot: context.workspaceRoot,
        command: input.command,
        cwd: input.cwd,
        timeoutMs: input.timeoutSeconds === undefined ? undefined : input.timeoutSeconds * 1000,
        stdin: input.stdin,
        signal: context.signal,
        artifacts: context.artifacts,
        fileChanges: context.fileChanges,
        traceContext: context.traceContext,
      });
      return commandToolResult(result);
    },
  });
}
