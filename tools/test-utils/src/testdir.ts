import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { onTestFinished } from 'vitest';

/** A symbolic link in a {@link TestTree}, pointing at `target` (kept verbatim, relative or absolute). */
export interface SymlinkEntry {
  readonly symlink: string;
}

/** A file with an explicit mode in a {@link TestTree}. */
export interface FileEntry {
  readonly content: string | Uint8Array;
  readonly mode: number;
}

/**
 * A folder tree as an object literal: a string or bytes is a file, a nested object is a folder,
 * `{ symlink }` a symbolic link and `{ content, mode }` a file with a mode. Keys may contain `/`
 * to create intermediate folders.
 */
export interface TestTree {
  readonly [name: string]: string | Uint8Array | SymlinkEntry | FileEntry | TestTree;
}

function isSymlink(value: unknown): value is SymlinkEntry {
  return typeof value === 'object' && value !== null && 'symlink' in value;
}

function isFileEntry(value: unknown): value is FileEntry {
  return typeof value === 'object' && value !== null && 'content' in value && 'mode' in value;
}

/** Writes `tree` below the existing folder `root`. */
export function writeTree(root: string, tree: TestTree): void {
  for (const [name, value] of Object.entries(tree)) {
    const path = join(root, name);
    mkdirSync(dirname(path), { recursive: true });
    if (typeof value === 'string' || value instanceof Uint8Array) {
      writeFileSync(path, value);
    } else if (isSymlink(value)) {
      symlinkSync(value.symlink, path);
    } else if (isFileEntry(value)) {
      writeFileSync(path, value.content);
      chmodSync(path, value.mode);
    } else {
      mkdirSync(path, { recursive: true });
      writeTree(path, value as TestTree);
    }
  }
}

/** A temporary folder that the caller removes with `remove()`. */
export interface TemporaryTree {
  /** The real path of the folder (symlinks in the temp dir resolved). */
  readonly path: string;
  remove(): void;
}

/** Creates a temporary folder holding `tree`; the caller removes it. Usable outside vitest. */
export function createTestdir(tree: TestTree = {}, prefix = 'clawsmith-test-'): TemporaryTree {
  const path = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  writeTree(path, tree);
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/**
 * Creates a temporary folder holding `tree` and removes it when the current test finishes.
 * Returns its real path. Call it inside a test.
 */
export function testdir(tree: TestTree = {}): string {
  const dir = createTestdir(tree);
  onTestFinished(() => dir.remove());
  return dir.path;
}
