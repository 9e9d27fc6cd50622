import { lstatSync, readdirSync, realpathSync, statSync, type Dirent, type Stats } from 'node:fs';
import { sep } from 'node:path';
import { EXTENSIONS_ERROR_CODES } from '../extensions-error.js';
import { readFrontMatter, type FrontMatter } from './front-matter.js';
import { SkillCache, type SkillVerdict } from './skill-cache.js';
import { skillRoots, type SkillRoot, type SkillScope } from './skill-roots.js';

/** At most this many skills are discovered per root; the rest are reported as one problem. */
export const MAX_SKILLS_PER_ROOT = 1_000;
/** Longest skill name (the Agent Skills limit). */
export const MAX_SKILL_NAME_LENGTH = 64;
/** Longest skill description (the Agent Skills limit). */
export const MAX_SKILL_DESCRIPTION_LENGTH = 1_024;

const SKILL_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** A discovered skill: its front matter and where it lives. */
export interface Skill {
  readonly name: string;
  readonly description: string;
  /** The real path of the skill's folder: `skill_view` never reads outside it. */
  readonly folder: string;
  /** The path of its `SKILL.md`. */
  readonly file: string;
  readonly scope: SkillScope;
}

/** A skill that could not be used, with the file and 1-based line to fix. */
export interface SkillProblem {
  readonly file: string;
  readonly line: number;
  readonly code: string;
  readonly message: string;
}

/** Every skill found, by name, and what was wrong or shadowed. */
export interface SkillCatalog {
  /** Sorted by name; each name once. */
  readonly skills: readonly Skill[];
  readonly problems: readonly SkillProblem[];
  /** Skills left out because a skill of the same name came earlier (home before workspace). */
  readonly shadowed: readonly Skill[];
}

/** Where to look: the home and, optionally, one workspace. */
export interface DiscoverSkillsOptions {
  readonly homeDir?: string;
  readonly workspaceRoot?: string;
  /**
   * What was read of each `SKILL.md` is kept in the home's `skills-cache.json` (see
   * `SKILL_CACHE_FILE`) and reused while the file's identity, size and times are unchanged;
   * `false` reads every file. `settledMs`: how old a file's last change must be to be kept
   * (default 2,000; 0 keeps every file).
   */
  readonly cache?: false | { readonly settledMs?: number };
}

function invalid(file: string, line: number, message: string): SkillProblem {
  return { file, line, code: EXTENSIONS_ERROR_CODES.skillInvalid, message };
}

function keyLine(lines: readonly string[], key: string): number {
  const index = lines.findIndex((line) => line.startsWith(`${key}:`));
  return index === -1 ? 1 : index + 2;
}

// What the file's content says, whatever folder it is in: this is what the cache keeps.
function judgeFrontMatter(front: FrontMatter): SkillVerdict {
  if (!front.ok) return { ok: false, line: front.line, message: front.message };
  const { name, description } = front.fields;
  if (typeof name !== 'string' || name.length === 0)
    return { ok: false, line: keyLine(front.lines, 'name'), message: 'the front matter needs a `name` (text)' };
  if (name.length > MAX_SKILL_NAME_LENGTH || !SKILL_NAME.test(name))
    return {
      ok: false,
      line: keyLine(front.lines, 'name'),
      message: `name ${JSON.stringify(name.slice(0, 80))} must be lowercase letters, digits and single hyphens, at most ${MAX_SKILL_NAME_LENGTH} characters`,
    };
  if (typeof description !== 'string' || description.trim().length === 0)
    return {
      ok: false,
      line: keyLine(front.lines, 'description'),
      message: 'the front matter needs a `description` (text)',
    };
  if (description.length > MAX_SKILL_DESCRIPTION_LENGTH)
    return {
      ok: false,
      line: keyLine(front.lines, 'description'),
      message: `description is ${description.length} characters; at most ${MAX_SKILL_DESCRIPTION_LENGTH}`,
    };
  return { ok: true, name, description: description.trim(), nameLine: keyLine(front.lines, 'name') };
}

function readVerdict(file: string, cache: SkillCache): SkillVerdict {
  let stat: Stats | undefined;
  // Without a cache the stat would answer nothing: the read below checks the file on its own
  // descriptor, and a path lookup costs more than the read (a quarter of an uncached discovery).
  if (cache.remembers)
    try {
      stat = statSync(file);
    } catch {
      // Reported by the read below, with its reason.
    }
  const cached = stat?.isFile() ? cache.lookup(file, stat) : undefined;
  if (cached) return cached;
  let front: FrontMatter;
  try {
    front = readFrontMatter(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { ok: false, line: 1, message: 'the skill folder has no SKILL.md' };
    if (code === 'ENOTFILE') return { ok: false, line: 1, message: 'SKILL.md is not a regular file' };
    return { ok: false, line: 1, message: `SKILL.md cannot be read (${code ?? (error as Error).message})` };
  }
  const verdict = judgeFrontMatter(front);
  if (stat?.isFile()) cache.remember(file, stat, verdict);
  return verdict;
}

function readSkill(folder: string, root: SkillRoot, folderName: string, cache: SkillCache): Skill | SkillProblem {
  // Concatenated, not joined: both parts are already normal, and this runs once per skill at startup.
  const file = folder + sep + 'SKILL.md';
  const verdict = readVerdict(file, cache);
  if (!verdict.ok) return invalid(file, verdict.line, verdict.message);
  if (verdict.name !== folderName)
    return invalid(file, verdict.nameLine, `name ${verdict.name} must match its folder's name ${folderName}`);
  return { name: verdict.name, description: verdict.description, folder, file, scope: root.scope };
}

function skillFolders(
  root: SkillRoot,
  problems: SkillProblem[],
): { rootReal?: string; found: { folder: string; name: string }[] } {
  let entries: Dirent[];
  try {
    entries = readdirSync(root.folder, { withFileTypes: true });
  } catch {
    return { found: [] };
  }
  entries.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
  const folders: { folder: string; name: string }[] = [];
  const rootReal = realpathSync.native(root.folder);
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const path = root.folder + sep + entry.name;
    if (entry.isSymbolicLink()) {
      // A repository's link could make "the skill's folder" any folder on the machine.
      if (root.scope === 'workspace') {
        let target: string;
        try {
          target = realpathSync.native(path);
        } catch {
          continue;
        }
        if (!target.startsWith(rootReal + sep)) {
          problems.push({
            file: path,
            line: 1,
            code: EXTENSIONS_ERROR_CODES.skillPathOutside,
            message: 'a workspace skill folder that is a link to a folder outside the skills folder is ignored',
          });
          continue;
        }
      }
      try {
        if (!statSync(path).isDirectory()) continue;
      } catch {
        continue;
      }
    } else if (!entry.isDirectory()) continue;
    if (folders.length === MAX_SKILLS_PER_ROOT) {
      problems.push(
        invalid(
          root.folder,
          1,
          `more than ${MAX_SKILLS_PER_ROOT} skill folders; the rest (from ${entry.name}) are ignored`,
        ),
      );
      break;
    }
    // A plain folder's real path is the root's plus its name: no system call per skill.
    folders.push({
      folder: entry.isSymbolicLink() ? realpathSync.native(path) : rootReal + sep + entry.name,
      name: entry.name,
    });
  }
  return { rootReal, found: folders };
}

/**
 * Finds the skills of the home and the workspace (see {@link skillRoots}): each subfolder with a
 * `SKILL.md` whose front matter has a valid `name` (equal to the folder's name) and
 * `description`. Reads at most 64 KiB of each `SKILL.md`. Never throws for bad content: each
 * unusable skill is a {@link SkillProblem} with its file and line.
 */
export function discoverSkills(options: DiscoverSkillsOptions): SkillCatalog {
  const problems: SkillProblem[] = [];
  const byName = new Map<string, Skill>();
  const shadowed: Skill[] = [];
  let workspaceReal: string | undefined;
  const cache =
    options.cache === false ? new SkillCache(undefined) : new SkillCache(options.homeDir, options.cache?.settledMs);
  const searched: string[] = [];
  for (const root of skillRoots(options.homeDir, options.workspaceRoot)) {
    try {
      if (root.scope === 'workspace') {
        // A repository's `.agents` could be a link to any folder: the root must stay inside the workspace.
        if (!lstatSync(root.folder).isDirectory()) continue;
        workspaceReal ??= realpathSync.native(options.workspaceRoot as string);
        if (!realpathSync.native(root.folder).startsWith(workspaceReal + sep)) {
          problems.push({
            file: root.folder,
            line: 1,
            code: EXTENSIONS_ERROR_CODES.skillPathOutside,
            message: 'this skills folder resolves outside the workspace (a link) and is ignored',
          });
          continue;
        }
      }
    } catch {
      continue;
    }
    const folders = skillFolders(root, problems);
    if (folders.rootReal !== undefined) searched.push(folders.rootReal + sep);
    for (const { folder, name } of folders.found) {
      const skill = readSkill(folder, root, name, cache);
      if ('code' in skill) problems.push(skill);
      else if (byName.has(skill.name)) shadowed.push(skill);
      else byName.set(skill.name, skill);
    }
  }
  cache.save(searched);
  const skills = [...byName.values()].sort((left, right) => (left.name < right.name ? -1 : 1));
  return { skills, problems, shadowed };
}
