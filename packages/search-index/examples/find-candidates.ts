import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { literalQuery, regexQuery, SearchIndexes } from '@clawsmith/search-index';

const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'clawsmith-search-index-example-')));
const workspace = join(scratch, 'workspace');
mkdirSync(join(workspace, 'src'), { recursive: true });
writeFileSync(join(workspace, 'src/session.ts'), 'export const sessionTimeoutHours = 12;\n');
writeFileSync(join(workspace, 'src/answer.ts'), 'export const answer = 42;\n');
writeFileSync(join(workspace, 'README.md'), 'Sessions end after a while.\n');

// Indexes live in their own folder; `node_modules` is never entered; files over 1 MiB count by their start.
const indexes = new SearchIndexes(
  { folder: join(scratch, 'indexes'), settledMs: 0 },
  new Set(['node_modules']),
  1 << 20,
);
try {
  const index = indexes.forRoot(workspace); // a real path: the index is built in a worker thread
  // The index thread never holds a process open (a build is background work): wait with a timer.
  const waiting = setInterval(() => undefined, 1_000);
  await index.start().finally(() => clearInterval(waiting));
  if (!(await index.prepare())) throw new Error(`the index is ${index.state}: ${index.failure}`);
  const literal = index.candidates(literalQuery('sessionTimeoutHours', false), '', undefined);
  console.log(
    literal.files.map((file) => file.relative),
    'of',
    literal.known,
  ); // [ 'src/session.ts' ] of 3
  const regex = index.candidates(regexQuery('answer|a while'), '', undefined);
  console.log(regex.files.map((file) => file.relative).sort()); // [ 'README.md', 'src/answer.ts' ]
} finally {
  await indexes.close();
  rmSync(scratch, { recursive: true, force: true });
}
