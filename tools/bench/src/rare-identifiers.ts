// Picks rare identifiers from the benchmark corpus, deterministically, for the search recall bench.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';

const MIB = 1024 * 1024;
const IDENTIFIER = /[A-Za-z_$][\w$]{13,}/g;

/** A picked identifier and the files (absolute) `rg -F -l` finds it in. */
export interface RareIdentifier {
  readonly text: string;
  readonly rgFiles: readonly string[];
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function headOf(path: string): Buffer {
  const size = Math.min(statSync(path).size, MIB);
  const buffer = Buffer.allocUnsafe(size);
  const descriptor = openSync(path, 'r');
  try {
    let filled = 0;
    while (filled < size) {
      const read = readSync(descriptor, buffer, filled, size - filled, filled);
      if (read === 0) break;
      filled += read;
    }
    return buffer.subarray(0, filled);
  } finally {
    closeSync(descriptor);
  }
}

/**
 * `count` identifiers of 14 or more characters that `rg -F -l` finds in 1 to 5 files of `root`
 * (skipping `skipped` folders), each match within a file's first MiB (what a search covers).
 * Deterministic: every identifier of the corpus whose SHA-256 starts with "0" is a candidate (a
 * sixteenth, to bound memory), taken in order of that hash.
 */
export function pickRareIdentifiers(
  root: string,
  skipped: readonly string[],
  rgArguments: readonly string[],
  count: number,
): RareIdentifier[] {
  const filesOf = new Map<string, number>();
  const walk = (folder: string) => {
    const entries = readdirSync(folder, { withFileTypes: true }).sort((left, right) =>
      left.name < right.name ? -1 : left.name > right.name ? 1 : 0,
    );
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!skipped.includes(entry.name)) walk(path);
        continue;
      }
      if (!entry.isFile()) continue;
      const head = headOf(path);
      if (head.subarray(0, 8000).includes(0)) continue;
      const seen = new Set<string>();
      for (const [text] of head.toString('latin1').matchAll(IDENTIFIER)) {
        if (seen.has(text) || digest(text)[0] !== '0') continue;
        seen.add(text);
        filesOf.set(text, Math.min(6, (filesOf.get(text) ?? 0) + 1));
      }
    }
  };
  walk(root);
  const ordered = [...filesOf]
    .filter(([, files]) => files <= 5)
    .map(([text]) => ({ text, hash: digest(text) }))
    .sort((left, right) => (left.hash < right.hash ? -1 : 1));
  const picked: RareIdentifier[] = [];
  for (const { text } of ordered) {
    if (picked.length === count) break;
    const rgFiles = spawnSync('rg', [...rgArguments, '-F', '-l', text, root], { maxBuffer: 64 * MIB })
      .stdout.toString()
      .split('\n')
      .filter(Boolean)
      .sort();
    // A substring of longer identifiers may sit in many more files; a match past the first MiB is
    // beyond what any search reads.
    if (rgFiles.length < 1 || rgFiles.length > 5) continue;
    if (!rgFiles.every((path) => headOf(path).includes(text, 0, 'latin1'))) continue;
    picked.push({ text, rgFiles });
  }
  return picked;
}
