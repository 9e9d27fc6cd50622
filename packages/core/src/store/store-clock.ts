/** The store's timestamps: ISO 8601 text in UTC, which sorts as it reads. */
export const now = (): string => new Date().toISOString();
