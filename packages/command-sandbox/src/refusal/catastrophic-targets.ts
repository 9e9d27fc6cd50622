import { homedir } from 'node:os';
import { posix } from 'node:path';
import type { Field } from '../shell/word-fields.js';

/** Where paths in a command are resolved: the working folder and the home folders to protect. */
export interface TargetContext {
  /** Absolute working folder of the command, for relative paths with `..`. */
  readonly workingDirectory: string;
  /** Home folders that must never be deleted or re-permissioned recursively. */
  readonly homes: readonly string[];
  /**
   * The working folder when it is known, and the folders the script changes into with `cd` or
   * `pushd`: relative paths (`.`, `*`) are judged in each of them.
   */
  readonly changedDirectories?: readonly string[];
  /** The workspace root: a recursive delete of the root itself (or of everything in it) is refused. */
  readonly workspaceRoot?: string;
}

const SYSTEM_ROOTS = new Set([
  'bin',
  'boot',
  'dev',
  'etc',
  'home',
  'lib',
  'lib32',
  'lib64',
  'libx32',
  'media',
  'mnt',
  'opt',
  'proc',
  'root',
  'run',
  'sbin',
  'snap',
  'srv',
  'sys',
  'usr',
  'var',
  'Users',
  'System',
  'Library',
  'Applications',
]);

const GLOB = /[*?[]/;

/** The default {@link TargetContext} homes: this process's home and `$HOME`. */
export function defaultHomes(): string[] {
  const homes = new Set<string>();
  for (const home of [homedir(), process.env.HOME])
    if (home && home.startsWith('/') && home !== '/') homes.add(posix.normalize(home).replace(/\/+$/, ''));
  return [...homes];
}

/** Resolves `~`, `..` and repeated slashes; undefined for a relative path that stays relative-safe. */
export function resolveTargetPath(
  text: string,
  context: Pick<TargetContext, 'workingDirectory' | 'homes'>,
): string | undefined {
  let path = text;
  if (path.startsWith('~')) {
    const slash = path.indexOf('/');
    const user = slash === -1 ? path.slice(1) : path.slice(1, slash);
    const rest = slash === -1 ? '' : path.slice(slash);
    const home = user === '' ? (context.homes[0] ?? '/root') : `/home/${user}`;
    path = `${home}${rest}`;
  }
  if (!path.startsWith('/')) {
    if (!path.split('/').includes('..')) return undefined;
    path = posix.join(context.workingDirectory, path);
  }
  const normalized = posix.normalize(path).replace(/\/+$/, '');
  return normalized === '' ? '/' : normalized;
}

/** Why `field` names something catastrophic to delete or re-permission recursively, or undefined. */
export function catastrophicTarget(field: Field, context: TargetContext): string | undefined {
  if (field.text === '' && field.dynamic) return undefined;
  const relative = !field.text.startsWith('/') && !field.text.startsWith('~');
  if (relative) {
    // `cd / && rm -rf *`: a relative path is as dangerous as the folder the script moved to.
    for (const directory of context.changedDirectories ?? []) {
      const reason = catastrophicPath(posix.join(directory, field.text), field.text, context);
      if (reason) return reason;
    }
  }
  const path = resolveTargetPath(field.text, context);
  return path === undefined ? undefined : catastrophicPath(path, field.text, context);
}

function catastrophicPath(resolved: string, written: string, context: TargetContext): string | undefined {
  const field = { text: written };
  const path = posix.normalize(resolved).replace(/\/+$/, '') || '/';
  if (path === '/') return 'the root folder';
  const segments = path.slice(1).split('/');
  const first = segments[0] ?? '';
  if (GLOB.test(first)) return `everything under / (${field.text})`;
  for (const home of context.homes) {
    if (
      path === home ||
      (path.startsWith(`${home}/`) && segments.length === home.split('/').length && GLOB.test(segments.at(-1) ?? ''))
    ) {
      return `the home folder (${field.text})`;
    }
  }
  if (/^\/(home|Users)\/[^/]+$/.test(path)) return `a home folder (${field.text})`;
  const workspace = context.workspaceRoot;
  if (workspace && workspace !== '/') {
    if (path === workspace) return `the workspace root (${field.text})`;
    const rest = path.startsWith(`${workspace}/`) ? path.slice(workspace.length + 1) : undefined;
    if (rest !== undefined && /^\*+$/.test(rest)) return `everything in the workspace (${field.text})`;
  }
  if (SYSTEM_ROOTS.has(first) && segments.length === 1) return `the system folder /${first}`;
  if (SYSTEM_ROOTS.has(first) && segments.length === 2 && /^\*+$/.test(segments[1] ?? ''))
    return `everything in /${first}`;
  return undefined;
}

const BLOCK_DEVICE =
  /^\/dev\/(sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|dm-\d|md\d|loop\d|sr\d|mapper\/|disk\/|nbd\d|rbd\d|zd\d|mem$|kmem$|port$)/;

/** Whether `field` names a block device or raw memory (`/dev/sda`, `/dev/nvme0n1p1`, `/dev/mem`). */
export function isBlockDevice(field: Field): boolean {
  const path = posix.normalize(field.text.replace(/^\/+/, '/'));
  return BLOCK_DEVICE.test(path) || (path.startsWith('/dev/') && GLOB.test(path) && !path.startsWith('/dev/fd/'));
}

/** Whether `field` is the kernel's SysRq trigger or switch. */
export function isSysrqPath(field: Field): boolean {
  const path = posix.normalize(field.text.replace(/^\/+/, '/'));
  return path === '/proc/sysrq-trigger' || path === '/proc/sys/kernel/sysrq';
}
