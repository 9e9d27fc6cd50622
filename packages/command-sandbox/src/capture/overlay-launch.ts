import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import type { ProcessLaunch } from '../process-runner.js';
import { resolveTrustedLauncher } from '../trusted-launcher.js';
import type { SandboxPlan } from '../sandbox-plan.js';
import { removeCaptureFolder } from './capture-folder.js';

// Mounts the overlay at the workspace path inside a new user+mount namespace, then becomes
// bubblewrap (which sees the merged view and builds the sandbox on it). Paths come as arguments,
// never spliced into the script; "userxattr" is what an unprivileged overlay needs.
const SETUP_SCRIPT =
  '"$1" -t overlay clawsmith-capture -o "lowerdir=$2,upperdir=$3,workdir=$4,userxattr" "$5" || exit 125; shift 5; exec "$@"';

function trusted(name: string): string | undefined {
  const launcher = resolveTrustedLauncher(name);
  return launcher.found ? launcher.program : undefined;
}

/** The programs the overlay setup step needs (from the trusted system folders only, never `PATH`). */
interface SetupPrograms {
  readonly unshare: string;
  readonly mount: string;
  readonly shell: string;
}

let programs: SetupPrograms | null | undefined;

function setupPrograms(): SetupPrograms | undefined {
  if (programs === undefined) {
    const unshare = trusted('unshare');
    const mount = trusted('mount');
    const shell = trusted('sh');
    programs = unshare && mount && shell && trusted('tar') ? { unshare, mount, shell } : null;
  }
  return programs ?? undefined;
}

/**
 * Wraps a bubblewrap launch of `plan` (whose workspace mount is an `overlay`) in the setup step
 * that mounts the overlay first: `unshare --user --map-root-user --mount`, `mount -t overlay`,
 * then `exec bwrap ...`. Returns the launch unchanged when the plan has no overlay.
 */
export function overlayLaunch(plan: SandboxPlan, bubblewrap: ProcessLaunch): ProcessLaunch {
  const overlay = plan.mounts.find((mount) => mount.kind === 'overlay');
  if (!overlay) return bubblewrap;
  const found = setupPrograms();
  if (!found) throw new Error('unshare, mount or tar is missing: overlay capture is not possible here');
  return {
    file: found.unshare,
    args: [
      '--user',
      '--map-root-user',
      '--mount',
      '--',
      found.shell,
      '-c',
      SETUP_SCRIPT,
      'clawsmith-capture',
      found.mount,
      overlay.source ?? overlay.target,
      overlay.upper ?? '',
      overlay.work ?? '',
      overlay.target,
      bubblewrap.file,
      ...bubblewrap.args,
    ],
    environment: bubblewrap.environment,
    cwd: bubblewrap.cwd,
    ...(bubblewrap.seccompFilterFile === undefined ? {} : { seccompFilterFile: bubblewrap.seccompFilterFile }),
  };
}

const probes = new Map<string, Promise<{ available: boolean; detail: string }>>();

async function probeOverlay(explicitBubblewrap: string | undefined): Promise<{ available: boolean; detail: string }> {
  const found = setupPrograms();
  if (process.platform !== 'linux' || !found)
    return { available: false, detail: 'overlay capture needs Linux with unshare, mount and tar' };
  const bubblewrap = resolveTrustedLauncher('bwrap', explicitBubblewrap);
  if (!bubblewrap.found) return { available: false, detail: bubblewrap.detail };
  const bubblewrapProgram = bubblewrap.program;
  const base = mkdtempSync(join(tmpdir(), 'clawsmith-overlay-probe-'));
  try {
    const lower = join(base, 'lower');
    const upper = join(base, 'upper');
    const work = join(base, 'work');
    for (const folder of [lower, upper, work]) mkdirSync(folder);
    writeFileSync(join(lower, 'seen'), 'lower');
    const uid = process.getuid?.() ?? 0;
    const gid = process.getgid?.() ?? 0;
    const result = await execa(
      found.unshare,
      [
        '--user',
        '--map-root-user',
        '--mount',
        '--',
        found.shell,
        '-c',
        SETUP_SCRIPT,
        'clawsmith-capture',
        found.mount,
        lower,
        upper,
        work,
        lower,
        bubblewrapProgram,
        '--ro-bind',
        '/',
        '/',
        '--bind',
        lower,
        lower,
        '--unshare-user',
        '--uid',
        String(uid),
        '--gid',
        String(gid),
        '--unshare-pid',
        '--die-with-parent',
        '--cap-drop',
        'ALL',
        '--',
        '/bin/sh',
        '-c',
        'cat "$1/seen" > "$1/written"',
        'probe',
        lower,
      ],
      {
        reject: false,
        timeout: 15_000,
        env: { PATH: '/usr/bin:/bin:/usr/sbin:/sbin' },
        extendEnv: false,
        stdin: 'ignore',
      },
    );
    const captured = existsSync(join(upper, 'written')) && !existsSync(join(lower, 'written'));
    if (result.exitCode === 0 && captured && readFileSync(join(upper, 'written'), 'utf8') === 'lower')
      return { available: true, detail: 'overlay mounted in a user namespace' };
    return {
      available: false,
      detail: `an overlay could not be mounted in a user namespace: ${String(result.stderr).trim().slice(0, 300) || `exit ${String(result.exitCode)}`}`,
    };
  } finally {
    removeCaptureFolder({ root: base, work: join(base, 'work') });
  }
}

/**
 * Whether overlay capture works on this machine with this bubblewrap (probed once per program
 * by mounting an overlay and writing through it from inside bubblewrap), and why not.
 */
export function overlayCaptureAvailability(
  bubblewrapProgram?: string,
): Promise<{ available: boolean; detail: string }> {
  const key = bubblewrapProgram ?? '';
  let probe = probes.get(key);
  if (!probe) {
    probe = probeOverlay(bubblewrapProgram).catch((error: unknown) => ({ available: false, detail: String(error) }));
    probes.set(key, probe);
  }
  return probe;
}
