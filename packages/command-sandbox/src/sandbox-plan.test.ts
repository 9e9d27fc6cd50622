import { describe, expect, it } from 'vitest';
import {
  bubblewrapArguments,
  buildSandboxPlan,
  DEFAULT_SANDBOX_LIMITS,
  macosSandboxProfile,
  type PathKind,
  type SandboxPlanInput,
} from './index.js';

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

describe('buildSandboxPlan', () => {
  it('plans a read-only root, private tmp, hidden home, writable workspace and read-only protected paths, in that order', () => {
    const plan = buildSandboxPlan(input());
    expect(plan.mounts.map((mount) => `${mount.kind} ${mount.source ?? ''}:${mount.target}`)).toEqual([
      'read-only /:/',
      'devices :/dev',
      'processes :/proc',
      'tmpfs :/tmp',
      'tmpfs :/var/tmp',
      'tmpfs :/run',
      'tmpfs :/home/me',
      'read-write /work/project:/work/project',
      'read-only /work/project/.git/hooks:/work/project/.git/hooks',
      'read-only /work/project/.git/config:/work/project/.git/config',
      'read-only-empty :/work/project/.clawsmith',
    ]);
    expect(plan.namespaces).toEqual({ user: true, pid: true, network: true, ipc: true, uts: true, cgroup: true });
    expect(plan).toMatchObject({ network: false, newSession: true, dieWithParent: true, dropCapabilities: true });
    expect(plan.environment).toEqual({ PATH: '/usr/bin:/bin', HOME: '/home/me', TMPDIR: '/tmp' });
    expect(plan.protectedPaths).toEqual([
      '/work/project/.git/hooks',
      '/work/project/.git/config',
      '/work/project/.clawsmith',
    ]);
  });

  it('shares the network only when allowed, and skips git paths outside a repository', () => {
    const plan = buildSandboxPlan(
      input(
        { network: true },
        {
          '/work/project/.git': 'missing',
          '/work/project/.git/hooks': 'missing',
          '/work/project/.git/config': 'missing',
        },
      ),
    );
    expect(plan.namespaces.network).toBe(false);
    expect(plan.protectedPaths).toEqual(['/work/project/.clawsmith']);
  });

  it('guards an absent protected file with /dev/null rather than a folder', () => {
    const plan = buildSandboxPlan(input({}, { '/work/project/.git/config': 'missing' }));
    expect(plan.mounts).toContainEqual({
      kind: 'read-only',
      source: '/dev/null',
      target: '/work/project/.git/config',
      purpose: 'protected (absent): .git/config',
    });
  });
});

describe('bubblewrapArguments', () => {
  it('turns the plan into a bubblewrap command line with a cleared environment and the limited command', () => {
    const argv = bubblewrapArguments(buildSandboxPlan(input()));
    expect(argv.join(' ')).toBe(
      [
        '--ro-bind / / --dev /dev --proc /proc --size 536870912 --tmpfs /tmp --size 536870912 --tmpfs /var/tmp',
        '--size 536870912 --tmpfs /run --size 536870912 --tmpfs /home/me',
        '--bind /work/project /work/project',
        '--ro-bind /work/project/.git/hooks /work/project/.git/hooks --ro-bind /work/project/.git/config /work/project/.git/config',
        '--perms 0555 --tmpfs /work/project/.clawsmith --remount-ro /work/project/.clawsmith',
        '--unshare-user --unshare-pid --unshare-net --unshare-ipc --unshare-uts --hostname clawsmith-sandbox --unshare-cgroup-try',
        '--new-session --die-with-parent --cap-drop ALL --clearenv',
        '--setenv HOME /home/me --setenv PATH /usr/bin:/bin --setenv TMPDIR /tmp --chdir /work/project/src --',
        '/bin/bash --noprofile --norc -c',
        'ulimit -t 300 -f 1048576 -n 1024 -u 1024 -v 4194304 || exit 125\nexec 2>&1\nnpm test',
      ].join(' '),
    );
  });

  it('leaves out --unshare-net when the network is allowed', () => {
    expect(bubblewrapArguments(buildSandboxPlan(input({ network: true })))).not.toContain('--unshare-net');
  });
});

describe('macosSandboxProfile', () => {
  it('denies by default, writes only the workspace and temporary folders, never the protected paths, no network', () => {
    expect(macosSandboxProfile(buildSandboxPlan(input()))).toMatchInlineSnapshot(`
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
      (deny file-write*
        (subpath "/work/project/.git/hooks")
        (subpath "/work/project/.git/config")
        (subpath "/work/project/.clawsmith"))
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
