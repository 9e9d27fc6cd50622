import { lstatSync, readdirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { join, sep } from 'node:path';
import { EXTENSIONS_ERROR_CODES } from '../extensions-error.js';
import { readFrontMatter } from './front-matter.js';
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
}

function invalid(file: string, line: number, message: string): SkillProblem {
  return { file, line, code: EXTENSIONS_ERROR_CODES.skillInvalid, message };
}

function keyLine(lines: readonly string[], key: string): number {
  const index = lines.findIndex((line) => line.startsWith(`${key}:`));
  return index === -1 ? 1 : index + 2;
}

function readSkill(folder: string, root: SkillRoot, folderName: string): Skill | SkillProblem {
  const file = join(folder, 'SKILL.md');
  let front;
  try {
    front = readFrontMatter(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return invalid(file, 1, 'the skill folder has no SKILL.md');
    if (code === 'ENOTFILE') return invalid(file, 1, 'SKILL.md is not a regular file');
    return invalid(file, 1, `SKILL.md cannot be read (${code ?? (error as Error).message})`);
  }
  if (!front.ok) return invalid(file, front.line, front.message);
  const { name, description } = front.fields;
  if (typeof name !== 'string' || name.length === 0)
    return invalid(file, keyLine(front.lines, 'name'), 'the front matter needs a `name` (text)');
  if (name.length > MAX_SKILL_NAME_LENGTH || !SKILL_NAME.test(name))
    return invalid(
      file,
      keyLine(front.lines, 'name'),
      `name ${JSON.stringify(name.slice(0, 80))} must be lowercase letters, digits and single hyphens, at most ${MAX_SKILL_NAME_LENGTH} characters`,
    );
  if (name !== folderName)
    return invalid(file, keyLine(front.lines, 'name'), `name ${name} must match its folder's name ${folderName}`);
  if (typeof description !== 'string' || description.trim().length === 0)
    return invalid(file, keyLine(front.lines, 'description'), 'the front matter needs a `description` (text)');
  if (description.length > MAX_SKILL_DESCRIPTION_LENGTH)
    return invalid(
      file,
      keyLine(front.lines, 'description'),
      `description is ${description.length} characters; at most ${MAX_SKILL_DESCRIPTION_LENGTH}`,
    );
  return { name, description: description.trim(), folder, file, scope: root.scope };
}

function skillFolders(root: SkillRoot, problems: SkillProblem[]): { folder: string; name: string }[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(root.folder, { withFileTypes: true });
  } catch {
    return [];
  }
  entries.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
  const folders: { folder: string; name: string }[] = [];
  const rootReal = realpathSync.native(root.folder);
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const path = join(root.folder, entry.name);
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
      folder: entry.isSymbolicLink() ? realpathSync.native(path) : join(rootReal, entry.name),
      name: entry.name,
    });
  }
  return folders;
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
    for (const { folder, name } of skillFolders(root, problems)) {
      const skill = readSkill(folder, root, name);
      if ('code' in skill) problems.push(skill);
      else if (byName.has(skill.name)) shadowed.push(skill);
      else byName.set(skill.name, skill);
    }
  }
  const skills = [...byName.values()].sort((left, right) => (left.name < right.name ? -1 : 1));
  return { skills, problems, shadowed };
}
