import { boundText } from '@clawsmith/tool-protocol';
import type { SkillCatalog } from './discover-skills.js';

/** Limits of the skill list in the system prompt. */
export const SKILLS_PROMPT_LIMITS = Object.freeze({
  /** Skills listed by name and description; the rest are counted. */
  skills: 50,
  /** Characters of one description. */
  descriptionLength: 200,
  /** Characters of the whole section. */
  totalLength: 8_000,
});

/**
 * The system prompt's skill section: the names and descriptions the model chooses from, bounded
 * by {@link SKILLS_PROMPT_LIMITS}, and how to read one. Skills are instructions, not tools, so they
 * are listed here rather than found through `search_tools`. Empty without skills.
 */
export function skillsPromptSection(catalog: SkillCatalog): string {
  if (catalog.skills.length === 0) return '';
  const header =
    'Skills: instructions installed for tasks of a kind. When a task matches one, read its SKILL.md with skill_view (name) before you start, and follow it; it may point to more files (skill_view with name and file).';
  const lines: string[] = [];
  let length = header.length;
  for (const skill of catalog.skills) {
    const line = `- ${skill.name}: ${boundText(skill.description.replace(/\s+/g, ' '), SKILLS_PROMPT_LIMITS.descriptionLength)}`;
    if (lines.length === SKILLS_PROMPT_LIMITS.skills || length + line.length + 200 > SKILLS_PROMPT_LIMITS.totalLength)
      break;
    lines.push(line);
    length += line.length + 1;
  }
  const rest = catalog.skills.length - lines.length;
  return [
    header,
    ...lines,
    ...(rest > 0 ? [`- … and ${rest} more: call skill_view without a name to list them all.`] : []),
  ].join('\n');
}
