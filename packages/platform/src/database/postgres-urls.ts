import type { Kysely } from 'kysely';

// The connection URL of each database openPostgresDatabase opened, so that a listener can open a
// connection of its own to the same database without every caller carrying the URL (and its
// password) around. Weak: a destroyed, dropped database takes its entry with it.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const urls = new WeakMap<Kysely<any>, string>();

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function rememberPostgresUrl(db: Kysely<any>, url: string): void {
  urls.set(db, url);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function postgresUrlOf(db: Kysely<any>): string | undefined {
  return urls.get(db);
}
