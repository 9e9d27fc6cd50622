import { resolve } from 'node:path';
import { createTestdir, startLineChild } from '@clawsmith/test-utils';
import { expect, it, onTestFinished } from 'vitest';
import { openClawsmithHome } from './clawsmith-home.js';
import { CHILD_TIMEOUT } from './__fixtures__/killed-child.js';

const fixture = resolve(import.meta.dirname, '__fixtures__/opening-home.ts');

it(
  'several processes opening one new home at the same moment all succeed, and each migration is applied once',
  async () => {
    const openers = await Promise.all(Array.from({ length: 4 }, () => startLineChild(fixture)));
    for (const opener of openers) expect(await opener.next()).toBe('READY');
    for (let round = 0; round < 8; round++) {
      const home = createTestdir({}, 'clawsmith-home-');
      onTestFinished(() => home.remove());
      for (const opener of openers) opener.send(home.path);
      expect(await Promise.all(openers.map((opener) => opener.next()))).toEqual(openers.map(() => 'OPENED'));
      const opened = await openClawsmithHome(home.path);
      onTestFinished(() => opened.close());
      for (const table of [
        'clawsmith_core_migration',
        'clawsmith_checkpoints_migration',
        'clawsmith_artifacts_migration',
      ]) {
        const names = (await opened.db.selectFrom(table).select('name').execute()).map((row) => row.name as string);
        expect(new Set(names).size, table).toBe(names.length);
      }
    }
  },
  CHILD_TIMEOUT,
);
