// Set-up that real processes (`clawsmith run`, say) build once per test file, handed to each test
// as it was built: the tests of a file share the cost of the processes, not their state.
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createTestdir } from './testdir.js';

/** The folders a preparation works in, by name. */
export type PreparedFolderPaths<Name extends string> = Readonly<Record<Name, string>>;

/**
 * Runs `prepare` once before the file's tests, in empty folders named `names`, and returns a
 * function that puts every folder back as `prepare` left it and returns its result. Call it at
 * the start of each test that wants the prepared state.
 *
 * The folders keep their paths from test to test, because a home records its sessions'
 * workspaces by absolute path; so the tests that use them must not run concurrently (a file's
 * tests run one after another unless marked `concurrent`). Whatever `prepare` started must have
 * ended (the copy is of closed files: a SQLite home is copied with no process holding it), and
 * what it built must live in the folders: a home whose store is a PostgreSQL database
 * (CLAWSMITH_DATABASE_URL) is not copied with its folder.
 */
export function preparedOncePerFile<Name extends string, Result>(
  names: readonly Name[],
  prepare: (folders: PreparedFolderPaths<Name>) => Promise<Result>,
  timeout = 120_000,
): () => Result & PreparedFolderPaths<Name> {
  const root = createTestdir({}, 'clawsmith-prepared-');
  const folders = Object.fromEntries(names.map((name) => [name, join(root.path, 'live', name)])) as Record<
    Name,
    string
  >;
  const builtCopy = (name: Name) => join(root.path, 'built', name);
  let prepared: { readonly result: Result } | undefined;

  beforeAll(async () => {
    for (const name of names) mkdirSync(folders[name], { recursive: true });
    prepared = { result: await prepare(folders) };
    for (const name of names) cpSync(folders[name], builtCopy(name), { recursive: true });
  }, timeout);
  afterAll(() => root.remove());

  return () => {
    if (prepared === undefined) throw new Error('The preparation did not finish; see the error of its beforeAll hook.');
    for (const name of names) {
      rmSync(folders[name], { recursive: true, force: true });
      cpSync(builtCopy(name), folders[name], { recursive: true });
    }
    return { ...prepared.result, ...folders };
  };
}
