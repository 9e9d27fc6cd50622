import { createRequire } from 'node:module';
import { join } from 'node:path';
import { startLineChild, testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { openToolHost } from './open-tool-host.js';

describe('openToolHost on a busy home', () => {
  it(
    'waits for another process’s write as core does, instead of failing with SQLITE_BUSY',
    { timeout: 90_000 },
    async () => {
      const home = testdir({});
      const workspaceRoot = testdir({ 'a.txt': 'a\n' });
      await (await openToolHost({ home, workspaceRoot })).close(); // the home exists, migrated
      const sqlite = createRequire(import.meta.url).resolve('better-sqlite3');
      const holder = await startLineChild(join(import.meta.dirname, '__fixtures__/home-lock-holder.ts'), [
        sqlite,
        join(home, 'clawsmith.db'),
      ]);
      expect(await holder.next()).toBe('locked');
      const host = await openToolHost({ home, workspaceRoot });
      try {
        const read = await host.call('read_file', { path: 'a.txt' });
        expect(read.status).toBe('success');
        expect(read.content).toBe('a\n');
      } finally {
        await host.close();
      }
    },
  );
});
