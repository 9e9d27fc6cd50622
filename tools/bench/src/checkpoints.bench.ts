// Checkpoint cost per turn and undo cost, beside a shadow git repository in the same run, on
// workspaces of about 1,000, 10,000 and 28,000 corpus files with 1, 100 and 1,000 changed files.
//
// The shadow git reference is timed two ways, each in its own loop:
// - `git in a shell child` (the figure to quote): one long-lived `sh` started before the loop runs
//   the git commands sent over a pipe; git's time is the wall time this process waits for the
//   answer. This process never forks inside the loop.
// - `git forked here` (the method used until 2026-12-03): `execFileSync` from this process between
//   the samples. Forking marks every page of this process copy-on-write, and the checkpoint that
//   follows pays the page faults (a one-file turn measured 2-3x slower that way); kept so the old
//   figures stay comparable.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createCheckpointStore, openCheckpointDatabase } from '@clawsmith/checkpoints';
import { corpusDir } from './corpus.js';
import { report, timingOf } from './measure.js';
import { startShell } from './shell-runner.js';

function listFiles(root: string, limit: number): string[] {
  const files: string[] = [];
  const walk = (folder: string) => {
    for (const name of readdirSync(folder).sort()) {
      if (files.length >= limit) return;
      const path = join(folder, name);
      const stats = lstatSync(path);
      if (stats.isDirectory() && name !== '.git') walk(path);
      else if (stats.isFile() && name !== '.gitignore' && stats.size <= 1024 * 1024)
        files.push(relative(root, path).split('\\').join('/'));
    }
  };
  walk(root);
  return files;
}

const corpus = corpusDir();
const all = listFiles(corpus, 30_000);
// CLAWSMITH_BENCH_CHECKPOINT_SIZES=1000 (comma-separated) times only those workspace sizes.
const sizes = process.env.CLAWSMITH_BENCH_CHECKPOINT_SIZES
  ? process.env.CLAWSMITH_BENCH_CHECKPOINT_SIZES.split(',').map((size) => Math.min(Number(size), all.length))
  : [1_000, 10_000, all.length];
const summary: string[] = [];

for (const size of sizes) {
  const scratch = mkdtempSync(join(tmpdir(), 'clawsmith-bench-checkpoints-'));
  const workspace = join(scratch, 'workspace');
  const files = all.slice(0, size);
  for (const path of files) {
    mkdirSync(dirname(join(workspace, path)), { recursive: true });
    copyFileSync(join(corpus, path), join(workspace, path));
  }
  const env = { ...process.env, GIT_DIR: join(scratch, 'shadow.git'), GIT_WORK_TREE: workspace };
  const git = (...args: string[]) =>
    execFileSync('git', args, { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).trim();
  git('init', '-q');
  git('config', 'core.compression', '1');
  git('add', '-A');
  const baseTree = git('write-tree');
  const shell = startShell(env);
  const inProcess = async (command: string) => {
    const start = performance.now();
    execFileSync('sh', ['-c', command], { env, stdio: 'ignore' });
    return performance.now() - start;
  };
  const db = await openCheckpointDatabase(join(scratch, 'clawsmith.db'));
  const store = createCheckpointStore({ db });
  let turnNumber = 0;

  for (const changed of [1, 100, 1_000].filter((count) => count <= files.length)) {
    // Spread the changed files over the workspace, so neither side gets a lucky locality.
    const targets = Array.from({ length: changed }, (_, index) => files[Math.floor((index * files.length) / changed)]!);
    const originals = new Map(targets.map((path) => [path, readFileSync(join(workspace, path))]));
    const runs = changed === 1 ? 21 : 3;
    // What a file tool does: writes new bytes it holds in memory, hashes them, hands them over.
    const change = (run: number) =>
      targets.map((path) => {
        const content = Buffer.concat([originals.get(path)!, Buffer.from(`\n// change ${run}\n`)]);
        writeFileSync(join(workspace, path), content);
        return { path, content };
      });
    for (const method of ['git in a shell child', 'git forked here'] as const) {
      const runGit = method === 'git in a shell child' ? shell.run : inProcess;
      const checkpointSamples: number[] = [];
      const undoSamples: number[] = [];
      const gitSnapshotSamples: number[] = [];
      const gitRestoreSamples: number[] = [];
      for (let run = 0; run < runs + 2; run += 1) {
        turnNumber += 1;
        let spent = 0;
        let start = performance.now();
        const turn = await store.beginTurn({
          sessionId: 'bench',
          turnId: `t${turnNumber}`,
          workspaceRoot: workspace,
          messageCount: 0,
          eventSequence: 0,
          todoSnapshot: [],
        });
        // The batch entry points: every pre-image in one transaction, every result in one more.
        await turn.recorder.beforeChanges!(
          targets.map((path) => {
            const absolute = join(workspace, path);
            return {
              path,
              preimage: {
                state: 'file' as const,
                content: readFileSync(absolute),
                mode: statSync(absolute).mode & 0o7777,
              },
            };
          }),
        );
        spent += performance.now() - start;
        // New contents every turn of every loop: git must write new objects each time.
        const written = change(turnNumber);
        start = performance.now();
        await turn.recorder.afterChanges!(
          written.map(({ path, content }) => ({
            path,
            postimage: { state: 'file' as const, sha256: createHash('sha256').update(content).digest('hex'), content },
          })),
        );
        await turn.complete();
        spent += performance.now() - start;

        const gitSnapshot = await runGit('git add -A && git write-tree');

        start = performance.now();
        await store.undoFiles('bench', `t${turnNumber}`);
        const undo = performance.now() - start;

        change(turnNumber + 1_000_000);
        await runGit('git add -A');
        const gitRestore = await runGit(`git checkout ${baseTree} -- .`);
        if (run >= 2) {
          checkpointSamples.push(spent);
          gitSnapshotSamples.push(gitSnapshot);
          undoSamples.push(undo);
          gitRestoreSamples.push(gitRestore);
        }
      }
      const gitSnapshot = timingOf(`shadow git add -A && write-tree`, gitSnapshotSamples);
      const checkpoint = timingOf(`checkpoint (begin, batch record, complete)`, checkpointSamples);
      const gitRestore = timingOf(`shadow git checkout`, gitRestoreSamples);
      const undo = timingOf(`undoFiles`, undoSamples);
      report(`${size} files, ${changed} changed, ${method}: turn checkpoint`, gitSnapshot, [checkpoint]);
      report(`${size} files, ${changed} changed, ${method}: undo`, gitRestore, [undo]);
      summary.push(
        `| ${size} | ${changed} | ${method} | ${checkpoint.medianMs.toFixed(2)} | ${gitSnapshot.medianMs.toFixed(1)} | ${(gitSnapshot.medianMs / checkpoint.medianMs).toFixed(1)}x | ${undo.medianMs.toFixed(2)} | ${gitRestore.medianMs.toFixed(1)} | ${(gitRestore.medianMs / undo.medianMs).toFixed(2)}x |`,
      );
    }
  }
  await shell.close();
  await db.destroy();
  rmSync(scratch, { recursive: true, force: true });
}

console.log(
  `\n## summary (medians, ms; load average ${loadavg()
    .map((load) => load.toFixed(1))
    .join(' ')})`,
);
console.log(
  '| workspace files | changed | reference timed | checkpoint | shadow git snapshot | git/checkpoint | undo | shadow git checkout | git/undo |',
);
console.log('|---:|---:|---|---:|---:|---:|---:|---:|---:|');
for (const line of summary) console.log(line);
