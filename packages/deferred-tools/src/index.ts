// Everything exported here is the public API of @clawsmith/deferred-tools.
// This package's contract is not built yet (see README.md); it exports only its status.

/** Whether this package's contract is built. Until it is, nothing else is exported. */
export const packageStatus = 'planned' as const;
