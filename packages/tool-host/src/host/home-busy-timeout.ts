import { SQLITE_BUSY_TIMEOUT_MS } from '@clawsmith/platform';

/**
 * How long a connection to a clawsmith home's database waits for another process's write (or an
 * opening's migrations) before it gives up with SQLITE_BUSY: the tool host's and core's
 * connections wait the same, `SQLITE_BUSY_TIMEOUT_MS` of `@clawsmith/platform` (which says why).
 */
export const HOME_BUSY_TIMEOUT_MS = SQLITE_BUSY_TIMEOUT_MS;
