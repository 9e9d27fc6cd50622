import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { testdir } from '@clawsmith/test-utils';
import { buildInWorker } from './__fixtures__/worker-build.js';
import { COMMON_KEY_MIN_FILES } from './common-keys.js';
import { isCommonKey, postingsOf, type StoredIndex } from './stored-index.js';
import { andQuery, literalQuery, MATCH_ALL, orQuery, withoutKeysHeldByAll } from './trigram-query.js';
import { hasTrigram, packTrigram, TrigramCollector } from './trigrams.js';

// Every file holds "shared marker line", every third "tertiary", every twentieth "zqxjvw" (5 %,
// under the common share of an eighth), and each its own number.
function workspace(files: number): string {
  const tree: Record<string, string> = {};
  for (let number = 0; number < files; number += 1) {
    tree[`src/part${number % 9}/file${number}.ts`] =
      `// shared marker line\nexport const value${number} = ${(number * 7919) % 100_003};\n` +
      (number % 3 === 0 ? 'tertiary\n' : '') +
      (number % 20 === 0 ? 'zqxjvw\n' : '');
  }
  return testdir(tree);
}

async function build(root: string, threads: number): Promise<StoredIndex> {
  return (await buildInWorker(root, threads, 1000)).index;
}

/** The keys of `text` (its trigrams, lowered; these texts hold no joint). */
function keysOf(text: string): number[] {
  const collector = new TrigramCollector();
  collector.add(Buffer.from(text, 'latin1'));
  return [...collector.take()];
}

describe('common keys', () => {
  it('leaves out the keys an eighth of the files hold and lists every other key of every file', async () => {
    const root = workspace(COMMON_KEY_MIN_FILES + 400);
    const stored = await build(root, 2);
    expect(stored.figures.commonKeys).toBe(stored.commonKeys.length);
    for (const key of [...keysOf('shared marker line'), ...keysOf('tertiary')]) {
      expect(isCommonKey(stored, key)).toBe(true);
      expect(hasTrigram(stored.trigrams, key)).toBe(false);
      expect(postingsOf(stored, key)).toHaveLength(0);
    }
    for (const key of keysOf('zqxjvw')) {
      expect(isCommonKey(stored, key)).toBe(false);
      expect(postingsOf(stored, key)).toHaveLength(Math.ceil(stored.figures.files / 20));
    }
    // Every listed key of a file is its own, and every key of it is listed unless common.
    const collector = new TrigramCollector();
    for (let number = 0; number < stored.filePaths.length; number += 37) {
      const path = stored.filePaths[number]!;
      collector.add(readFileSync(`${root}/${path}`));
      collector.add(Buffer.from(path.split('/').pop()!, 'utf8'));
      const expected = [...collector.take()].filter((key) => !isCommonKey(stored, key));
      const listed = [...stored.trigrams].filter((key) => postingsOf(stored, key).includes(number));
      expect(listed, path).toEqual(expected);
    }
  });

  it('are the same whichever threads build, and none below the smallest workspace that samples them', async () => {
    const root = workspace(COMMON_KEY_MIN_FILES + 400);
    const [alone, split] = [await build(root, 1), await build(root, 2)];
    expect([...split.commonKeys]).toEqual([...alone.commonKeys]);
    expect(Buffer.from(split.postings)).toEqual(Buffer.from(alone.postings));
    const small = await build(workspace(COMMON_KEY_MIN_FILES - 1), 2);
    expect(small.commonKeys).toHaveLength(0);
    expect(small.figures.commonKeys).toBe(0);
    expect(postingsOf(small, packTrigram(0x73, 0x68, 0x61))).toHaveLength(COMMON_KEY_MIN_FILES - 1);
  });

  it('are taken as held by every file when a query is narrowed', () => {
    const common = new Set(keysOf('shared'));
    const held = (key: number) => common.has(key);
    expect(withoutKeysHeldByAll(literalQuery('shared', false), held)).toEqual(MATCH_ALL);
    // "sha", "har", "are" and "red" are held by all; "edx" (lowered) is left.
    expect(withoutKeysHeldByAll(literalQuery('sharedX', false), held)).toEqual({
      kind: 'trigram',
      value: packTrigram(0x65, 0x64, 0x78),
    });
    const rare = { kind: 'trigram', value: packTrigram(0x7a, 0x71, 0x78) } as const;
    const shared = { kind: 'trigram', value: packTrigram(0x73, 0x68, 0x61) } as const;
    expect(withoutKeysHeldByAll(orQuery([rare, shared]), held)).toEqual(MATCH_ALL);
    expect(withoutKeysHeldByAll(andQuery([rare, shared]), held)).toEqual(rare);
  });
});
