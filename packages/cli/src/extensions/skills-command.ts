import { resolveClawsmithHome } from '@clawsmith/core';
import { z } from 'zod';
import { resolveWorkspace } from '../commands/agent-runtime.js';
import { EXIT_CODES } from '../exit-codes.js';
import { parseCommandOptions } from '../options/command-options.js';
import { oneLine } from '../terminal/terminal-text.js';

/** Options of `clawsmith skills`. */
const skillsCommandOptions = z.object({
  home: z.string().optional(),
  workspace: z.string(),
  json: z.boolean().optional(),
});

/**
 * `clawsmith skills`: the skills the agent sees in this workspace (home first), those shadowed by
 * a skill of the same name, and every skill that cannot be used with its file and line. Exits 1
 * when a skill is invalid, so a check in CI can catch it.
 */
export async function skillsCommand(rawOptions: Record<string, unknown>): Promise<number> {
  const options = parseCommandOptions(skillsCommandOptions, rawOptions, 'skills');
  const { discoverSkills } = await import('@clawsmith/extensions');
  const homeDir = resolveClawsmithHome(options.home);
  const workspaceRoot = resolveWorkspace(options.workspace);
  const catalog = discoverSkills({ homeDir, workspaceRoot });
  const out = (line: string) => process.stdout.write(`${line}\n`);
  if (options.json) {
    for (const skill of catalog.skills) out(JSON.stringify({ ...skill, state: 'available' }));
    for (const skill of catalog.shadowed) out(JSON.stringify({ ...skill, state: 'shadowed' }));
    for (const problem of catalog.problems) out(JSON.stringify({ ...problem, state: 'invalid' }));
  } else {
    for (const skill of catalog.skills)
      out(`${skill.name}  ${skill.scope}  ${oneLine(skill.description, 100)}\n    ${oneLine(skill.file, 300)}`);
    for (const skill of catalog.shadowed)
      out(`(${skill.name} in ${oneLine(skill.file, 300)} is shadowed by the skill of the same name above)`);
    if (catalog.skills.length === 0)
      out('No skills (folders with a SKILL.md in <home>/skills/, .clawsmith/skills/ or .agents/skills/).');
    for (const problem of catalog.problems)
      process.stderr.write(
        `clawsmith: ${oneLine(problem.file, 300)}:${problem.line}: ${oneLine(problem.message, 300)} [${problem.code}]\n`,
      );
  }
  return catalog.problems.length > 0 ? EXIT_CODES.failed : EXIT_CODES.ok;
}
