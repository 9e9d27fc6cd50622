import { testdir } from '@clawsmith/test-utils';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { MemoryIndex } from './memory-index.js';

const notes = (count: number, folder: string) =>
  Object.fromEntries(Array.from({ length: count }, (_, index) => [`memory/${folder}/n${index}.md`, `note ${index}\n`]));

function openIndex(home: string): MemoryIndex {
  const index = new MemoryIndex({ homeDir: home, recheckMs: 1 });
  onTestFinished(() => index.close());
  return index;
}

// Events arrive asynchronously: poll checks until the index shows the change (or the poll times out).
const hitsFor = (index: MemoryIndex, word: string) => () => {
  index.refreshIfDue();
  return index.search(word, { limit: 20 }).hits.map((hit) => hit.path);
};

describe('memory freshness after the first check: only folders with file events are listed', () => {
  it('sees a note edited in place, which leaves its folder unchanged, by listing that folder alone', async () => {
    const home = testdir({ ...notes(5, 'ops'), ...notes(5, 'food'), ...notes(5, 'travel') });
    const index = openIndex(home);
    expect(index.refresh().files).toBe(15);
    const folder = join(home, 'memory/ops');
    const folderTime = statSync(folder).mtimeMs;
    writeFileSync(join(folder, 'n2.md'), 'note 2 mentions the teapot\n');
    expect(statSync(folder).mtimeMs).toBe(folderTime);
    await expect.poll(hitsFor(index, 'teapot'), { timeout: 10_000 }).toEqual([join(folder, 'n2.md')]);
    // Once the write's last events are in, nothing happens: a check lists nothing.
    await new Promise((resolve) => setTimeout(resolve, 50));
    index.refreshIfDue();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(index.refreshIfDue()).toEqual({ files: 0, indexed: 0, removed: 0, leftOut: 0 });
  });

  it('sees new folders and notes, and forgets a removed folder', async () => {
    const home = testdir({ ...notes(2, 'ops'), ...notes(2, 'old') });
    const index = openIndex(home);
    index.refresh();
    mkdirSync(join(home, 'memory/new/deeper'), { recursive: true });
    writeFileSync(join(home, 'memory/new/deeper/kettle.md'), 'The kettle is new.\n');
    await expect.poll(hitsFor(index, 'kettle'), { timeout: 10_000 }).toHaveLength(1);
    writeFileSync(join(home, 'memory/new/deeper/kettle.md'), 'The kettle is now a samovar.\n');
    await expect.poll(hitsFor(index, 'samovar'), { timeout: 10_000 }).toHaveLength(1);
    rmSync(join(home, 'memory/old'), { recursive: true });
    await expect.poll(() => (index.refreshIfDue(), index.counts().files), { timeout: 10_000 }).toBe(3);
  });

  it('notices a memory folder made after the first check', async () => {
    const home = testdir();
    const index = openIndex(home);
    expect(index.refresh().files).toBe(0);
    mkdirSync(join(home, 'memory'));
    writeFileSync(join(home, 'memory/first.md'), 'The first lantern note.\n');
    await expect.poll(hitsFor(index, 'lantern'), { timeout: 10_000 }).toHaveLength(1);
  });
});
