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

function homeNotes(homeDir: string, files: MemorySourceFile[]): number {
  const root = join(homeDir, 'memory');
  let leftOut = 0;
  const walk = (folder: string, depth: number) => {
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
        if (files.length >= MAX_MEMORY_FILES) {
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
  walk(root, 1);
  return leftOut;
}

/**
 * What memory indexes (decided): every `*.md` below `<home>/memory/` (the person's notes; hidden
 * entries and links skipped, at most {@link MAX_MEMORY_FILES}) and the workspace's `AGENTS.md` and
 * `CLAWSMITH.md` when they are regular files (not links) at its root.
 */
export function listMemorySources(homeDir: string | undefined, workspaceRoot: string | undefined): MemorySourceList {
  const files: MemorySourceFile[] = [];
  const leftOut = homeDir !== undefined ? homeNotes(homeDir, files) : 0;
  if (workspaceRoot !== undefined) {
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
  }
  return { files, leftOut };
}
