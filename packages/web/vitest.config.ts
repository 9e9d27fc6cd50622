import { defineConfig } from 'vitest/config';
import { packageTestConfigOnBothEngines } from '../../vitest.shared.ts';

// Every suite runs on SQLite; those that read or write the home's store (through the web harness,
// a `clawsmith` process or two servers) run once more on PostgreSQL, where every home a test opens
// (and every process it starts) lives in a database of its own (CLAWSMITH_DATABASE_URL). The
// restore race against `clawsmith undo` times its start by the SQLite file the child opens, so it
// runs on SQLite only; two-servers.test.ts races two restores on PostgreSQL instead.
export default defineConfig(
  packageTestConfigOnBothEngines(
    [
      'src/http/server-close.test.ts',
      'src/routes/artifact-routes.test.ts',
      'src/routes/checkpoint-routes.test.ts',
      'src/routes/event-routes.test.ts',
      'src/routes/new-session-routes.test.ts',
      'src/routes/subagent-links.test.ts',
      'src/routes/turn-routes.test.ts',
      'src/transcript/transcript.test.ts',
      'test/browser/two-servers.test.ts',
      'test/processes/sse-fanout.test.ts',
    ],
    // The page's own logic (no DOM) is tested beside it too. One Chromium serves every browser
    // test file of a project (test/browser/chromium-server.ts). The files of a worker share its
    // loaded modules (the server, core and the page's sources, imported once, not once per file).
    {
      databaseUrlPerTest: true,
      sharedWorkerModules: true,
      moreFiles: ['page/src/**/*.test.ts'],
      globalSetup: ['test/browser/chromium-server.ts'],
    },
  ),
);
