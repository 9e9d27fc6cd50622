// What the PostgreSQL globalSetup provides to test files (vitest's inject).
export {};

declare module 'vitest' {
  export interface ProvidedContext {
    /** The superuser URL of the run's PostgreSQL server (see `startPostgresServer`). */
    postgresUrl: string;
  }
}
