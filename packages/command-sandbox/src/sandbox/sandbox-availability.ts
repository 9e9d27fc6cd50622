import { resolveTrustedLauncher } from '../process/trusted-launcher.js';

/** How commands are isolated: `auto` picks the platform sandbox, `off` runs unsandboxed (and says so). */
export type SandboxMode = 'auto' | 'bubblewrap' | 'off';

/** The sandbox a command actually ran in. */
export type SandboxKind = 'bubblewrap' | 'sandbox-exec' | 'none';

/** Whether a sandbox can be had, which, and why not. */
export type SandboxAvailability =
  | { readonly available: true; readonly kind: 'bubblewrap' | 'sandbox-exec'; readonly program: string }
  | { readonly available: false; readonly detail: string };

/** bubblewrap's view of the host read-only, with its own /dev and /proc: where probes and helpers start. */
export const HOST_READ_ONLY_VIEW: readonly string[] = Object.freeze([
  '--ro-bind',
  '/',
  '/',
  '--dev',
  '/dev',
  '--proc',
  '/proc',
]);

// execa (some 110 modules) loads when a probe runs, not when the package is imported: a command
// that never runs one (a listing, an undo) starts without it.
const loadExeca = () => import('execa');

const probes = new Map<string, Promise<SandboxAvailability>>();

async function probeBubblewrap(program: string): Promise<SandboxAvailability> {
  const { execa } = await loadExeca();
  const result = await execa(
    program,
    [
      ...HOST_READ_ONLY_VIEW,
      '--unshare-all',
      '--new-session',
      '--die-with-parent',
      '--cap-drop',
      'ALL',
      '--clearenv',
      '--',
      '/bin/true',
    ],
    { reject: false, timeout: 15_000, env: { PATH: '/usr/bin:/bin' }, extendEnv: false, stdin: 'ignore' },
  );
  if (result.exitCode === 0) return { available: true, kind: 'bubblewrap', program };
  const reason =
    result.failed && result.exitCode === undefined
      ? `${program} could not be started`
      : `${program} failed its self-test: ${String(result.stderr).trim().slice(0, 300)}`;
  return { available: false, detail: reason };
}

// The smallest profile with the posture of a real one: deny by default, then what a shell needs.
const SANDBOX_EXEC_SELF_TEST =
  '(version 1)(deny default)(allow process-exec)(allow process-fork)(allow file-read*)(allow sysctl-read)(allow mach-lookup)';

/**
 * Runs `program -p <deny-default profile> /usr/bin/true` once: `sandbox-exec` can exist and still
 * refuse to apply a profile (inside another sandbox, or where Apple removed it), so its presence
 * alone proves nothing.
 */
export async function probeSandboxExec(program: string): Promise<SandboxAvailability> {
  const { execa } = await loadExeca();
  const result = await execa(program, ['-p', SANDBOX_EXEC_SELF_TEST, '/usr/bin/true'], {
    reject: false,
    timeout: 15_000,
    env: { PATH: '/usr/bin:/bin' },
    extendEnv: false,
    stdin: 'ignore',
  });
  if (result.exitCode === 0) return { available: true, kind: 'sandbox-exec', program };
  const reason =
    result.failed && result.exitCode === undefined
      ? `${program} could not be started`
      : `${program} failed its self-test: ${String(result.stderr).trim().slice(0, 300) || `exit code ${result.exitCode}`}`;
  return { available: false, detail: reason };
}

/**
 * Finds the sandbox for `mode` on this machine, once per program (cached): bubblewrap on Linux,
 * checked by running it with every isolation flag the plans use; `/usr/bin/sandbox-exec` on
 * macOS, checked by applying a deny-by-default profile once.
 * bubblewrap is taken by absolute path from fixed system folders, owned by root and writable by
 * nobody else, never from `PATH`; an explicit `bubblewrapProgram` must pass the same checks.
 * `off` is never asked here: the caller runs unsandboxed and labels every result.
 */
export function sandboxAvailability(
  mode: Exclude<SandboxMode, 'off'>,
  bubblewrapProgram?: string,
): Promise<SandboxAvailability> {
  if (mode === 'auto' && process.platform === 'darwin') {
    let probe = probes.get('sandbox-exec');
    if (!probe) {
      probe = probeSandboxExec('/usr/bin/sandbox-exec').catch((error: unknown) => ({
        available: false as const,
        detail: String(error),
      }));
      probes.set('sandbox-exec', probe);
    }
    return probe;
  }
  if (process.platform !== 'linux')
    return Promise.resolve({ available: false, detail: `no sandbox is supported on ${process.platform}` });
  const key = bubblewrapProgram ?? '';
  let probe = probes.get(key);
  if (!probe) {
    const launcher = resolveTrustedLauncher('bwrap', bubblewrapProgram);
    probe = launcher.found
      ? probeBubblewrap(launcher.program).catch((error: unknown) => ({
          available: false as const,
          detail: String(error),
        }))
      : Promise.resolve({ available: false as const, detail: launcher.detail });
    probes.set(key, probe);
  }
  return probe;
}
