// Child process for the crash test of a command's apply: records the pre-images of what a
// command left in an upper folder, moves the files into place, then stops before the
// post-images are recorded and says so, waiting to be killed with SIGKILL.
// Usage: applying-child.ts <database> <workspace> <upper>
import { applyCapturedChanges, upperFolderChanges } from '@clawsmith/command-sandbox';
import { createCheckpointStore, migrateCheckpoints } from '@clawsmith/checkpoints';
import { openClawsmithDatabase } from '../store/open-database.js';

const [database, workspace, upper] = process.argv.slice(2) as [string, string, string];
const db = openClawsmithDatabase(database);
await migrateCheckpoints(db);
const store = createCheckpointStore({ db });
const turn = await store.beginTurn({
  sessionId: 'session-1',
  turnId: 'turn-1',
  workspaceRoot: workspace,
  messageCount: 0,
  eventSequence: 0,
  todoSnapshot: [],
});
const recorder = {
  ...turn.recorder,
  afterChanges: async () => {
    process.stdout.write('APPLIED\n');
    await new Promise(() => setInterval(() => undefined, 1_000));
  },
};
await applyCapturedChanges({
  workspaceRoot: workspace,
  changes: upperFolderChanges(upper, workspace),
  startedCtimeMs: Date.now() + 60_000,
  isProtected: () => false,
  mountPoints: new Set(),
  recorder,
  keepConflict: async () => 'kept',
});
