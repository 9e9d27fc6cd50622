/** True when `location` is a PostgreSQL connection URL (`postgres://` or `postgresql://`). */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(location.trim());
}

/**
 * `url` safe to print or log: its password replaced by `***` (also a `password=` query
 * parameter). Anything that cannot be parsed as a URL is replaced whole, because it may hold a
 * password in a form this function does not know.
 */
export function redactDatabaseUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '(a database URL that could not be parsed)';
  }
  if (parsed.password !== '') parsed.password = '***';
  for (const key of [...parsed.searchParams.keys()])
    if (key.toLowerCase() === 'password') parsed.searchParams.set(key, '***');
  return parsed.toString().replaceAll('%2A%2A%2A', '***');
}
