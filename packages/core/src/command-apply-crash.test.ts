import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createCheckpointStore, migrateCheckpoints } from '@clawsmith/checkpoints';
import { createTestdir, snapshotTree } from '@clawsmith/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { openClawsmithDatabase } from './store/open-database.js';

const fixture = resolve(import.meta.dirname, '__fixtures__/applying-child.ts');

function runUntilApplied(database: string, workspace: string, upper: string): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(
      process.execPath,
      ['--conditions=@clawsmith/source', '--import', 'tsx', fixture, database, workspace, upper],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    let errors = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('APPLIED')) child.kill('SIGKILL');
    });
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.on('exit', (_code, signal) =>
      signal === 'SIGKILL' ? resolvePromise() : reject(new Error(`the child ended on its own: ${output}\n${errors}`)),
    );
  });
}

describe('a command apply killed with SIGKILL', () => {
  it('leaves each file wholly old or new, and the checkpoint knows and undoes every applied one', async () => {
    const tree: Record<string, string> = {};
    for (let index = 0; index < 200; index += 1) tree[`src/d${index % 5}/f${index}.txt`] = `old ${index}\n`.repeat(50);
    const workspace = createTestdir(tree);
    const scratch = createTestdir({});
    onTestFinished(() => {
      workspace.remove();
      scratch.remove();
    });
    const upper = join(scratch.path, 'upper');
    for (let index = 0; index < 200; index += 2) {
      mkdirSync(join(upper, `src/d${index % 5}`), { recursive: true });
      writeFileSync(join(upper, `src/d${index % 5}/f${index}.txt`), `new ${index}\n`.repeat(70));
    }
    mkdirSync(join(upper, 'made'), { recursive: true });
    for (let index = 0; index < 50; index += 1) writeFileSync(join(upper, 'made', `n${index}.txt`), `${index}\n`);
    const before = snapshotTree(workspace.path);
    const database = join(scratch.path, 'clawsmith.db');

    await runUntilApplied(database, workspace.path, upper);

    const now = snapshotTree(workspace.path);
    for (const [path, fingerprint] of Object.entries(now))
      if (before[path] !== undefined && before[path] !== fingerprint) expect(path).toMatch(/f\d*[02468]\.txt$/);
    expect(readdirSync(join(workspace.path, 'made'))).toHaveLength(50);
    const db = openClawsmithDatabase(database);
    await migrateCheckpoints(db);
    onTestFinished(() => db.destroy());
    const store = createCheckpointStore({ db });
    const manifest = await store.completeTurn('session-1', 'turn-1');
    expect(manifest.files.filter((file) => file.change === 'modified')).toHaveLength(100);
    expect(manifest.files.filter((file) => file.change === 'created' && file.entry === 'file')).toHaveLength(50);
    await store.undoFiles('session-1', 'turn-1');
    expect(snapshotTree(workspace.path)).toEqual(before);
  });
});
