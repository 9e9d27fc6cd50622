import { isPostgresUrl } from '@clawsmith/platform';
import { ClawsmithError } from '@clawsmith/tool-protocol';

/**
 * The PostgreSQL URL of a home: the explicit one, else `CLAWSMITH_DATABASE_URL`; undefined (the
 * home's SQLite file) when neither is set or the value is blank. A value that is not a
 * `postgres://` or `postgresql://` URL is an `invalid_database_url` error, which never repeats
 * the value (it may hold a password). The tool host and core's home read it alike.
 */
export function resolveDatabaseUrl(explicit?: string): string | undefined {
  const configured = [explicit, process.env.CLAWSMITH_DATABASE_URL].find(
    (value) => value !== undefined && value.trim() !== '',
  );
  if (configured === undefined) return undefined;
  if (!isPostgresUrl(configured))
    throw new ClawsmithError(
      'invalid_database_url',
      'The database URL (--database-url, the databaseUrl option or CLAWSMITH_DATABASE_URL) must start with postgres:// or postgresql://; leave it unset to keep the database in the home folder (SQLite).',
    );
  return configured.trim();
}
