import { WORKSPACE_FS_ERROR_CODES, WorkspaceFsError } from './workspace-fs-error.js';

/** One line of a hunk: kept (` `), removed (`-`) or added (`+`). */
export interface HunkLine {
  readonly kind: ' ' | '-' | '+';
  readonly text: string;
  /** The `\ No newline at end of file` marker followed this line. */
  readonly noNewline: boolean;
}

/** One `@@ -a,b +c,d @@` hunk. */
export interface Hunk {
  readonly header: string;
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
  readonly lines: readonly HunkLine[];
}

/** The changes of one file: `oldPath` null for a new file, `newPath` null for a deleted one. */
export interface FilePatch {
  readonly oldPath: string | null;
  readonly newPath: string | null;
  /** The mode of a new file (`new file mode 100755`). */
  readonly newFileMode?: number;
  readonly hunks: readonly Hunk[];
  /** Why this file's change cannot be applied as text (binary, rename, mode change), if so. */
  readonly unsupported?: string;
}

function invalid(message: string): WorkspaceFsError {
  return new WorkspaceFsError(
    WORKSPACE_FS_ERROR_CODES.patchInvalid,
    `${message} Send a unified diff (git diff output).`,
  );
}

const ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  '"': '"',
  '\\': '\\',
  a: '\x07',
  b: '\b',
  f: '\f',
  r: '\r',
  v: '\v',
};

/** Git quotes names with special characters C-style, octal bytes included. */
function unquote(name: string): string {
  if (!name.startsWith('"')) return name;
  const bytes: number[] = [];
  for (let index = 1; index < name.length; index += 1) {
    const char = name[index]!;
    if (char === '"') return Buffer.from(bytes).toString('utf8');
    if (char !== '\\') {
      bytes.push(...Buffer.from(char, 'utf8'));
      continue;
    }
    const next = name[index + 1] ?? '';
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(name.slice(index + 1, index + 4), 8));
      index += 3;
    } else {
      bytes.push(...Buffer.from(ESCAPES[next] ?? next, 'utf8'));
      index += 1;
    }
  }
  throw invalid(`The quoted file name ${name} has no closing quote.`);
}

/** The path of a `---`/`+++` line: null for /dev/null, else without the `a/` or `b/` prefix and any timestamp. */
function headerPath(rest: string): string | null {
  const name = rest.startsWith('"') ? unquote(rest) : rest.split('\t')[0]!.trimEnd();
  if (name === '/dev/null') return null;
  return name.replace(/^[ab]\//, '');
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

function readHunk(lines: readonly string[], start: number): { hunk: Hunk; next: number } {
  const header = lines[start]!;
  const match = HUNK_HEADER.exec(header);
  if (!match) throw invalid(`Line ${start + 1} is not a hunk header: ${JSON.stringify(header.slice(0, 80))}.`);
  const oldLines = match[2] === undefined ? 1 : Number(match[2]);
  const newLines = match[4] === undefined ? 1 : Number(match[4]);
  const body: HunkLine[] = [];
  let oldSeen = 0;
  let newSeen = 0;
  let index = start + 1;
  while (oldSeen < oldLines || newSeen < newLines) {
    const line = lines[index];
    if (line === undefined)
      throw invalid(`The hunk ${header} ends early: it announces ${oldLines} old and ${newLines} new lines.`);
    // Some tools strip the space of an empty context line.
    const kind = line === '' ? ' ' : line[0];
    if (kind !== ' ' && kind !== '-' && kind !== '+') {
      throw invalid(`Line ${index + 1} in the hunk ${header} starts with neither " ", "-" nor "+".`);
    }
    body.push({ kind, text: line.slice(1), noNewline: false });
    if (kind !== '+') oldSeen += 1;
    if (kind !== '-') newSeen += 1;
    index += 1;
    if (lines[index]?.startsWith('\\')) {
      body[body.length - 1] = { ...body[body.length - 1]!, noNewline: true };
      index += 1;
    }
  }
  if (oldSeen !== oldLines || newSeen !== newLines)
    throw invalid(`The hunk ${header} holds ${oldSeen} old and ${newSeen} new lines, not what its header says.`);
  const hunk = {
    header: match[0],
    oldStart: Number(match[1]),
    oldLines,
    newStart: Number(match[3]),
    newLines,
    lines: body,
  };
  return { hunk, next: index };
}

interface Section {
  oldPath?: string | null;
  newPath?: string | null;
  gitOld?: string;
  gitNew?: string;
  newFileMode?: number;
  deleted?: boolean;
  unsupported?: string;
  hunks: Hunk[];
}

function finish(section: Section): FilePatch {
  const deleted = section.deleted === true || section.newPath === null;
  const created = section.newFileMode !== undefined || section.oldPath === null;
  const oldPath = created ? null : (section.oldPath ?? section.gitOld ?? null);
  const newPath = deleted ? null : (section.newPath ?? section.gitNew ?? null);
  if (oldPath === null && newPath === null) throw invalid('A file section names no file.');
  return {
    oldPath,
    newPath,
    ...(section.newFileMode !== undefined ? { newFileMode: section.newFileMode } : {}),
    hunks: section.hunks,
    ...(section.unsupported ? { unsupported: section.unsupported } : {}),
  };
}

/**
 * Parses a unified diff (`git diff` output, or plain `diff -u` with `---`/`+++` headers) into
 * file patches. Text before the first file and git's `index` lines are ignored; binary
 * patches, renames, copies and mode changes of existing files are kept as `unsupported`.
 * Throws `patch_invalid` for text that is not a well-formed unified diff.
 */
export function parseUnifiedDiff(text: string): FilePatch[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const files: FilePatch[] = [];
  let section: Section | undefined;
  const close = () => {
    if (section) files.push(finish(section));
    section = undefined;
  };
  for (let index = 0; index < lines.length;) {
    const line = lines[index]!;
    if (line.startsWith('diff --git ')) {
      close();
      const names = /^diff --git (?:"?a\/)(.*?)"? (?:"?b\/)(.*?)"?$/.exec(line);
      section = { hunks: [], ...(names ? { gitOld: names[1]!, gitNew: names[2]! } : {}) };
      index += 1;
    } else if (line.startsWith('--- ') && lines[index + 1]?.startsWith('+++ ')) {
      if (!section || section.hunks.length > 0 || section.oldPath !== undefined) {
        close();
        section = { hunks: [] };
      }
      section.oldPath = headerPath(line.slice(4));
      section.newPath = headerPath(lines[index + 1]!.slice(4));
      index += 2;
    } else if (line.startsWith('@@ ')) {
      if (!section || section.oldPath === undefined)
        throw invalid(`The hunk at line ${index + 1} has no ---/+++ file header before it.`);
      const { hunk, next } = readHunk(lines, index);
      section.hunks.push(hunk);
      index = next;
    } else {
      if (section) {
        const mode = /^new file mode (\d+)$/.exec(line);
        if (mode) section.newFileMode = parseInt(mode[1]!, 8) & 0o7777;
        else if (line.startsWith('deleted file mode ')) section.deleted = true;
        else if (line.startsWith('GIT binary patch') || line.startsWith('Binary files '))
          section.unsupported = 'it is a binary change';
        else if (/^(rename|copy) (from|to) /.test(line))
          section.unsupported = 'it is a rename or copy (make the patch with --no-renames)';
        else if (line.startsWith('new mode ')) section.unsupported = 'it changes the file mode';
      }
      index += 1;
    }
  }
  close();
  if (files.length === 0) throw invalid('The patch names no file.');
  return files;
}

/** Every path a patch names (old and new sides), for permission rules; none when it cannot be parsed. */
export function patchedPaths(text: string): string[] {
  try {
    const paths = new Set<string>();
    for (const file of parseUnifiedDiff(text)) {
      if (file.oldPath !== null) paths.add(file.oldPath);
      if (file.newPath !== null) paths.add(file.newPath);
    }
    return [...paths];
  } catch {
    return [];
  }
}
