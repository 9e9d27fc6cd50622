import { lstatSync, readdirSync, statSync, type Dirent } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** At most this many memory files are indexed from the home; the rest are reported. */
export const MAX_MEMORY_FILES = 20_000;
/** At most this many bytes of one memory file are indexed. */
export const MAX_MEMORY_FILE_BYTES = 1024 * 1024;
/** The workspace files that are indexed as memory, when present at the workspace root. */
export const WORKSPACE_MEMORY_FILES: readonly string[] = Object.freeze(['AGENTS.md', 'CLAWSMITH.md']);

const MAX_DEPTH = 6;

/** A file that memory indexes, with what tells whether it changed. */
export interface MemorySourceFile {
  /** Absolute path. */
  readonly path: string;
  /** How results name it: `memory/…` for the home's notes, the file name for a workspace file. */
  readonly source: string;
  /** `home`, or the workspace root the file belongs to. */
  readonly owner: string;
  readonly mtimeMs: number;
  readonly size: number;
}

/** The files to index and how many were left out by the limit. */
export interface MemorySourceList {
  readonly files: readonly MemorySourceFile[];
  readonly leftOut: number;
}

/** Where to list notes: below `under` (default the whole `memory/` folder), telling `onFolder` each folder first. */
export interface HomeNotesOptions {
  readonly under?: string;
  readonly onFolder?: (folder: string) => void;
  /** At most this many notes (default {@link MAX_MEMORY_FILES}). */
  readonly limit?: number;
}

/** The home's notes below `memory/` (or below `options.under`, a folder inside it). */
export function listHomeNotes(homeDir: string, options: HomeNotesOptions = {}): MemorySourceList {
  const root = join(homeDir, 'memory');
  const files: MemorySourceFile[] = [];
  const limit = options.limit ?? MAX_MEMORY_FILES;
  let leftOut = 0;
  const walk = (folder: string, depth: number) => {
    options.onFolder?.(folder);
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (depth < MAX_DEPTH) walk(path, depth + 1);
      } else if (entry.isFile() && entry.name.endsWith('.md')) {
        if (files.length >= limit) {
          leftOut += 1;
          continue;
        }
        try {
          const stat = statSync(path);
          files.push({
            path,
            source: `memory/${relative(root, path).split(sep).join('/')}`,
            owner: 'home',
            mtimeMs: stat.mtimeMs,
            size: stat.size,
          });
        } catch {
          // removed while listing
        }
      }
    }
  };
  const start = options.under ?? root;
  walk(start, 1 + (start === root ? 0 : relative(root, start).split(sep).length));
  return { files, leftOut };
}

/** The workspace's memory files (`AGENTS.md`, `CLAWSMITH.md`) that are regular files at its root. */
export function listWorkspaceMemory(workspaceRoot: string): MemorySourceFile[] {
  const files: MemorySourceFile[] = [];
  for (const name of WORKSPACE_MEMORY_FILES) {
    const path = join(workspaceRoot, name);
    try {
      const stat = lstatSync(path);
      if (stat.isFile())
        files.push({ path, source: name, owner: workspaceRoot, mtimeMs: stat.mtimeMs, size: stat.size });
    } catch {
      // absent
    }
  }
  return files;
}

/**
 * What memory indexes (decided): every `*.md` below `<home>/memory/` (the person's notes; hidden
 * entries and links skipped, at most {@link MAX_MEMORY_FILES}) and the workspace's `AGENTS.md` and
 * `CLAWSMITH.md` when they are regular files (not links) at its root.
 */
export function listMemorySources(homeDir: string | undefined, workspaceRoot: string | undefined): MemorySourceList {
  const home = homeDir !== undefined ? listHomeNotes(homeDir) : { files: [], leftOut: 0 };
  const workspace = workspaceRoot !== undefined ? listWorkspaceMemory(workspaceRoot) : [];
  return { files: [...home.files, ...workspace], leftOut: home.leftOut };
}
