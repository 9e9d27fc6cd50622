import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * Creates a new, empty database on the server at `serverUrl` (a superuser's URL, as
 * {@link startPostgresServer} gives) and returns the URL of that database: each test gets a home
 * of its own on the one server of the run.
 */
export async function createTestDatabase(serverUrl: string): Promise<string> {
  const name = `clawsmith_test_${randomBytes(8).toString('hex')}`;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
