import { constants } from 'node:os';
import type { ArtifactReference, ToolDisplayField } from '@clawsmith/tool-protocol';
import type { ProcessOutcome } from './process/process-runner.js';
import type { SandboxKind } from './sandbox/sandbox-availability.js';
import type { SandboxPlan } from './sandbox/sandbox-plan.js';

const SIGNAL_NAMES = new Map<number, string>(Object.entries(constants.signals).map(([name, number]) => [number, name]));

/** The signal behind an outcome: the process's own, or the 128+n status a sandbox or shell reports. */
export function outcomeSignal(outcome: Pick<ProcessOutcome, 'exitCode' | 'signal'>): string | null {
  if (outcome.signal) return outcome.signal;
  if (outcome.exitCode !== null && outcome.exitCode > 128 && outcome.exitCode < 128 + 65)
    return SIGNAL_NAMES.get(outcome.exitCode - 128) ?? null;
  return null;
}

/** Observations a person (or model) should see about limits and the sandbox. */
export function outcomeNotes(
  outcome: ProcessOutcome,
  plan: SandboxPlan,
  timeoutMs: number,
  sandbox: SandboxKind,
): string[] {
  const notes: string[] = [];
  if (sandbox === 'none')
    notes.push("WARNING: this command ran WITHOUT a sandbox (sandbox: 'off' in the configuration).");
  if (outcome.timedOut)
    notes.push(`Timed out after ${Math.round(timeoutMs / 1000)} s: the whole process tree was killed.`);
  if (outcome.cancelled) notes.push('Cancelled: the whole process tree was killed.');
  // Limits reached (memory, /tmp, processes, file size, CPU) are told by reachedLimits, with how to raise each.
  if (sandbox === 'bubblewrap' && !outcome.spawnError && outcome.memoryLimitBytes === undefined)
    notes.push(
      'The memory limit was not enforced: no memory cgroup could be created here (it needs root or a delegated cgroup); only the per-process address-space limit applied.',
    );
  const uncontained = containmentNote(outcome, plan, sandbox);
  if (uncontained) notes.push(uncontained);
  return notes;
}

/**
 * What to say when no pids cgroup held the command: the process cap was not enforced, and
 * without a PID namespace a process that left the process group may have outlived the command.
 */
export function containmentNote(
  outcome: Pick<ProcessOutcome, 'contained' | 'spawnError'>,
  plan: Pick<SandboxPlan, 'namespaces' | 'limits'>,
  sandbox: SandboxKind,
): string | undefined {
  if (outcome.contained || outcome.spawnError) return undefined;
  const why = 'no pids cgroup could be created here (it needs root or a delegated cgroupRoot)';
  if (sandbox === 'bubblewrap' && plan.namespaces.pid)
    return `The process cap (${plan.limits.processes}) was not enforced: ${why}; the process tree was held only by the sandbox's PID namespace.`;
  return `The process tree was NOT contained: ${why}, so the process cap (${plan.limits.processes}) was not enforced and a process that left its process group (setsid, double fork) may have outlived the command.`;
}

/** The one-line status, for example `exit code 0` or `exit code 137 (SIGKILL)`. */
export function describeStatus(exitCode: number | null, signal: string | null): string {
  if (exitCode === null) return signal ? `killed by ${signal}` : 'did not start';
  return signal ? `exit code ${exitCode} (${signal})` : `exit code ${exitCode}`;
}

/** What {@link resultFields} reads from a finished run. */
export interface ReportedRun {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly durationMs: number;
  readonly sandbox: SandboxKind;
  readonly network: boolean;
  readonly outputBytes: number;
  readonly timedOut: boolean;
  /** False when no pids cgroup held the process tree. */
  readonly contained?: boolean;
  readonly artifact?: ArtifactReference;
}

/** Labelled values for the command display. */
export function resultFields(run: ReportedRun): ToolDisplayField[] {
  const fields: ToolDisplayField[] = [
    { label: 'status', value: describeStatus(run.exitCode, run.signal) },
    { label: 'duration', value: `${Math.round(run.durationMs)} ms` },
    {
      label: 'sandbox',
      value: run.sandbox === 'none' ? 'none (unsandboxed)' : `${run.sandbox}, network ${run.network ? 'on' : 'off'}`,
    },
    { label: 'output bytes', value: String(run.outputBytes) },
  ];
  if (run.timedOut) fields.push({ label: 'timed out', value: 'yes' });
  if (run.contained === false) fields.push({ label: 'process tree', value: 'not in a pids cgroup (no process cap)' });
  if (run.artifact) fields.push({ label: 'log artifact', value: run.artifact.id });
  return fields;
}
