import { readFileSync, renameSync, writeFileSync, type Stats } from 'node:fs';
import { join } from 'node:path';

/** The file in the home where discovery keeps what it read of each `SKILL.md`. */
export const SKILL_CACHE_FILE = 'skills-cache.json';
/** At most this many files are remembered; beyond it, only those of the latest discovery are kept. */
export const MAX_SKILL_CACHE_ENTRIES = 10_000;
/** A file changed less than this long ago is not remembered (see {@link SkillCache.remember}). */
export const DEFAULT_SKILL_CACHE_SETTLED_MS = 2_000;

const CACHE_VERSION = 1;

/** What a `SKILL.md`'s own content says, before its folder's name is compared with `name`. */
export type SkillVerdict =
  | { readonly ok: true; readonly name: string; readonly description: string; readonly nameLine: number }
  | { readonly ok: false; readonly line: number; readonly message: string };

interface CacheEntry {
  readonly dev: number;
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly verdict: SkillVerdict;
}

function isVerdict(value: unknown): value is SkillVerdict {
  const verdict = value as Record<string, unknown> | null;
  if (typeof verdict !== 'object' || verdict === null) return false;
  return verdict.ok === true
    ? typeof verdict.name === 'string' &&
        typeof verdict.description === 'string' &&
        typeof verdict.nameLine === 'number'
    : verdict.ok === false && typeof verdict.line === 'number' && typeof verdict.message === 'string';
}

function isEntry(value: unknown): value is CacheEntry {
  const entry = value as Record<string, unknown> | null;
  return (
    typeof entry === 'object' &&
    entry !== null &&
    ['dev', 'ino', 'size', 'mtimeMs', 'ctimeMs'].every((key) => typeof entry[key] === 'number') &&
    isVerdict(entry.verdict)
  );
}

function sameFile(entry: CacheEntry, stat: Stats): boolean {
  return (
    entry.dev === stat.dev &&
    entry.ino === stat.ino &&
    entry.size === stat.size &&
    entry.mtimeMs === stat.mtimeMs &&
    entry.ctimeMs === stat.ctimeMs
  );
}

/**
 * What discovery read of each `SKILL.md`, kept in the home and keyed by the file's path and
 * identity (device, inode, size, modification and change times), so an unchanged skill costs one
 * `stat` at startup instead of an open, a read and a parse. A cache file that is missing, of
 * another version or malformed is ignored and rewritten; failing to write it costs only speed.
 */
export class SkillCache {
  readonly #file: string | undefined;
  readonly #settledMs: number;
  readonly #entries = new Map<string, CacheEntry>();
  readonly #seen = new Set<string>();
  #changed = false;

  /** `homeDir` undefined: a cache that remembers nothing (discovery without a home). */
  constructor(homeDir: string | undefined, settledMs = DEFAULT_SKILL_CACHE_SETTLED_MS) {
    this.#file = homeDir === undefined ? undefined : join(homeDir, SKILL_CACHE_FILE);
    this.#settledMs = settledMs;
    if (this.#file === undefined) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(this.#file, 'utf8'));
    } catch {
      return;
    }
    const cache = parsed as { version?: unknown; files?: unknown } | null;
    if (cache?.version !== CACHE_VERSION || typeof cache.files !== 'object' || cache.files === null) return;
    for (const [path, entry] of Object.entries(cache.files)) if (isEntry(entry)) this.#entries.set(path, entry);
  }

  /** Whether this cache keeps anything (false without a home, or with `cache: false`). */
  get remembers(): boolean {
    return this.#file !== undefined;
  }

  /** The remembered verdict of `path` when `stat` shows the very file it was read from. */
  lookup(path: string, stat: Stats): SkillVerdict | undefined {
    this.#seen.add(path);
    const entry = this.#entries.get(path);
    return entry && sameFile(entry, stat) ? entry.verdict : undefined;
  }

  /**
   * Remembers a verdict read after `stat` was taken. Only a file whose last change is
   * `settledMs` old: a file system with coarse timestamps could otherwise hide an edit made in the
   * same tick as the read (the change time cannot be set back, so a later edit always shows).
   * `settledMs` 0 keeps every file, however fresh.
   */
  remember(path: string, stat: Stats, verdict: SkillVerdict, now = Date.now()): void {
    this.#seen.add(path);
    const fresh = this.#settledMs > 0 && now - Math.max(stat.mtimeMs, stat.ctimeMs) < this.#settledMs;
    if (this.#file === undefined || fresh) {
      this.#changed ||= this.#entries.delete(path);
      return;
    }
    const { dev, ino, size, mtimeMs, ctimeMs } = stat;
    this.#entries.set(path, { dev, ino, size, mtimeMs, ctimeMs, verdict });
    this.#changed = true;
  }

  /** Forgets files of the searched `folders` that this discovery did not see, and writes the cache if it changed. */
  save(folders: readonly string[]): void {
    if (this.#file === undefined) return;
    for (const path of this.#entries.keys()) {
      const searched = folders.some((folder) => path.startsWith(folder));
      if ((searched || this.#entries.size > MAX_SKILL_CACHE_ENTRIES) && !this.#seen.has(path)) {
        this.#entries.delete(path);
        this.#changed = true;
      }
    }
    if (!this.#changed) return;
    const temporary = `${this.#file}.${process.pid}.tmp`;
    try {
      writeFileSync(temporary, JSON.stringify({ version: CACHE_VERSION, files: Object.fromEntries(this.#entries) }));
      renameSync(temporary, this.#file);
    } catch {
      // Only speed is lost: the next discovery reads the files again.
    }
    this.#changed = false;
  }
}
