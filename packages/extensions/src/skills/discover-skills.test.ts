import { testdir } from '@clawsmith/test-utils';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { skillMarkdown } from '../__fixtures__/tool-context.js';
import { discoverSkills } from './discover-skills.js';

const aliasBomb = [
  '---',
  'name: bomb',
  'a: &a ["x","x","x","x","x","x","x","x","x"]',
  'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
  'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
  'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
  'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
  'f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]',
  'description: [*f,*f,*f,*f,*f,*f,*f,*f,*f]',
  '---',
  'body',
].join('\n');

describe(discoverSkills, () => {
  it('finds skills in the home and both workspace folders, sorted, home first on a shared name', () => {
    const home = testdir({
      'skills/release/SKILL.md': skillMarkdown('release', 'Cut a release of this product'),
      'skills/review/SKILL.md': skillMarkdown('review', 'The home review checklist'),
    });
    const workspace = testdir({
      '.clawsmith/skills/review/SKILL.md': skillMarkdown('review', 'A repository review checklist'),
      '.agents/skills/db-migrate/SKILL.md': skillMarkdown('db-migrate', 'Write and apply a database migration'),
      '.agents/skills/not-a-skill.txt': 'ignored',
    });
    const catalog = discoverSkills({ homeDir: home, workspaceRoot: workspace });
    expect(catalog.skills.map((skill) => [skill.name, skill.scope, skill.description])).toEqual([
      ['db-migrate', 'workspace', 'Write and apply a database migration'],
      ['release', 'home', 'Cut a release of this product'],
      ['review', 'home', 'The home review checklist'],
    ]);
    expect(catalog.shadowed.map((skill) => [skill.name, skill.scope])).toEqual([['review', 'workspace']]);
    expect(catalog.problems).toEqual([]);
  });

  it('reports invalid front matter with the file and the line to fix', () => {
    const home = testdir({
      'skills/no-open/SKILL.md': '# just markdown\n',
      'skills/bad-yaml/SKILL.md': '---\nname: bad-yaml\ndescription: [unclosed\nlicense: MIT\n---\nbody\n',
      'skills/no-description/SKILL.md': '---\nname: no-description\nlicense: MIT\n---\n',
      'skills/Bad_Name/SKILL.md': '---\nlicense: MIT\nname: Bad_Name\ndescription: x\n---\n',
      'skills/mismatch/SKILL.md': skillMarkdown('other-name', 'x'),
      'skills/unclosed/SKILL.md': '---\nname: unclosed\ndescription: x\n',
      'skills/duplicate-key/SKILL.md': '---\nname: duplicate-key\ndescription: a\ndescription: b\n---\n',
      'skills/no-file': {},
    });
    const catalog = discoverSkills({ homeDir: home });
    expect(catalog.skills).toEqual([]);
    const problems = catalog.problems.map((problem) => [
      problem.file.slice(home.length + 1),
      problem.line,
      problem.code,
      problem.message,
    ]);
    expect(problems).toMatchInlineSnapshot(`
      [
        [
          "skills/Bad_Name/SKILL.md",
          3,
          "skill_invalid",
          "name "Bad_Name" must be lowercase letters, digits and single hyphens, at most 64 characters",
        ],
        [
          "skills/bad-yaml/SKILL.md",
          4,
          "skill_invalid",
          "invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]",
        ],
        [
          "skills/duplicate-key/SKILL.md",
          4,
          "skill_invalid",
          "invalid YAML: Map keys must be unique",
        ],
        [
          "skills/mismatch/SKILL.md",
          2,
          "skill_invalid",
          "name other-name must match its folder's name mismatch",
        ],
        [
          "skills/no-description/SKILL.md",
          1,
          "skill_invalid",
          "the front matter needs a \`description\` (text)",
        ],
        [
          "skills/no-file/SKILL.md",
          1,
          "skill_invalid",
          "the skill folder has no SKILL.md",
        ],
        [
          "skills/no-open/SKILL.md",
          1,
          "skill_invalid",
          "the file must start with a '---' line opening the YAML front matter",
        ],
        [
          "skills/unclosed/SKILL.md",
          1,
          "skill_invalid",
          "the front matter is not closed by a '---' line within the first 64 KiB",
        ],
      ]
    `);
  });

  it('refuses a YAML alias bomb in front matter instead of expanding it', () => {
    const home = testdir({ 'skills/bomb/SKILL.md': aliasBomb });
    const catalog = discoverSkills({ homeDir: home });
    expect(catalog.skills).toEqual([]);
    expect(catalog.problems).toHaveLength(1);
    expect(catalog.problems[0]?.line).toBe(2);
    expect(catalog.problems[0]?.message).toMatch(/^YAML aliases expand too far/);
  });

  it('accepts quoted and folded YAML values through the full parser', () => {
    const home = testdir({
      'skills/quoted/SKILL.md':
        '---\nname: "quoted"\ndescription: >\n  Use when: the task needs\n  a folded text.\nmetadata:\n  owner: ops\n---\n',
    });
    const catalog = discoverSkills({ homeDir: home });
    expect(catalog.problems).toEqual([]);
    expect(catalog.skills[0]?.description).toBe('Use when: the task needs a folded text.');
  });

  it('ignores a workspace skill folder that links outside, and a skills root that is a link out of the workspace', () => {
    const outside = testdir({ 'skills/secret/SKILL.md': skillMarkdown('secret', 'outside') });
    const workspace = testdir({
      '.clawsmith/skills/secret': { symlink: `${outside}/skills/secret` },
      '.agents': { symlink: outside },
    });
    const catalog = discoverSkills({ workspaceRoot: workspace });
    expect(catalog.skills).toEqual([]);
    expect(catalog.problems.map((problem) => [problem.file.slice(workspace.length + 1), problem.code])).toEqual([
      ['.clawsmith/skills/secret', 'skill_path_outside'],
      ['.agents/skills', 'skill_path_outside'],
    ]);
    // The same links in the person's own home are theirs to make.
    const home = testdir({ 'skills/secret': { symlink: `${outside}/skills/secret` } });
    expect(discoverSkills({ homeDir: home }).skills.map((skill) => skill.name)).toEqual(['secret']);
  });

  it('finds and reports the same without a cache, where no SKILL.md is stat-ed before it is read', () => {
    const outside = testdir({ 'skills/secret/SKILL.md': skillMarkdown('secret', 'outside') });
    const home = testdir({
      'skills/deploy/SKILL.md': skillMarkdown('deploy', 'Ship the app'),
      'skills/no-file': {},
      'skills/folder/SKILL.md/inner': '',
      'skills/fifo/placeholder': '',
      'skills/no-open/SKILL.md': '# just markdown\n',
      'skills/linked': { symlink: `${outside}/skills/secret` },
    });
    execFileSync('mkfifo', [join(home, 'skills/fifo/SKILL.md')]);
    const workspace = testdir({
      '.agents/skills/review/SKILL.md': skillMarkdown('review', 'Review a change'),
      '.clawsmith/skills/secret': { symlink: `${outside}/skills/secret` },
    });
    const found = (cache: false | undefined) => {
      const catalog = discoverSkills({
        homeDir: home,
        workspaceRoot: workspace,
        ...(cache === false ? { cache } : {}),
      });
      return {
        skills: catalog.skills.map((skill) => [skill.name, skill.scope, skill.description]),
        problems: catalog.problems.map((problem) => [problem.file, problem.line, problem.code, problem.message]),
      };
    };
    const uncached = found(false);
    expect(uncached).toEqual(found(undefined));
    expect(uncached.skills).toEqual([
      ['deploy', 'home', 'Ship the app'],
      ['review', 'workspace', 'Review a change'],
    ]);
    expect(
      uncached.problems.map(([file, line, code, message]) => [
        String(file).split('/').slice(-2).join('/'),
        line,
        code,
        message,
      ]),
    ).toEqual([
      ['fifo/SKILL.md', 1, 'skill_invalid', 'SKILL.md is not a regular file'],
      ['folder/SKILL.md', 1, 'skill_invalid', 'SKILL.md is not a regular file'],
      ['secret/SKILL.md', 2, 'skill_invalid', "name secret must match its folder's name linked"],
      ['no-file/SKILL.md', 1, 'skill_invalid', 'the skill folder has no SKILL.md'],
      ['no-open/SKILL.md', 1, 'skill_invalid', "the file must start with a '---' line opening the YAML front matter"],
      [
        'skills/secret',
        1,
        'skill_path_outside',
        'a workspace skill folder that is a link to a folder outside the skills folder is ignored',
      ],
    ]);
  });

  it('reports a SKILL.md that is a FIFO or a folder instead of hanging on it', () => {
    const home = testdir({ 'skills/fifo/placeholder': '', 'skills/folder/SKILL.md/inner': '' });
    execFileSync('mkfifo', [join(home, 'skills/fifo/SKILL.md')]);
    const catalog = discoverSkills({ homeDir: home });
    expect(catalog.problems.map((problem) => [problem.file.slice(home.length + 1), problem.message])).toEqual([
      ['skills/fifo/SKILL.md', 'SKILL.md is not a regular file'],
      ['skills/folder/SKILL.md', 'SKILL.md is not a regular file'],
    ]);
  });
});
