import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCheckpointStore, openCheckpointDatabase } from '@clawsmith/checkpoints';

const scratch = mkdtempSync(join(tmpdir(), 'clawsmith-checkpoints-example-'));
const workspaceRoot = join(scratch, 'project');
mkdirSync(workspaceRoot);
writeFileSync(join(workspaceRoot, 'notes.txt'), 'first draft\n');

const db = await openCheckpointDatabase(join(scratch, 'clawsmith.db'));
try {
  const store = createCheckpointStore({ db });
  const turn = await store.beginTurn({
    sessionId: 's1',
    turnId: 't1',
    workspaceRoot,
    messageCount: 0,
    eventSequence: 0,
    todoSnapshot: [],
  });
  // What every writing tool does with context.fileChanges (turn.recorder): record, write, confirm.
  const before = readFileSync(join(workspaceRoot, 'notes.txt'));
  await turn.recorder.beforeChange('notes.txt', { state: 'file', content: before, mode: 0o644 });
  const written = Buffer.from('second draft\n');
  writeFileSync(join(workspaceRoot, 'notes.txt'), written);
  const sha256 = createHash('sha256').update(written).digest('hex');
  // Handing over the bytes written spares the store reading the file back at complete().
  await turn.recorder.afterChange('notes.txt', { state: 'file', sha256, content: written });
  const manifest = await turn.complete();
  console.log(manifest.files.map((file) => `${file.change} ${file.path}`)); // [ 'modified notes.txt' ]

  const conflicts = await store.precheckUndo('s1', 't1'); // [] unless the file changed again since
  if (conflicts.length === 0) await store.undoFiles('s1', 't1');
  console.log(readFileSync(join(workspaceRoot, 'notes.txt'), 'utf8').trim()); // first draft
} finally {
  await db.destroy();
  rmSync(scratch, { recursive: true, force: true });
}
