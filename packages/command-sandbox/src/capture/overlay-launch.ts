import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProcessLaunch } from '../process/process-runner.js';
import { resolveTrustedLauncher } from '../process/trusted-launcher.js';
import type { SandboxPlan } from '../sandbox/sandbox-plan.js';
import { removeCaptureFolder, removeOnExit } from './capture-folder.js';
import { programText } from '../programs/program-text.js';

// Mounts the overlay at the workspace path inside a new user+mount namespace, then becomes
// bubblewrap (which sees the merged view and builds the sandbox on it): one Perl process where it
// can, else `unshare`, `sh` and `mount`. Paths come as arguments, never spliced into a program.
// Perl reads no code from the environment here: PERL5LIB, PERL5OPT and PERL5DB are forbidden
// names of the command environment.
const SETUP_PERL = programText('overlay-setup.pl');
const SETUP_SCRIPT = programText('overlay-setup.sh');

/** System call numbers of unshare(2) and mount(2) per architecture; elsewhere the three-program chain runs. */
const SYSTEM_CALLS: Readonly<Record<string, { readonly unshare: number; readonly mount: number }>> = {
  x64: { unshare: 272, mount: 165 },
  arm64: { unshare: 97, mount: 40 },
};

function trusted(name: string): string | undefined {
  const launcher = resolveTrustedLauncher(name);
  return launcher.found ? launcher.program : undefined;
}

/** The programs the overlay setup step needs (from the trusted system folders only, never `PATH`). */
export interface SetupPrograms {
  readonly unshare: string;
  readonly mount: string;
  readonly shell: string;
  /** Perl, when present and the architecture's system call numbers are known: one process instead of three. */
  readonly perl?: string;
}

let programs: SetupPrograms | null | undefined;

export function setupPrograms(): SetupPrograms | undefined {
  if (programs === undefined) {
    const unshare = trusted('unshare');
    const mount = trusted('mount');
    const shell = trusted('sh');
    const perl = SYSTEM_CALLS[process.arch] ? trusted('perl') : undefined;
    programs =
      unshare && mount && shell && trusted('tar') ? { unshare, mount, shell, ...(perl ? { perl } : {}) } : null;
  }
  return programs ?? undefined;
}

/** The folders of one overlay: `lower` seen at `target`, writes going to `upper`. */
export interface OverlayFolders {
  readonly lower: string;
  readonly upper: string;
  readonly work: string;
  readonly target: string;
  /** Where the real `lower` folder is bound before the overlay covers it; none when empty or absent. */
  readonly view?: string;
}

/** The command line that mounts `overlay` in a new user+mount namespace and then runs `next`. */
export function setupCommandLine(
  found: SetupPrograms,
  overlay: OverlayFolders,
  next: readonly string[],
): { file: string; args: string[] } {
  const calls = SYSTEM_CALLS[process.arch];
  if (found.perl && calls) {
    return {
      file: found.perl,
      args: [
        '-e',
        SETUP_PERL,
        String(calls.unshare),
        String(calls.mount),
        String(process.getuid?.() ?? 0),
        String(process.getgid?.() ?? 0),
        overlay.lower,
        overlay.upper,
        overlay.work,
        overlay.target,
        overlay.view ?? '',
        ...next,
      ],
    };
  }
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
      overlay.lower,
      overlay.upper,
      overlay.work,
      overlay.target,
      overlay.view ?? '',
      ...next,
    ],
  };
}

/**
 * Wraps a bubblewrap launch of `plan` (whose workspace mount is an `overlay`) in the setup step
 * that mounts the overlay first: a new user+mount namespace, `mount -t overlay`, then
 * `exec bwrap ...` (one perl process where it can, else `unshare`, `sh` and `mount`). Returns the
 * launch unchanged when the plan has no overlay.
 */
export function overlayLaunch(plan: SandboxPlan, bubblewrap: ProcessLaunch): ProcessLaunch {
  const overlay = plan.mounts.find((mount) => mount.kind === 'overlay');
  if (!overlay) return bubblewrap;
  const found = setupPrograms();
  if (!found) throw new Error('unshare, mount or tar is missing: overlay capture is not possible here');
  const { file, args } = setupCommandLine(
    found,
    {
      lower: overlay.source ?? overlay.target,
      upper: overlay.upper ?? '',
      work: overlay.work ?? '',
      target: overlay.target,
      ...(overlay.lowerView ? { view: overlay.lowerView } : {}),
    },
    [bubblewrap.file, ...bubblewrap.args],
  );
  return {
    file,
    args,
    environment: bubblewrap.environment,
    cwd: bubblewrap.cwd,
    ...(bubblewrap.seccompFilterFile === undefined ? {} : { seccompFilterFile: bubblewrap.seccompFilterFile }),
    ...(bubblewrap.namespace === undefined ? {} : { namespace: bubblewrap.namespace }),
  };
}

const probes = new Map<string, Promise<{ available: boolean; detail: string }>>();

async function probeOverlay(explicitBubblewrap: string | undefined): Promise<{ available: boolean; detail: string }> {
  const found = setupPrograms();
  if (process.platform !== 'linux' || !found)
    return { available: false, detail: 'overlay capture needs Linux with unshare, mount and tar' };
  const probed = await probeWith(found, explicitBubblewrap);
  if (probed.available || found.perl === undefined) return probed;
  // The one-process setup failed here: the three-program chain may still work; use it from now on.
  const { perl: _perl, ...chain } = found;
  const fallback = await probeWith(chain, explicitBubblewrap);
  if (!fallback.available) return probed;
  programs = chain;
  return fallback;
}

async function probeWith(
  found: SetupPrograms,
  explicitBubblewrap: string | undefined,
): Promise<{ available: boolean; detail: string }> {
  const bubblewrap = resolveTrustedLauncher('bwrap', explicitBubblewrap);
  if (!bubblewrap.found) return { available: false, detail: bubblewrap.detail };
  const bubblewrapProgram = bubblewrap.program;
  const base = mkdtempSync(join(tmpdir(), 'clawsmith-overlay-probe-'));
  removeOnExit({ root: base, work: join(base, 'work') });
  try {
    const lower = join(base, 'lower');
    const upper = join(base, 'upper');
    const work = join(base, 'work');
    for (const folder of [lower, upper, work]) mkdirSync(folder);
    writeFileSync(join(lower, 'seen'), 'lower');
    const uid = process.getuid?.() ?? 0;
    const gid = process.getgid?.() ?? 0;
    const setup = setupCommandLine(found, { lower, upper, work, target: lower }, [
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
    ]);
    // Loaded here rather than on import: see sandbox-availability.ts.
    const { execa } = await import('execa');
    // Its own process group, ended whole if this process exits meanwhile (Ctrl-C handled by
    // process.exit): the setup program's bubblewrap dies with its parent, which is the setup
    // program, not this process, so it would otherwise run on after an interrupted start.
    const probe = execa(setup.file, setup.args, {
      reject: false,
      timeout: 15_000,
      env: { PATH: '/usr/bin:/bin:/usr/sbin:/sbin' },
      extendEnv: false,
      stdin: 'ignore',
      detached: true,
    });
    const endProbe = () => {
      if (probe.pid === undefined) return;
      try {
        process.kill(-probe.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    process.once('exit', endProbe);
    let result: Awaited<typeof probe>;
    try {
      result = await probe;
    } finally {
      process.off('exit', endProbe);
    }
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
