import { describe, expect, it } from 'vitest';
import type { Skill, SkillCatalog } from './discover-skills.js';
import { skillsPromptSection } from './skills-prompt.js';

function catalog(count: number, description = 'Does one thing well'): SkillCatalog {
  const skills: Skill[] = Array.from({ length: count }, (_, index) => ({
    name: `skill-${String(index).padStart(3, '0')}`,
    description,
    folder: `/skills/skill-${index}`,
    file: `/skills/skill-${index}/SKILL.md`,
    scope: 'home',
  }));
  return { skills, problems: [], shadowed: [] };
}

describe(skillsPromptSection, () => {
  it('is empty without skills', () => {
    expect(skillsPromptSection(catalog(0))).toBe('');
  });

  it('lists names and descriptions and says how to read one', () => {
    expect(skillsPromptSection(catalog(2))).toMatchInlineSnapshot(`
      "Skills: instructions installed for tasks of a kind. When a task matches one, read its SKILL.md with skill_view (name) before you start, and follow it; it may point to more files (skill_view with name and file).
      - skill-000: Does one thing well
      - skill-001: Does one thing well"
    `);
  });

  it('stays within 50 skills and 8,000 characters, counting the rest', () => {
    const many = skillsPromptSection(catalog(500));
    expect(many.split('\n').filter((line) => line.startsWith('- skill-'))).toHaveLength(50);
    expect(many).toMatch(/- … and 450 more: call skill_view without a name to list them all\.$/);
    const long = skillsPromptSection(catalog(50, 'x'.repeat(1_000)));
    expect(long.length).toBeLessThanOrEqual(8_000);
    expect(long).toContain('more: call skill_view without a name');
  });
});
