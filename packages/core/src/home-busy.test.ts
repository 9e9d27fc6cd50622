// A home whose database another process keeps locked past the busy timeout answers home_busy
// (retryable, with what to do next) and changes nothing; once the lock is gone it opens.
import { join, resolve } from 'node:path';
import { ClawsmithError } from '@clawsmith/tool-protocol';
import { createTestdir, startLineChild } from '@clawsmith/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { openClawsmithHome } from './clawsmith-home.js';
import { CHILD_TIMEOUT } from './__fixtures__/killed-child.js';

const holder = resolve(import.meta.dirname, '__fixtures__/holding-home-lock.ts');

describe('openClawsmithHome on a home another process keeps locked', () => {
  it(
    'answers home_busy with a hint after the configured busy timeout, and opens once the lock is released',
    async () => {
      const home = createTestdir({}, 'clawsmith-home-');
      onTestFinished(() => home.remove());
      const lock = await startLineChild(holder, [join(home.path, 'clawsmith.db')]);
      expect(await lock.next()).toBe('LOCKED');

      const refused = await openClawsmithHome(home.path, { busyTimeoutMs: 300 }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(ClawsmithError.isInstance(refused)).toBe(true);
      expect(refused).toMatchObject({
        code: 'home_busy',
        retryable: true,
        message: expect.stringContaining('stayed locked by other clawsmith processes for more than 0.3 s'),
      });
      expect((refused as Error).message).toContain('--home');

      lock.send('release');
      expect(await lock.next()).toBe('RELEASED');
      const opened = await openClawsmithHome(home.path, { busyTimeoutMs: 300 });
      onTestFinished(() => opened.close());
      expect((await opened.db.selectFrom('clawsmith_core_migration').select('name').execute()).length).toBeGreaterThan(
        0,
      );
    },
    CHILD_TIMEOUT,
  );
});
