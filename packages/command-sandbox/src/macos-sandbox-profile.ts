import type { SandboxPlan } from './sandbox-plan.js';

function quote(path: string): string {
  return JSON.stringify(path);
}

/**
 * A macOS `sandbox-exec` profile (SBPL) with the intent of `plan`: deny by default; read
 * anywhere; write only the workspace, the private temporary folders and /dev/null; never the
 * protected paths; no network unless the plan allows it; signals only within the sandbox. Run as
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
  if (plan.protectedPaths.length > 0) {
    lines.push('(deny file-write*', ...plan.protectedPaths.map((path) => `  (subpath ${quote(path)})`));
    lines[lines.length - 1] += ')';
  }
  lines.push(plan.network ? '(allow network*)' : '(deny network*)');
  return `${lines.join('\n')}\n`;
}
