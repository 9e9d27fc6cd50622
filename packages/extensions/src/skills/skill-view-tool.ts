import { boundText, defineTool, type ToolDefinition } from '@clawsmith/tool-protocol';
import { z } from 'zod';
import { EXTENSIONS_ERROR_CODES, ExtensionsError } from '../extensions-error.js';
import { discoverSkills, type Skill, type SkillCatalog } from './discover-skills.js';
import { MAX_SKILL_FILE_BYTES, readSkillFile, resolveSkillFile } from './skill-file.js';
import { listSkillFiles } from './skill-files.js';

/** The name of the skill tool. */
export const SKILL_VIEW_TOOL_NAME = 'skill_view';
/** At most this many skills are listed by one `skill_view` call without a name. */
export const MAX_LISTED_SKILLS = 200;
const LISTED_DESCRIPTION_LENGTH = 300;

const skillViewInput = z.object({
  name: z
    .string()
    .max(200)
    .optional()
    .describe('The skill to read. Leave out to list the skills (name and description).'),
  file: z
    .string()
    .max(1_024)
    .optional()
    .describe('A file of the skill, relative to its folder (as listed); default its SKILL.md.'),
  offset: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('Byte offset to read on from, when an earlier answer said the file was cut.'),
});

/** The input of `skill_view`. */
export type SkillViewInput = z.output<typeof skillViewInput>;

/** What {@link createSkillViewTool} needs. */
export interface SkillViewToolOptions {
  /** The clawsmith home; its `skills/` folder is searched first. */
  readonly homeDir?: string;
  /**
   * Whether the tool waits for `search_tools` (default false). The cli defers it when no skill was
   * found at startup, so a session without skills pays nothing for it.
   */
  readonly deferred?: boolean;
}

function closest(name: string, catalog: SkillCatalog): string[] {
  const lower = name.toLowerCase();
  return catalog.skills
    .map((skill) => skill.name)
    .filter((candidate) => candidate.includes(lower) || lower.includes(candidate) || candidate[0] === lower[0])
    .slice(0, 5);
}

function listing(catalog: SkillCatalog, offset: number): string {
  const page = catalog.skills.slice(offset, offset + MAX_LISTED_SKILLS);
  if (catalog.skills.length === 0)
    return 'No skills are installed (folders with a SKILL.md in <home>/skills/, .clawsmith/skills/ or .agents/skills/).';
  const lines = page.map(
    (skill) => `- ${skill.name}: ${boundText(skill.description.replace(/\s+/g, ' '), LISTED_DESCRIPTION_LENGTH)}`,
  );
  const next = offset + page.length;
  return [
    `Skills ${offset + 1}-${next} of ${catalog.skills.length} (read one with skill_view and its name):`,
    ...lines,
    ...(next < catalog.skills.length ? [`[more: call skill_view with offset ${next}]`] : []),
  ].join('\n');
}

function viewSkill(skill: Skill, input: SkillViewInput): string {
  const requested = input.file ?? 'SKILL.md';
  const real = resolveSkillFile(skill.folder, requested);
  const slice = readSkillFile(skill.folder, real, input.offset ?? 0);
  const parts = [`Skill ${skill.name} (${skill.scope}), file ${slice.path} (${slice.size} bytes)`];
  if (input.file === undefined && (input.offset ?? 0) === 0) {
    const { files, more } = listSkillFiles(skill.folder);
    if (files.length > 0)
      parts.push(
        `Other files (read with skill_view and file): ${files.join(', ')}${more ? ', … (more not listed)' : ''}`,
      );
  }
  if (slice.binary) {
    parts.push('[a binary file: its content is not shown]');
    return parts.join('\n');
  }
  parts.push('', slice.text);
  if (slice.truncated) {
    const next = slice.offset + Buffer.byteLength(slice.text);
    parts.push(
      '',
      `[bytes ${slice.offset}-${next} of ${slice.size} shown (at most ${MAX_SKILL_FILE_BYTES} per call); read on with skill_view name ${skill.name}, file ${slice.path}, offset ${next}]`,
    );
  }
  return parts.join('\n');
}

/**
 * `skill_view` (risk `read`, capability `filesystem.read`, concurrency-safe): lists the skills of
 * the home and the call's workspace, or returns a skill's `SKILL.md` or one of its files by a path
 * relative to the skill's folder, at most 100,000 bytes per call, never outside that folder.
 * Skills are discovered on every call, so a skill added during a session is found.
 */
export function createSkillViewTool(options: SkillViewToolOptions = {}): ToolDefinition<SkillViewInput, string> {
  return defineTool({
    name: SKILL_VIEW_TOOL_NAME,
    description:
      "Read a skill: instructions and files a person installed for tasks of a kind. Give the skill's name to read its SKILL.md (follow it), and file to read one of the files it mentions. Without a name, lists the skills.",
    risk: 'read',
    capabilities: ['filesystem.read'],
    concurrencySafe: true,
    inputSchema: skillViewInput,
    // `file` is relative to the skill's folder, not the workspace: no workspace path rule applies.
    pathArguments: [],
    ...(options.deferred ? { deferred: true } : {}),
    searchMetadata: {
      aliases: ['skills', 'read skill', 'agent skills'],
      tags: ['skill', 'instructions', 'how-to'],
      searchHint: 'Use this to list or read the skills (SKILL.md) installed in the home or the workspace.',
    },
    summarize: (input) =>
      input.name === undefined ? 'list skills' : `skill ${input.name}${input.file ? ` file ${input.file}` : ''}`,
    async execute(input, context) {
      const catalog = discoverSkills({
        ...(options.homeDir !== undefined ? { homeDir: options.homeDir } : {}),
        workspaceRoot: context.workspaceRoot,
      });
      if (input.name === undefined) return listing(catalog, input.offset ?? 0);
      const skill = catalog.skills.find((candidate) => candidate.name === input.name);
      if (!skill) {
        const problem = catalog.problems.find((entry) => entry.file.split(/[\\/]/).at(-2) === input.name);
        if (problem)
          throw new ExtensionsError(
            EXTENSIONS_ERROR_CODES.skillInvalid,
            `The skill ${input.name} cannot be used: ${problem.file}:${problem.line}: ${problem.message}.`,
          );
        const suggestions = closest(input.name, catalog);
        throw new ExtensionsError(
          EXTENSIONS_ERROR_CODES.skillNotFound,
          `No skill is named ${JSON.stringify(input.name.slice(0, 80))}.${suggestions.length > 0 ? ` Did you mean ${suggestions.join(', ')}?` : ''} Call skill_view without a name to list the skills.`,
        );
      }
      return viewSkill(skill, input);
    },
  });
}
