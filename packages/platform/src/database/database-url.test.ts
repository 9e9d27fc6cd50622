import { describe, expect, it } from 'vitest';
import { isPostgresUrl, redactDatabaseUrl } from './database-url.js';

describe('redactDatabaseUrl', () => {
  it('replaces the password and keeps everything a person needs to recognise the database', () => {
    expect(redactDatabaseUrl('postgres://agent:s3cr%40t@db.internal:5433/clawsmith?sslmode=require')).toBe(
      'postgres://agent:***@db.internal:5433/clawsmith?sslmode=require',
    );
  });

  it('replaces a password given as a query parameter', () => {
    const shown = redactDatabaseUrl('postgresql://agent@localhost/clawsmith?password=hunter2&application_name=x');
    expect(shown).not.toContain('hunter2');
    expect(shown).toContain('password=***');
  });

  it('leaves a URL without a password as it is, and hides one it cannot parse whole', () => {
    expect(redactDatabaseUrl('postgres://agent@127.0.0.1/clawsmith')).toBe('postgres://agent@127.0.0.1/clawsmith');
    expect(redactDatabaseUrl('postgres://agent:pw@[bad')).not.toContain('pw');
  });
});

describe('isPostgresUrl', () => {
  it('accepts both PostgreSQL schemes and nothing else', () => {
    expect(isPostgresUrl('postgres://h/d')).toBe(true);
    expect(isPostgresUrl('POSTGRESQL://h/d')).toBe(true);
    expect(isPostgresUrl('/home/me/.clawsmith/clawsmith.db')).toBe(false);
    expect(isPostgresUrl('mysql://h/d')).toBe(false);
  });
});
