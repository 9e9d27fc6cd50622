import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { runCommand, type CommandSandboxOptions } from '@clawsmith/command-sandbox';

/** How a hook command ended: its exit code, stdout and stderr apart, or why it did not run. */
export interface HookProcessOutcome {
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
  /** Set when the command could not start or its output could not be read: the hook fails closed. */
  readonly spawnError?: string;
}

/** Where a hook command runs: in the command sandbox with these options, or (`off`) as a plain child process. */
export type HookSandbox = CommandSandboxOptions | 'off';

/** What one hook command run needs. */
export interface HookProcessRequest {
  readonly command: string;
  /** The workspace: the folder the command runs in. */
  readonly cwd: string;
  readonly stdin: string;
  readonly timeoutMs: number;
  readonly sandbox: HookSandbox;
}

const OUTPUT_LIMIT = 256 * 1024;

/** Runs `command` with bash, unsandboxed; the whole process group is killed on timeout. */
function runPlain(request: HookProcessRequest): Promise<HookProcessOutcome> {
  return new Promise((resolve) => {
    const child = spawn('/bin/bash', ['-c', request.command], {
      cwd: request.cwd,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (stdout.length < OUTPUT_LIMIT) stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < OUTPUT_LIMIT) stderr += chunk.toString('utf8');
    });
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, request.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ exitCode: null, stdout, stderr, timedOut, spawnError: error.message });
    });
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      resolve({ exitCode, stdout, stderr, timedOut });
    });
    // A hook that does not read its stdin must not fail the write.
    child.stdin.on('error', () => undefined);
    child.stdin.end(request.stdin);
  });
}

/**
 * Runs `command` through every layer of `run_command` (refusal, minimal environment, limits,
 * timeout and tree kill, the OS sandbox: the workspace writable, the network off unless the
 * options allow it). The sandbox merges stdout and stderr, so the command's stderr goes to a file
 * in its private /tmp and follows its stdout behind a marker nobody can guess.
 */
async function runSandboxed(request: HookProcessRequest, options: CommandSandboxOptions): Promise<HookProcessOutcome> {
  const marker = `clawsmith-hook-stderr-${randomUUID()}`;
  const wrapped = [
    'clawsmith_hook_stderr=$(mktemp) || exit 97',
    `(\n${request.command}\n) 2>"$clawsmith_hook_stderr"`,
    'clawsmith_hook_code=$?',
    `printf '\\n%s\\n' '${marker}'`,
    'cat "$clawsmith_hook_stderr"',
    'exit $clawsmith_hook_code',
  ].join('\n');
  try {
    const result = await runCommand(
      { ...options, capture: 'off', outputLimitBytes: OUTPUT_LIMIT },
      { workspaceRoot: request.cwd, command: wrapped, stdin: request.stdin, timeoutMs: request.timeoutMs },
    );
    if (result.timedOut) return { exitCode: null, stdout: '', stderr: '', timedOut: true };
    const at = result.output.lastIndexOf(`\n${marker}\n`);
    if (at < 0 || result.outputTruncated)
      return {
        exitCode: result.exitCode,
        stdout: '',
        stderr: '',
        timedOut: false,
        spawnError: `its output could not be read in the sandbox (${result.outputTruncated ? 'over 256 KiB' : 'it did not finish normally'}): ${result.output.slice(0, 300)}`,
      };
    return {
      exitCode: result.exitCode,
      stdout: result.output.slice(0, at),
      stderr: result.output.slice(at + marker.length + 2),
      timedOut: false,
    };
  } catch (error) {
    // A refused command or a missing sandbox: nothing ran, and the hook fails closed.
    const message = error instanceof Error ? error.message : String(error);
    return { exitCode: null, stdout: '', stderr: '', timedOut: false, spawnError: `sandbox: ${message.slice(0, 400)}` };
  }
}

/** Runs one hook command with its JSON on stdin, in the command sandbox unless `sandbox` is `off`. */
export function runHookProcess(request: HookProcessRequest): Promise<HookProcessOutcome> {
  return request.sandbox === 'off' ? runPlain(request) : runSandboxed(request, request.sandbox);
}
