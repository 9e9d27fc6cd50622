import { testdir } from '@clawsmith/test-utils';
import { rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { toolResultFromError, type ToolExecutionResult } from '@clawsmith/tool-protocol';
import { describe, expect, it, onTestFinished } from 'vitest';
import { toolContext } from '../__fixtures__/tool-context.js';
import { createMemorySearch, type MemorySearchInput } from './memory-search-tool.js';
import { MemoryIndex } from './memory-index.js';

function searcher(homeDir: string) {
  const memory = createMemorySearch({ homeDir, recheckMs: 0 });
  onTestFinished(() => memory.close());
  return async (workspace: string, input: MemorySearchInput): Promise<ToolExecutionResult> => {
    try {
      return {
        version: 1,
        status: 'success',
        content: String(await memory.tool.execute(input, toolContext(workspace))),
      };
    } catch (error) {
      return toolResultFromError(error);
    }
  };
}

describe(createMemorySearch, () => {
  it('returns ranked snippets with source and line from home notes and the workspace AGENTS.md', async () => {
    const home = testdir({
      'memory/ops/deploy.md':
        '# Deploying\n\nWe deploy on Tuesdays.\n\n## Staging\n\nThe staging deploy needs the VPN token first.\n',
      'memory/people.md': '# People\n\nAda owns the billing service.\n',
      'memory/.hidden/secret.md': 'staging deploy secret',
      'memory/ignored.txt': 'staging deploy text file',
    });
    const workspace = testdir({
      'AGENTS.md': '# Agents\n\nRun npm test before you commit.\nNever deploy staging from a laptop.\n',
    });
    const search = searcher(home);
    const result = await search(workspace, { query: 'staging deploy' });
    expect(result.content).toMatchInlineSnapshot(`
      "3 matches, best first:

      memory/ops/deploy.md:7
        The staging deploy needs the VPN token first.

      AGENTS.md:4
        Run npm test before you commit.
        Never deploy staging from a laptop.

      memory/ops/deploy.md:3
        We deploy on Tuesdays."
    `);
    const billing = await search(workspace, { query: 'who owns billing?' });
    expect(billing.content).toContain('memory/people.md:3\n  Ada owns the billing service.');
  });

  it("sees changed, added and removed notes, and never another workspace's files", async () => {
    const home = testdir({ 'memory/a.md': 'The kettle is in the kitchen.\n' });
    const workspace = testdir({ 'CLAWSMITH.md': 'Prefer tabs in the kettle module.\n' });
    const other = testdir({ 'AGENTS.md': 'The kettle lives in another repository.\n' });
    const search = searcher(home);
    expect((await search(workspace, { query: 'kettle' })).content).toMatch(/^2 matches/);
    writeFileSync(join(home, 'memory/a.md'), 'The teapot is in the kitchen.\n');
    // Same size, so only the modification time tells: make sure it moves.
    utimesSync(join(home, 'memory/a.md'), new Date(), new Date(Date.now() + 5_000));
    writeFileSync(join(home, 'memory/b.md'), 'A second kettle note.\n');
    rmSync(join(workspace, 'CLAWSMITH.md'));
    const after = await search(workspace, { query: 'kettle' });
    expect(after.content).toBe('1 match, best first:\n\nmemory/b.md:1\n  A second kettle note.');
    expect((await search(workspace, { query: 'teapot' })).content).toContain('memory/a.md:1');
    expect((await search(other, { query: 'another repository' })).content).toContain('AGENTS.md:1');
    expect((await search(workspace, { query: 'another repository' })).content).toMatch(/^No memory matches/);
  });

  it('never leaks an FTS syntax error: operators, quotes and parentheses are only words', async () => {
    const home = testdir({ 'memory/n.md': 'Column names: NEAR the AND gate, not the OR gate.\n' });
    const search = searcher(home);
    const hostile = [
      '"unbalanced',
      'AND OR NOT',
      'NEAR(gate',
      'body:gate',
      'gate*',
      '-gate ^gate',
      '((( gate',
      "'; DROP TABLE file; --",
      'chunk_text MATCH x',
    ];
    for (const query of hostile) {
      const result = await search(home, { query });
      expect([query, result.status]).toEqual([query, 'success']);
    }
    expect((await search(home, { query: 'AND OR NOT' })).content).toMatch(/^1 match/);
    const empty = await search(home, { query: '"" () * - \'\' ``' });
    expect([empty.status, empty.code, empty.content]).toEqual([
      'error',
      'memory_query_empty',
      'The query has no word to search for; give a few words that the notes would contain.',
    ]);
  });

  it('bounds results and snippets, and skips a workspace AGENTS.md that is a link', async () => {
    const outside = testdir({ 'AGENTS.md': 'linked lighthouse secret\n' });
    const notes = Object.fromEntries(
      Array.from({ length: 40 }, (_, index) => [`memory/n${index}.md`, `lighthouse ${'keeper '.repeat(200)}\n`]),
    );
    const home = testdir(notes);
    const workspace = testdir({ 'AGENTS.md': { symlink: join(outside, 'AGENTS.md') } });
    const search = searcher(home);
    const five = await search(workspace, { query: 'lighthouse' });
    expect(five.content).toMatch(/^5 matches/);
    expect(five.content).not.toContain('secret');
    for (const block of five.content.split('\n\n').slice(1)) expect(block.length).toBeLessThan(450);
    expect((await search(workspace, { query: 'lighthouse', limit: 20 })).content).toMatch(/^20 matches/);
  });
});

describe(MemoryIndex, () => {
  it('keeps the index between sessions and re-reads only what changed', () => {
    const home = testdir({ 'memory/a.md': 'alpha\n', 'memory/b.md': 'beta\n' });
    const first = new MemoryIndex({ homeDir: home });
    expect(first.refresh()).toEqual({ files: 2, indexed: 2, removed: 0, leftOut: 0 });
    first.close();
    const second = new MemoryIndex({ homeDir: home });
    onTestFinished(() => second.close());
    expect(second.refresh()).toEqual({ files: 2, indexed: 0, removed: 0, leftOut: 0 });
    writeFileSync(join(home, 'memory/b.md'), 'beta, longer now\n');
    expect(second.refresh()).toEqual({ files: 2, indexed: 1, removed: 0, leftOut: 0 });
    expect(second.counts()).toEqual({ files: 2, chunks: 2 });
  });
});
