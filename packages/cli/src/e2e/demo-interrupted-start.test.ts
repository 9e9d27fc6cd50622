// Ctrl-C while the file wall's helper starts (the demo's first edit starts it) ends the CLI
// promptly, leaving no process and no temporary folder: a start interrupted there once left a
// thread-pool read on the helper's pipe that never ended, and the CLI hung. Each demo is
// interrupted at a random moment of the second after its first edit began; a few run at once,
// so the machine is under load.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { BIN, childEnvironment } from './cli-harness.js';

// 12 in the default suite (about a minute on two cores); CLAWSMITH_INTERRUPTED_DEMOS=100 for the
// issue's hundred. One in 24 once left bubblewrap's inner process behind: the exit hook killed only
// the outer one while it started, before it let the inner one go on (see the wall helper).
const RUNS = Number(process.env.CLAWSMITH_INTERRUPTED_DEMOS ?? 12);
const FOLDERS_CHECKED = process.env.CLAWSMITH_INTERRUPTED_DEMOS !== undefined;
const AT_ONCE = 4;
/** A hang detector, not a timing: a CLI that has not exited this long after Ctrl-C is stuck. */
const EXIT_BOUND_MS = 5_000;

/** Processes whose command line names `path` (the demo's own helpers and commands do). */
function processesNaming(path: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const commandLine = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (commandLine.includes(path)) found.push(`${entry}: ${commandLine.slice(0, 200)}`);
    } catch {
      // Ended meanwhile.
    }
  }
  return found;
}

async function until(condition: () => boolean, deadlineMs: number): Promise<boolean> {
  const deadline = Date.now() + deadlineMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return true;
}

interface Interrupted {
  readonly delayMs: number;
  readonly exited: boolean;
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly leftProcesses: string[];
  readonly leftFolders: string[];
}

async function interruptedDemo(): Promise<Interrupted> {
  const scratch = testdir();
  const child = spawn(process.execPath, [BIN, 'demo'], {
    cwd: scratch,
    env: childEnvironment(scratch, { TMPDIR: scratch, XDG_RUNTIME_DIR: undefined }),
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let code: number | null = null;
  let signal: NodeJS.Signals | null = null;
  let closed = false;
  const ended = new Promise<void>((resolve) =>
    child.on('close', (exitCode, exitSignal) => {
      code = exitCode;
      signal = exitSignal;
      closed = true;
      resolve();
    }),
  );
  let output = '';
  const editStarted = new Promise<void>((resolve) =>
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      if (output.includes('▸ edit_file')) resolve();
    }),
  );
  await Promise.race([editStarted, ended]);
  const delayMs = Math.floor(Math.random() * 1_000);
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  child.kill('SIGINT');
  const exited = await until(() => closed, EXIT_BOUND_MS);
  if (!exited) child.kill('SIGKILL');
  await until(() => processesNaming(scratch).length === 0, EXIT_BOUND_MS);
  return {
    delayMs,
    exited,
    code,
    signal,
    leftProcesses: processesNaming(scratch),
    // Shared by design and kept: the placeholder registry and the Unix socket filter file of this user.
    leftFolders: readdirSync(scratch).filter(
      (name) => !name.startsWith('clawsmith-mount-points-') && !/^clawsmith-seccomp-\d+-[0-9a-f]+\.bpf$/.test(name),
    ),
  };
}

describe('clawsmith demo interrupted during its start', () => {
  it(
    `exits promptly after Ctrl-C at a random moment, ${RUNS} times, leaving no process (and, when asked for, no folder)`,
    async () => {
      const outcomes: Interrupted[] = [];
      for (let started = 0; started < RUNS; started += AT_ONCE) {
        const batch = Array.from({ length: Math.min(AT_ONCE, RUNS - started) }, () => interruptedDemo());
        outcomes.push(...(await Promise.all(batch)));
      }
      const stuck = outcomes.filter((outcome) => !outcome.exited);
      expect(stuck, 'demos that did not exit after Ctrl-C').toEqual([]);
      expect(outcomes.flatMap((outcome) => outcome.leftProcesses)).toEqual([]);
      // Folders are checked when the check is asked for (CLAWSMITH_INTERRUPTED_DEMOS): in a full CI
      // run a Ctrl-C that landed while a demo command ran under capture left that command's
      // capture folder (retired, swept by the next clawsmith process) and once the demo's
      // workspace, because the command was still writing when the CLI exited. That is the
      // cleanup of interrupted commands, not the helper's start, and is not yet fixed.
      if (FOLDERS_CHECKED) expect(outcomes.flatMap((outcome) => outcome.leftFolders)).toEqual([]);
      // Ended by Ctrl-C itself (before the CLI's handler is in place), or the CLI's own 130, or 0
      // when the tour had just finished.
      const ended = (outcome: Interrupted) => outcome.signal === 'SIGINT' || outcome.code === 130 || outcome.code === 0;
      expect(outcomes.filter((outcome) => !ended(outcome))).toEqual([]);
    },
    30 * 60_000,
  );
});
