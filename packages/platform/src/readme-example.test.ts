import { describeReadmeExample, runExample } from '@clawsmith/test-utils';
import { testDatabaseUrl } from '@clawsmith/test-utils/postgres';
import { describe, expect, it } from 'vitest';

describeReadmeExample({
  testFolder: import.meta.dirname,
  example: 'examples/open-and-migrate.ts',
  prints: ['sqlite: 1 note(s), id is a number'],
});

describe('the README example on PostgreSQL', () => {
  it('migrates and writes there when CLAWSMITH_DATABASE_URL is set, printing the URL without its password', async () => {
    const url = await testDatabaseUrl();
    const password = new URL(url).password;
    process.env.CLAWSMITH_DATABASE_URL = url;
    try {
      const output = await runExample(`${import.meta.dirname}/..`, 'examples/open-and-migrate.ts');
      expect(output).toContain('postgres: 1 note(s), id is a number');
      expect(output).toContain(':***@127.0.0.1');
      expect(output).not.toContain(password);
    } finally {
      delete process.env.CLAWSMITH_DATABASE_URL;
    }
  });
});
