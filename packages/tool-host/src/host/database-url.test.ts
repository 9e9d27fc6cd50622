import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveDatabaseUrl } from './database-url.js';

describe('resolveDatabaseUrl', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('takes the explicit URL, else CLAWSMITH_DATABASE_URL, and counts a blank value as unset', () => {
    vi.stubEnv('CLAWSMITH_DATABASE_URL', ' postgres://clawsmith@127.0.0.1:5432/home ');
    expect(resolveDatabaseUrl('postgresql://other@127.0.0.1/x')).toBe('postgresql://other@127.0.0.1/x');
    expect(resolveDatabaseUrl()).toBe('postgres://clawsmith@127.0.0.1:5432/home');
    expect(resolveDatabaseUrl('  ')).toBe('postgres://clawsmith@127.0.0.1:5432/home');
    vi.stubEnv('CLAWSMITH_DATABASE_URL', '');
    expect(resolveDatabaseUrl()).toBeUndefined();
  });

  it('refuses another scheme with invalid_database_url, never repeating the value', () => {
    vi.stubEnv('CLAWSMITH_DATABASE_URL', '');
    let thrown: unknown;
    try {
      resolveDatabaseUrl('mysql://admin:s3cret@127.0.0.1/db');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: 'invalid_database_url' });
    expect(String((thrown as Error).message)).toMatch(/must start with postgres:\/\/ or postgresql:\/\//);
    expect(String((thrown as Error).message)).not.toContain('s3cret');
  });
});
