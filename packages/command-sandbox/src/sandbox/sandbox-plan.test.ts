import { describe, expect, it } from 'vitest';
import {
  bubblewrapArguments,
  buildSandboxPlan,
  DEFAULT_SANDBOX_LIMITS,
  macosSandboxProfile,
  type PathKind,
  type SandboxPlanInput,
} from '../index.js';
import type { ProtectedLocations } from './protected-locations.js';

function input(overrides: Partial<SandboxPlanInput> = {}, paths: Record<string, PathKind> = {}): SandboxPlanInput {
  const kinds: Record<string, PathKind> = {
    '/work/project/.git': 'directory',
    '/work/project/.git/hooks': 'directory',
    '/work/project/.git/config': 'file',
    '/work/project': 'directory',
    '/home/me': 'directory',
    ...paths,
  };
  return {
    workspaceRoot: '/work/project',
    workingDirectory: '/work/project/src',
    commandText: 'npm test',
    network: false,
    environment: { PATH: '/usr/bin:/bin', HOME: '/home/me' },
    limits: DEFAULT_SANDBOX_LIMITS,
    hiddenPaths: ['/home/me'],
    pathKind: (path) => kinds[path] ?? 'missing',
    ...overrides,
  };
}

const LOCATIONS: ProtectedLocations = {
  existing: ['/work/project/.git', '/work/project/vendor/lib/.git'],
  absent: [
    { path: '/work/project/.clawsmith', folder: true },
    { path: '/work/project/.envrc', folder: false },
  ],
  linkedGitFolders: [],
  symlinks: [],
  unsearchedFolders: 0,
};

describe('buildSandboxPlan', () => {
  it('plans a read-only root, private tmp, hidden home, writable workspace and read-only protected paths, in that order', () => {
    const plan = buildSandboxPlan(input({ protectedLocations: LOCATIONS }));
    expect(plan.mounts.map((mount) => `${mount.kind} ${mount.source ?? ''}:${mount.target}`)).toEqual([
      'read-only /:/',
      'devices :/dev',
      'processes :/proc',
      'tmpfs :/tmp',
      'tmpfs :/var/tmp',
      'tmpfs :/run',
      'tmpfs :/home/me',
      'read-write /work/project:/work/project',
      'read-only /work/project/.git:/work/project/.git',
      'read-only /work/project/vendor/lib/.git:/work/project/vendor/lib/.git',
      'read-only-empty :/work/project/.clawsmith',
      'read-only /dev/null:/work/project/.envrc',
    ]);
    expect(plan.namespaces).toEqual({ user: true, pid: true, network: true, ipc: true, uts: true, cgroup: true });
    expect(plan).toMatchObject({
      network: false,
      unixSockets: 'denied',
      newSession: true,
      dieWithParent: true,
      dropCapabilities: true,
    });
    expect(plan.environment).toEqual({ PATH: '/usr/bin:/bin', HOME: '/home/me', TMPDIR: '/tmp' });
    expect(plan.protectedPaths).toEqual([
      '/work/project/.git',
      '/work/project/vendor/lib/.git',
      '/work/project/.clawsmith',
      '/work/project/.envrc',
    ]);
    expect(plan.placeholders).toEqual(['/work/project/.clawsmith', '/work/project/.envrc']);
  });

  it('without a search, guards the whole protected list at the root from pathKind alone', () => {
    const plan = buildSandboxPlan(input({ network: true }));
    expect(plan.namespaces.network).toBe(false);
    expect(plan.unixSockets).toBe('allowed');
    expect(plan.protectedPaths).toContain('/work/project/.git');
    expect(plan.protectedPaths).not.toContain('/work/project/.git/hooks');
    expect(plan.protectedPaths).toContain('/work/project/.vscode');
    expect(plan.placeholders).toContain('/work/project/.bashrc');
    expect(plan.placeholders).not.toContain('/work/project/.git');
  });

  it('guards an absent protected file with /dev/null and an absent folder with an empty read-only folder', () => {
    const plan = buildSandboxPlan(input({}, { '/work/project/.git': 'missing' }));
    expect(plan.mounts).toContainEqual({
      kind: 'read-only',
      source: '/dev/null',
      target: '/work/project/.gitmodules',
      purpose: 'protected (absent): .gitmodules',
    });
    expect(plan.mounts).toContainEqual({
      kind: 'read-only-empty',
      target: '/work/project/.git',
      purpose: 'protected (absent): .git',
    });
  });

  it('hides a hidden folder inside the workspace after the workspace is bound, and binds no protected path in it', () => {
    const plan = buildSandboxPlan(
      input(
        {
          hiddenPaths: ['/home/me', '/work/project/private'],
          protectedLocations: { ...LOCATIONS, existing: ['/work/project/private/.git'] },
        },
        { '/work/project/private': 'directory' },
      ),
    );
    const targets = plan.mounts.map((mount) => `${mount.kind}:${mount.target}`);
    expect(targets.indexOf('tmpfs:/work/project/private')).toBeGreaterThan(targets.indexOf('read-write:/work/project'));
    expect(targets).not.toContain('read-only:/work/project/private/.git');
  });

  it('shows the git folder of a linked worktree read-only after the hidden home', () => {
    const plan = buildSandboxPlan(
      input({ protectedLocations: { ...LOCATIONS, linkedGitFolders: ['/home/me/repo/.git'] } }),
    );
    const targets = plan.mounts.map((mount) => `${mount.kind}:${mount.target}`);
    expect(targets.indexOf('read-only:/home/me/repo/.git')).toBeGreaterThan(targets.indexOf('tmpfs:/home/me'));
  });
});

describe('bubblewrapArguments', () => {
  it('turns the plan into a bubblewrap command line with a cleared environment and the limited command', () => {
    const argv = bubblewrapArguments(buildSandboxPlan(input({ protectedLocations: LOCATIONS })));
    expect(argv.join(' ')).toBe(
      [
        '--ro-bind / / --dev /dev --proc /proc --size 536870912 --tmpfs /tmp --size 536870912 --tmpfs /var/tmp',
        '--size 536870912 --tmpfs /run --size 536870912 --tmpfs /home/me',
        '--bind /work/project /work/project',
        '--ro-bind /work/project/.git /work/project/.git --ro-bind /work/project/vendor/lib/.git /work/project/vendor/lib/.git',
        '--perms 0555 --tmpfs /work/project/.clawsmith --remount-ro /work/project/.clawsmith',
        '--ro-bind /dev/null /work/project/.envrc',
        '--unshare-user --unshare-pid --unshare-net --unshare-ipc --unshare-uts --hostname clawsmith-sandbox --unshare-cgroup-try',
        '--new-session --die-with-parent --cap-drop ALL --seccomp 3 --clearenv',
        '--setenv HOME /home/me --setenv PATH /usr/bin:/bin --setenv TMPDIR /tmp --chdir /work/project/src --',
        '/bin/bash --noprofile --norc -c',
        'ulimit -t 300 -f 1048576 -n 1024 -u 1024 -v 4194304 || exit 125\nexec 2>&1\nnpm test',
      ].join(' '),
    );
  });

  it('leaves out --unshare-net and the Unix socket filter when the network is allowed', () => {
    const argv = bubblewrapArguments(buildSandboxPlan(input({ network: true })));
    expect(argv).not.toContain('--unshare-net');
    expect(argv).not.toContain('--seccomp');
  });
});

describe('macosSandboxProfile', () => {
  it('hides the hidden folders from reads and writes, and keeps a workspace inside a hidden home reachable', () => {
    const plan = buildSandboxPlan(
      input(
        {
          workspaceRoot: '/Users/me/project',
          workingDirectory: '/Users/me/project',
          hiddenPaths: ['/Users/me', '/Users/me/project/.secrets', '/var/run'],
          protectedLocations: { ...LOCATIONS, existing: ['/Users/me/project/.git'], absent: [] },
        },
        {
          '/Users/me': 'directory',
          '/Users/me/project': 'directory',
          '/Users/me/project/.secrets': 'directory',
          '/var/run': 'directory',
        },
      ),
    );
    const profile = macosSandboxProfile(plan);
    const order = [
      '(allow file-read*)',
      '(deny file-read* file-write*\n  (subpath "/Users/me")\n  (subpath "/var/run"))',
      '(allow file-read* file-write*\n  (subpath "/Users/me/project"))',
      '(deny file-write*\n  (subpath "/Users/me/project/.git")',
      '(deny file-read* file-write*\n  (subpath "/Users/me/project/.secrets"))',
    ].map((rule) => profile.indexOf(rule));
    expect(order.every((position) => position >= 0)).toBe(true);
    expect([...order].sort((left, right) => left - right)).toEqual(order);
  });

  it('denies by default, writes only the workspace and temporary folders, never the protected paths, no network', () => {
    expect(macosSandboxProfile(buildSandboxPlan(input({ protectedLocations: LOCATIONS })))).toMatchInlineSnapshot(`
      "(version 1)
      (deny default)
      (allow process-exec)
      (allow process-fork)
      (allow signal (target same-sandbox))
      (allow sysctl-read)
      (allow mach-lookup)
      (allow ipc-posix-shm)
      (allow file-read*)
      (allow file-write*
        (subpath "/work/project")
        (subpath "/private/tmp")
        (subpath "/private/var/folders")
        (literal "/dev/null")
        (literal "/dev/tty")
        (regex #"^/dev/fd/[0-9]+$"))
      (deny file-read* file-write*
        (subpath "/home/me"))
      (deny file-write*
        (subpath "/work/project/.git")
        (subpath "/work/project/vendor/lib/.git")
        (subpath "/work/project/.clawsmith")
        (subpath "/work/project/.envrc"))
      (deny network*)
      "
    `);
  });

  it('allows the network when the plan does, and quotes paths', () => {
    const profile = macosSandboxProfile(buildSandboxPlan(input({ network: true, workspaceRoot: '/Users/me/a "b"' })));
    expect(profile).toContain('(allow network*)');
    expect(profile).toContain(String.raw`(subpath "/Users/me/a \"b\"")`);
  });
});
