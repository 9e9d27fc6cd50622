#!/usr/bin/env node
// ESLint over the whole repository in one process (`npm run lint`, and a step of `npm test`).
// The layer rules (`@nx/enforce-module-boundaries`) read the project graph Nx caches under
// `.nx/workspace-data`; outside an Nx task, on a fresh clone, there is none and the rule would
// only warn and skip itself. So the graph is written first, and a missing graph fails the lint.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { commandLineOf } from './installed-command.mjs';

const root = resolve(import.meta.dirname, '../..');

const env = {
  NX_DAEMON: 'false',
  NX_NO_CLOUD: 'true',
  NX_SOCKET_DIR: join(root, '.nx/sockets'),
  NX_NATIVE_FILE_CACHE_DIRECTORY: join(root, '.nx/native-cache'),
  ...process.env,
};
const graph = spawnSync(process.execPath, [commandLineOf(root, 'nx', 'nx'), 'show', 'projects'], {
  cwd: root,
  env,
  stdio: ['ignore', 'ignore', 'inherit'],
});
const graphFile = join(env.NX_WORKSPACE_DATA_DIRECTORY ?? join(root, '.nx/workspace-data'), 'project-graph.json');
if (graph.status !== 0 || !existsSync(graphFile)) {
  console.error(
    `Nx did not write its project graph (${graphFile}; \`nx show projects\` exit ${graph.status ?? graph.signal}): ` +
      'without it the layer rules would be skipped, so nothing was linted. Run `npx nx show projects` to see why.',
  );
  process.exit(1);
}
const eslint = spawnSync(process.execPath, [commandLineOf(root, 'eslint', 'eslint'), 'packages', 'tools'], {
  cwd: root,
  env,
  stdio: 'inherit',
});
process.exit(eslint.status ?? 1);
