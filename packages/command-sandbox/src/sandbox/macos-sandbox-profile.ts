import type { SandboxPlan } from './sandbox-plan.js';

function quote(path: string): string {
  return JSON.stringify(path);
}

function inside(folder: string, path: string): boolean {
  return path === folder || path.startsWith(folder.endsWith('/') ? folder : `${folder}/`);
}

function rule(action: string, paths: readonly string[]): string[] {
  if (paths.length === 0) return [];
  const lines = [`(${action}`, ...paths.map((path) => `  (subpath ${quote(path)})`)];
  lines[lines.length - 1] += ')';
  return lines;
}

/**
 * A macOS `sandbox-exec` profile (SBPL) with the intent of `plan`: deny by default; read
 * anywhere but the hidden folders; write only the workspace, the private temporary folders and
 * /dev/null; never the protected paths; no network unless the plan allows it; signals only
 * within the sandbox. SBPL's last matching rule wins, so the order is the meaning: hidden
 * folders are denied after the broad allows, the workspace is allowed again after them (a
 * workspace inside a hidden home stays reachable, as with bubblewrap), and protected paths and
 * hidden folders inside the workspace are denied last. Run as
 * `sandbox-exec -p <profile> /bin/bash --noprofile --norc -c <command>` with the plan's
 * environment. It cannot run on Linux, so it is tested as text.
 */
export function macosSandboxProfile(
  plan: SandboxPlan,
  temporaryFolders: readonly string[] = ['/private/tmp', '/private/var/folders'],
): string {
  const writable = [plan.workspaceRoot, ...temporaryFolders].map((path) => `  (subpath ${quote(path)})`);
  const lines = [
    '(version 1)',
    '(deny default)',
    '(allow process-exec)',
    '(allow process-fork)',
    '(allow signal (target same-sandbox))',
    '(allow sysctl-read)',
    '(allow mach-lookup)',
    '(allow ipc-posix-shm)',
    '(allow file-read*)',
    '(allow file-write*',
    ...writable,
    '  (literal "/dev/null")',
    '  (literal "/dev/tty")',
    '  (regex #"^/dev/fd/[0-9]+$"))',
  ];
  const hiddenOutside = plan.hiddenPaths.filter((path) => !inside(plan.workspaceRoot, path));
  const hiddenInside = plan.hiddenPaths.filter(
    (path) => path !== plan.workspaceRoot && inside(plan.workspaceRoot, path),
  );
  lines.push(...rule('deny file-read* file-write*', hiddenOutside));
  if (hiddenOutside.some((path) => inside(path, plan.workspaceRoot)))
    lines.push(...rule('allow file-read* file-write*', [plan.workspaceRoot]));
  lines.push(...rule('deny file-write*', plan.protectedPaths));
  lines.push(...rule('deny file-read* file-write*', hiddenInside));
  lines.push(plan.network ? '(allow network*)' : '(deny network*)');
  return `${lines.join('\n')}\n`;
}
