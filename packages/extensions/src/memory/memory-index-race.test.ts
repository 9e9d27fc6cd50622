import { resolve } from 'node:path';
import { startLineChild, testdir } from '@clawsmith/test-utils';
import { expect, it } from 'vitest';

const fixture = resolve(import.meta.dirname, '../__fixtures__/opening-memory-index.ts');

it('several processes opening one new home’s memory index at the same moment all find its notes', async () => {
  const openers = await Promise.all(Array.from({ length: 4 }, () => startLineChild(fixture)));
  for (const opener of openers) expect(await opener.next()).toBe('READY');
  for (let round = 0; round < 8; round++) {
    const home = testdir({ 'memory/MEMORY.md': '# Notes\n\nThe build uses nx.\n' });
    for (const opener of openers) opener.send(home);
    expect(await Promise.all(openers.map((opener) => opener.next()))).toEqual(openers.map(() => 'OPENED 1'));
  }
}, 240_000);
