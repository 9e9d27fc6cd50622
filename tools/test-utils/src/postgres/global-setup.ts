// vitest globalSetup: one PostgreSQL server for a package's whole test run, started before the
// first test file and stopped after the last; test files read its URL with inject('postgresUrl').
import type { TestProject } from 'vitest/node';
import { startPostgresServer } from './postgres-server.js';
import './provided-context.js';

export default async function startRunPostgres(project: TestProject): Promise<() => Promise<void>> {
  const server = await startPostgresServer();
  project.provide('postgresUrl', server.url);
  return () => server.stop();
}
