import { readdirSync, type Dirent } from 'node:fs';
import { join } from 'node:path';

/** At most this many files of a skill are listed. */
export const MAX_LISTED_SKILL_FILES = 100;
const MAX_DEPTH = 4;

/**
 * The files of a skill's folder beside `SKILL.md`, relative with `/`, sorted, at most
 * {@link MAX_LISTED_SKILL_FILES}; hidden entries and links are not followed.
 */
export function listSkillFiles(folder: string): { files: string[]; more: boolean } {
  const files: string[] = [];
  let more = false;
  const walk = (directory: string, prefix: string, depth: number) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(directory, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((left, right) => (left.name < right.name ? -1 : 1));
    for (const entry of entries) {
      if (entry.name.startsWith('.') || more) continue;
      const path = `${prefix}${entry.name}`;
      if (entry.isDirectory()) {
        if (depth < MAX_DEPTH) walk(join(directory, entry.name), `${path}/`, depth + 1);
        continue;
      }
      if (path === 'SKILL.md') continue;
      if (files.length === MAX_LISTED_SKILL_FILES) {
        more = true;
        return;
      }
      files.push(entry.isSymbolicLink() ? `${path} (link)` : path);
    }
  };
  walk(folder, '', 1);
  return { files, more };
}
