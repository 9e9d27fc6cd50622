/**
 * How long a connection to a clawsmith home's database waits for another process's write (or an
 * opening's migrations) before it gives up with SQLITE_BUSY: the tool host's and core's
 * connections wait the same. It must outlast the longest transaction any clawsmith process
 * holds, under load: a checkpoint batch of 32 MiB of pre-images, migrations of every package,
 * with two dozen processes queueing on two cores (measured: 10 s was not enough for 24 runs).
 */
export const HOME_BUSY_TIMEOUT_MS = 60_000;
