// vitest setupFile of a `postgres` test project: before each test, CLAWSMITH_DATABASE_URL names a
// new, empty database on the run's server, so that every home the test opens (and every child
// process it starts, which inherits the environment) lives there; it is unset after the test.
import { afterEach, beforeEach, inject } from 'vitest';
import { createTestDatabase } from './test-database.js';
import './provided-context.js';

beforeEach(async () => {
  process.env.CLAWSMITH_DATABASE_URL = await createTestDatabase(inject('postgresUrl'));
});

afterEach(() => {
  delete process.env.CLAWSMITH_DATABASE_URL;
});
