import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClawsmithError, type ToolExecutionContext } from '@clawsmith/tool-protocol';
import { createSkillViewTool, discoverSkills, skillsPromptSection } from '@clawsmith/extensions';

const scratch = mkdtempSync(join(tmpdir(), 'clawsmith-skills-example-'));
const homeDir = join(scratch, 'home'); // skills in <home>/skills/<name>/SKILL.md come first
const workspaceRoot = join(scratch, 'project'); // then .clawsmith/skills and .agents/skills here
mkdirSync(join(homeDir, 'skills/release-notes'), { recursive: true });
mkdirSync(join(workspaceRoot, '.agents/skills/Bad_Name'), { recursive: true });
writeFileSync(
  join(homeDir, 'skills/release-notes/SKILL.md'),
  '---\nname: release-notes\ndescription: Write release notes from merged changes. Use before a release.\n---\n\n1. List the changesets.\n',
);
writeFileSync(join(workspaceRoot, '.agents/skills/Bad_Name/SKILL.md'), '---\nname: Bad_Name\ndescription: x\n---\n');
try {
  const catalog = discoverSkills({ homeDir, workspaceRoot });
  // Problems are reported, never thrown: one unusable skill leaves the others working.
  for (const problem of catalog.problems) console.log(`problem ${problem.code} at line ${problem.line}`);
  console.log(skillsPromptSection(catalog)); // add this to the system prompt

  const skillView = createSkillViewTool({ homeDir, deferred: catalog.skills.length === 0 });
  const context: ToolExecutionContext = {
    authorized: true, // a read-only tool: it does not check this; core sets it after its permission policy
    workspaceRoot,
    sessionId: 's',
    turnId: 't',
    toolCallId: 'c',
    signal: new AbortController().signal,
  };
  const text = await skillView.execute(skillView.inputSchema.parse({ name: 'release-notes' }), context);
  console.log(text.split('\n')[0]); // the first line of the answer
  // A refusal is thrown as a ClawsmithError with a stable code; core turns it into a result for the model.
  await skillView.execute({ name: 'release-note' }, context).catch((error: unknown) => {
    if (!ClawsmithError.isInstance(error)) throw error;
    console.log('refused:', error.code, error.message); // refused: skill_not_found ... Did you mean release-notes? ...
  });
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
