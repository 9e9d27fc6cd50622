import { randomBytes } from 'node:crypto';
import {
  closeSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { SELF_COMMON_DIRECTORY } from './git-folder-guard.js';
import { processIsAlive } from '@clawsmith/platform';

// Which running sandboxes, of any process of this user, use each placeholder: removing a mount
// point on the host while another sandbox has it mounted detaches that sandbox's guard (Linux
// drops the mounts of an unlinked file in every other namespace), so the last user removes it.
// Each sandbox that holds placeholders writes one use file `<pid>-<random>` listing them (JSON);
// a lock file serialises the check-then-act steps of all processes.

const LOCK_WAIT_MS = 5_000;
const LOCK_NAME = 'lock';
const PAUSE = new Int32Array(new SharedArrayBuffer(4));

function registryRoot(): string {
  const uid = process.getuid?.() ?? 0;
  return join(process.env.XDG_RUNTIME_DIR || tmpdir(), `clawsmith-mount-points-${uid}`);
}

/**
 * Marks the placeholders one more sandbox uses; returns the function that ends that use. They are
 * the ones its plan `made` (absent paths bubblewrap creates as mount points) and, among the
 * protected paths it `bound` as existing, those that are another running sandbox's placeholders.
 * Throws `Error` when the registry cannot be written: the command must not start then, as its
 * guard could be detached by another command's end.
 */
export function holdPlaceholders(
  made: readonly string[],
  bound: readonly string[] = [],
  contents: ReadonlyMap<string, string> = new Map(),
): () => void {
  if (made.length === 0 && bound.length === 0) return () => undefined;
  const root = registryRoot();
  const use = `${process.pid}-${randomBytes(6).toString('hex')}`;
  const held = withRegistryLock(root, () => {
    const others = heldByRunningSandboxes(root);
    const paths = [...made, ...bound.filter((path) => !made.includes(path) && others.has(path))];
    if (paths.length > 0) writeFileSync(join(root, use), JSON.stringify(paths), { flag: 'wx', mode: 0o600 });
    // Registered first, so that a failure here still lets the release remove what was written.
    for (const [path, content] of contents) writePlaceholder(path, content);
    return paths;
  });
  let released = false;
  return () => {
    if (released || held.length === 0) return;
    released = true;
    try {
      withRegistryLock(root, () => {
        unlinkQuietly(join(root, use));
        const others = heldByRunningSandboxes(root);
        for (const path of held) if (!others.has(path)) removeIfEmpty(path);
      });
    } catch {
      // The registry is unusable: leave the placeholders (empty files or folders) in place.
    }
  };
}

/** The placeholders the use files of running processes list; use files of ended processes are removed. */
function heldByRunningSandboxes(root: string): Set<string> {
  const held = new Set<string>();
  for (const entry of readdirSync(root)) {
    if (entry === LOCK_NAME) continue;
    const file = join(root, entry);
    if (!processIsAlive(Number(entry.split('-')[0]))) {
      unlinkQuietly(file);
      continue;
    }
    for (const path of readUse(file)) held.add(path);
  }
  return held;
}

function readUse(file: string): string[] {
  try {
    const paths: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return Array.isArray(paths) ? paths.filter((path): path is string => typeof path === 'string') : [];
  } catch {
    return []; // gone meanwhile
  }
}

/** Runs `action` holding the registry's lock file; a lock left by an ended process is broken. */
function withRegistryLock<T>(root: string, action: () => T): T {
  mkdirSync(root, { recursive: true, mode: 0o700 });
  const owner = lstatSync(root);
  if (!owner.isDirectory() || owner.uid !== (process.getuid?.() ?? owner.uid))
    throw new Error(`${root} is not a folder of this user; placeholders cannot be tracked`);
  const lock = join(root, LOCK_NAME);
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      const descriptor = openSync(lock, 'wx', 0o600);
      writeSync(descriptor, String(process.pid));
      closeSync(descriptor);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (lockAbandoned(lock)) unlinkQuietly(lock);
      else if (Date.now() > deadline) throw new Error(`${lock} stayed locked for ${LOCK_WAIT_MS} ms`);
      else Atomics.wait(PAUSE, 0, 0, 1);
    }
  }
  try {
    return action();
  } finally {
    unlinkQuietly(lock);
  }
}

/** Whether the lock's holder ended (or never wrote its pid, long ago): then the lock may be broken. */
function lockAbandoned(lock: string): boolean {
  try {
    const holder = readFileSync(lock, 'utf8');
    if (holder !== '') return !processIsAlive(Number(holder));
    return Date.now() - lstatSync(lock).mtimeMs > 1_000;
  } catch {
    return false; // gone meanwhile: try again
  }
}

/** Writes a placeholder that must hold `content` (a git `commondir` naming its own folder); one already there must hold it too. */
function writePlaceholder(path: string, content: string): void {
  try {
    writeFileSync(path, content, { flag: 'wx', mode: 0o644 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || readFileSync(path, 'utf8') !== content) throw error;
  }
}

/** A placeholder with content: a `commondir` naming its own folder, which git reads as no file at all. */
function selfCommonDirectory(path: string, size: number): boolean {
  if (basename(path) !== 'commondir' || size !== SELF_COMMON_DIRECTORY.length) return false;
  return readFileSync(path, 'utf8') === SELF_COMMON_DIRECTORY;
}

/** Removes the empty folder or empty file bubblewrap left as a mount point (or a self `commondir`); anything else stays. */
function removeIfEmpty(path: string): void {
  try {
    const stats = lstatSync(path);
    if (stats.isDirectory()) rmdirSync(path);
    else if (stats.isFile() && (stats.size === 0 || selfCommonDirectory(path, stats.size))) unlinkSync(path);
  } catch {
    // Not empty (someone wrote there after the run) or already gone: keep what is there.
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
