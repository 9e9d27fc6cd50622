// The connection URL of each database openPostgresDatabase opened, so that a listener can open a
// connection of its own to the same database without every caller carrying the URL (and its
// password) around. Weak: a destroyed, dropped database takes its entry with it.
const urls = new WeakMap<object, string>();

export function rememberPostgresUrl(db: object, url: string): void {
  urls.set(db, url);
}

export function postgresUrlOf(db: object): string | undefined {
  return urls.get(db);
}
