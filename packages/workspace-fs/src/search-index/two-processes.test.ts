import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { describe, expect, it, onTestFinished } from 'vitest';
import { testdir } from '@clawsmith/test-utils';
import { indexedWorkspace } from './__fixtures__/indexed-workspace.js';

function hits(content: string): string[] {
  return content.split('\n').filter((line) => /^\S+:\d+: /.test(line));
}

/** Starts the search process and returns a function that sends it one search. */
function searchProcess(root: string, home: string) {
  const child = spawn(
    process.execPath,
    [
      '--conditions=@clawsmith/source',
      '--import',
      'tsx',
      `${import.meta.dirname}/__fixtures__/search-process.ts`,
      root,
      home,
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  onTestFinished(() => {
    child.kill();
  });
  const answers = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return async (input: Record<string, unknown>): Promise<string> => {
    child.stdin.write(`${JSON.stringify(input)}\n`);
    const answer = await answers.next();
    if (answer.done) throw new Error('the search process ended');
    return (JSON.parse(answer.value) as { content: string }).content;
  };
}

async function untilIndexed(search: (input: Record<string, unknown>) => Promise<string>): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await search({ query: 'zq-probe' })).includes('Used the search index')) {
    if (Date.now() > deadline) throw new Error('the other process never used its index');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('two processes with one index home', () => {
  it('both answer correctly while one changes files and rebuilds the stored index', async () => {
    const tree: Record<string, string> = {};
    for (let index = 0; index < 200; index += 1) tree[`src/m${index}.ts`] = `export const module${index} = ${index};\n`;
    const root = testdir(tree);
    const home = testdir();
    const other = searchProcess(root, home);
    const first = indexedWorkspace(root, { home });
    await Promise.all([first.ready(), untilIndexed(other)]);

    expect(hits(await other({ query: 'module150 ' }))).toEqual(['src/m150.ts:1: export const module150 = 150;']);
    const edited = await first.run('edit_file', { path: 'src/m150.ts', oldText: 'module150', newText: 'renamed150' });
    expect(edited.status).toBe('success');
    writeFileSync(`${root}/src/m7.ts`, 'export const outside7 = 7;\n');
    for (const search of [other, async (input: Record<string, unknown>) => (await first.search(input)).content]) {
      expect(hits(await search({ query: 'renamed150' }))).toEqual(['src/m150.ts:1: export const renamed150 = 150;']);
      expect(hits(await search({ query: 'module150 ' }))).toEqual([]);
      expect(hits(await search({ query: 'outside7' }))).toEqual(['src/m7.ts:1: export const outside7 = 7;']);
    }

    // This process throws its stored index away and rebuilds it while the other keeps searching.
    await first.close();
    rmSync(home, { recursive: true, force: true });
    const second = indexedWorkspace(root, { home });
    const rebuilt = second.ready();
    for (let round = 0; round < 5; round += 1) {
      writeFileSync(`${root}/src/m${round}.ts`, `export const during${round} = ${round};\n`);
      expect(hits(await other({ query: `during${round}` }))).toEqual([
        `src/m${round}.ts:1: export const during${round} = ${round};`,
      ]);
    }
    await rebuilt;
    expect(hits((await second.search({ query: 'during4' })).content)).toEqual([
      'src/m4.ts:1: export const during4 = 4;',
    ]);
    expect(hits(await other({ query: 'renamed150' }))).toEqual(['src/m150.ts:1: export const renamed150 = 150;']);
  });
});
