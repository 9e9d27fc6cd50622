// What the PostgreSQL globalSetup provides to test files (vitest's inject).
export {};

declare module 'vitest' {
  export interface ProvidedContext {
    /** The superuser URL of the run's PostgreSQL server (see `startPostgresServer`). */
    postgresUrl: string;
    /** The engine the project's tests run on (`packageTestConfigOnBothEngines`); SQLite when unset. */
    databaseEngine: 'sqlite' | 'postgres';
  }
}
