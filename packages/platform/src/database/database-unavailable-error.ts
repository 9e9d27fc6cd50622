/**
 * A database server that could not be reached or refused the connection while opening
 * (`code` `database_unavailable`). The message names the URL without its password and says what
 * to check; `cause` is the driver's error.
 */
export class DatabaseUnavailableError extends Error {
  /** Stable code for programs: `database_unavailable`. */
  readonly code = 'database_unavailable';
  /** True: the server may answer later. */
  readonly retryable = true;

  constructor(displayUrl: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      `Could not open the database ${displayUrl}: ${reason}. Check that the server runs and accepts this user, password and database (the URL's parts), then run again; nothing was changed.`,
      { cause },
    );
    this.name = 'DatabaseUnavailableError';
  }
}
