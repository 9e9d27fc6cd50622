import { testdir } from '@clawsmith/test-utils';
import { existsSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { skillMarkdown } from '../__fixtures__/tool-context.js';
import { discoverSkills } from './discover-skills.js';
import { SKILL_CACHE_FILE } from './skill-cache.js';

interface CacheFile {
  version: number;
  files: Record<string, { verdict: { ok: boolean; description?: string; message?: string } }>;
}

const readCache = (home: string) => JSON.parse(readFileSync(join(home, SKILL_CACHE_FILE), 'utf8')) as CacheFile;
const descriptions = (home: string, workspaceRoot?: string) =>
  discoverSkills({ homeDir: home, ...(workspaceRoot ? { workspaceRoot } : {}), cache: { settledMs: 0 } }).skills.map(
    (skill) => skill.description,
  );

describe('discoverSkills with the cache in the home', () => {
  it('answers an unchanged SKILL.md from the cache, and reads it again once its content changed', () => {
    const home = testdir({ 'skills/deploy/SKILL.md': skillMarkdown('deploy', 'Ship the app') });
    const file = join(home, 'skills/deploy/SKILL.md');
    expect(descriptions(home)).toEqual(['Ship the app']);
    // Planting another text in the cache shows that the next discovery did not read the file.
    const cache = readCache(home);
    expect(Object.keys(cache.files)).toEqual([file]);
    cache.files[file]!.verdict.description = 'from the cache';
    writeFileSync(join(home, SKILL_CACHE_FILE), JSON.stringify(cache));
    expect(descriptions(home)).toEqual(['from the cache']);
    // Same size, modification time set back: the change time still tells.
    const before = statSync(file);
    writeFileSync(file, skillMarkdown('deploy', 'Ship the api'));
    utimesSync(file, before.atime, before.mtime);
    expect(descriptions(home)).toEqual(['Ship the api']);
  });

  it('keeps problems too, and checks the folder name on every discovery', () => {
    const home = testdir({
      'skills/broken/SKILL.md': '---\nname: broken\n---\n',
      'skills/named/SKILL.md': skillMarkdown('named', 'x'),
    });
    const first = discoverSkills({ homeDir: home, cache: { settledMs: 0 } });
    const second = discoverSkills({ homeDir: home, cache: { settledMs: 0 } });
    expect(second).toEqual(first);
    expect(second.problems.map((problem) => problem.message)).toEqual([
      'the front matter needs a `description` (text)',
    ]);
    expect(Object.values(readCache(home).files).map((entry) => entry.verdict.ok)).toEqual([false, true]);
  });

  it('does not keep a file changed within the settling time (coarse clocks could hide an edit)', () => {
    const home = testdir({ 'skills/fresh/SKILL.md': skillMarkdown('fresh', 'Just written') });
    expect(discoverSkills({ homeDir: home }).skills).toHaveLength(1);
    expect(existsSync(join(home, SKILL_CACHE_FILE))).toBe(false);
  });

  it('forgets skills that are gone, and ignores a malformed cache file', () => {
    const home = testdir({
      'skills/one/SKILL.md': skillMarkdown('one', 'First'),
      'skills/two/SKILL.md': skillMarkdown('two', 'Second'),
    });
    expect(descriptions(home)).toEqual(['First', 'Second']);
    rmSync(join(home, 'skills/two'), { recursive: true });
    expect(descriptions(home)).toEqual(['First']);
    expect(Object.keys(readCache(home).files)).toEqual([join(home, 'skills/one/SKILL.md')]);
    writeFileSync(join(home, SKILL_CACHE_FILE), '{"version":1,"files":{"x":{"verdict":"no"}}');
    expect(descriptions(home)).toEqual(['First']);
    expect(readCache(home).version).toBe(1);
  });

  it("keeps other workspaces' skills when discovering in one workspace", () => {
    const home = testdir();
    const first = testdir({ '.agents/skills/alpha/SKILL.md': skillMarkdown('alpha', 'In the first') });
    const second = testdir({ '.agents/skills/beta/SKILL.md': skillMarkdown('beta', 'In the second') });
    expect(descriptions(home, first)).toEqual(['In the first']);
    expect(descriptions(home, second)).toEqual(['In the second']);
    expect(Object.keys(readCache(home).files)).toHaveLength(2);
  });

  it('writes nothing with cache: false', () => {
    const home = testdir({ 'skills/one/SKILL.md': skillMarkdown('one', 'First') });
    discoverSkills({ homeDir: home, cache: false });
    expect(existsSync(join(home, SKILL_CACHE_FILE))).toBe(false);
  });
});
