// Overlay capture of run_command's file changes: the per-call overhead on run_command("true"),
// applying and recording 10,000 created files beside `cp -r` of the same files, and one file
// modified in a ~28,000-file corpus workspace; every figure beside a reference of the same run.
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createCheckpointStore, openCheckpointDatabase } from '@clawsmith/checkpoints';
import { applyCapturedChanges, runCommand, settleCaptureFolders, upperFolderChanges } from '@clawsmith/command-sandbox';
import { corpusDir } from './corpus.js';
import { report, timingOf } from './measure.js';

/** Processor milliseconds of this process and of the child processes it has waited for (Linux). */
function processorTime(): number {
  const own = process.cpuUsage();
  // Fields 14-17 of /proc/self/stat: utime, stime, cutime, cstime in clock ticks (100 per second).
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (own.user + own.system) / 1000 + (Number(fields[13]) + Number(fields[14])) * 10;
}

const scratch = mkdtempSync(join(tmpdir(), 'clawsmith-bench-capture-'));
const db = await openCheckpointDatabase(join(scratch, 'clawsmith.db'));
const store = createCheckpointStore({ db });
let turns = 0;
const beginTurn = (workspaceRoot: string) =>
  store.beginTurn({
    sessionId: 'bench',
    turnId: `turn-${(turns += 1)}`,
    workspaceRoot,
    messageCount: 0,
    eventSequence: 0,
    todoSnapshot: [],
  });
const noConflicts = { isProtected: () => false, mountPoints: new Set<string>(), keepConflict: async () => 'kept' };

try {
  // 1. run_command("true"): capture off against capture on (overlay mounted, upper walked, nothing
  // applied), interleaved so both see the same load; then the processor time of each (this process
  // and the processes it waited for, background removal of capture folders included), which a
  // shared machine's load inflates far less than wall time.
  const empty = join(scratch, 'empty');
  mkdirSync(empty);
  const runs = 40;
  const withoutCaptureRun = () => runCommand({ capture: 'off' }, { workspaceRoot: empty, command: 'true' });
  const withCaptureRun = () => runCommand({}, { workspaceRoot: empty, command: 'true' });
  const offSamples: number[] = [];
  const onSamples: number[] = [];
  for (let run = 0; run < runs + 3; run += 1) {
    let start = performance.now();
    await withoutCaptureRun();
    const off = performance.now() - start;
    start = performance.now();
    await withCaptureRun();
    if (run >= 3) {
      offSamples.push(off);
      onSamples.push(performance.now() - start);
    }
  }
  await settleCaptureFolders();
  const withoutCapture = timingOf("runCommand true, capture 'off'", offSamples);
  const withCapture = timingOf('runCommand true, overlay capture', onSamples);
  report('run_command("true"): overlay capture against the same sandbox without it', withoutCapture, [withCapture]);
  console.log(
    `\ncapture adds ${(withCapture.medianMs - withoutCapture.medianMs).toFixed(1)} ms per call at the median (aim: at most 5 ms); load average ${loadavg()
      .map((load) => load.toFixed(1))
      .join(' ')}`,
  );
  const processorMs = async (operation: () => Promise<unknown>, calls: number) => {
    const before = processorTime();
    for (let call = 0; call < calls; call += 1) await operation();
    await settleCaptureFolders();
    return (processorTime() - before) / calls;
  };
  const offProcessor = await processorMs(withoutCaptureRun, 60);
  const onProcessor = await processorMs(withCaptureRun, 60);
  console.log(
    `processor time per call: ${offProcessor.toFixed(2)} ms without capture, ${onProcessor.toFixed(2)} ms with it (+${(onProcessor - offProcessor).toFixed(2)} ms)`,
  );

  // 2. A command that created 10,000 small files: walk the upper folder, record, move into place.
  const template = join(scratch, 'template');
  for (let folder = 0; folder < 100; folder += 1) {
    mkdirSync(join(template, 'gen', `d${folder}`), { recursive: true });
    for (let file = 0; file < 100; file += 1)
      writeFileSync(join(template, 'gen', `d${folder}`, `f${file}.txt`), `file ${folder}/${file}\n`.repeat(4));
  }
  const copies: number[] = [];
  const applies: number[] = [];
  for (let run = 0; run < 5; run += 1) {
    const target = join(scratch, `copy-${run}`);
    let start = performance.now();
    execFileSync('cp', ['-r', template, target]);
    copies.push(performance.now() - start);
    const workspace = join(scratch, `workspace-${run}`);
    const upper = join(scratch, `upper-${run}`);
    mkdirSync(workspace);
    cpSync(template, upper, { recursive: true });
    const turn = await beginTurn(workspace);
    start = performance.now();
    const applied = await applyCapturedChanges({
      workspaceRoot: workspace,
      changes: upperFolderChanges(upper, workspace),
      startedCtimeMs: Date.now() + 60_000,
      recorder: turn.recorder,
      ...noConflicts,
    });
    applies.push(performance.now() - start);
    await turn.complete();
    if (applied.applied.length !== 10_101) throw new Error(`applied ${applied.applied.length} paths, not 10,101`);
    for (const folder of [target, workspace, upper]) rmSync(folder, { recursive: true, force: true });
  }
  const copy = timingOf('cp -r of 10,000 small files', copies);
  const apply = timingOf('capture apply + record of 10,000 created files', applies);
  report('10,000 created files', copy, [apply]);
  console.log(`\napply + record is ${(apply.medianMs / copy.medianMs).toFixed(2)}x cp -r (aim: at most 2x)`);

  // 3. One file modified in a ~28,000-file workspace: cost follows the changed file.
  const corpus = corpusDir();
  const workspace = join(scratch, 'corpus-workspace');
  cpSync(corpus, workspace, { recursive: true });
  let count = 0;
  const countFiles = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (lstatSync(path).isDirectory()) countFiles(path);
      else count += 1;
    }
  };
  countFiles(workspace);
  const sample = execFileSync('find', [workspace, '-name', '*.js', '-size', '-20k', '-path', '*/lib/*'], {
    encoding: 'utf8',
  })
    .split('\n')
    .find((path) => path.length > 0)!;
  const path = relative(workspace, sample);
  const upper = join(scratch, 'corpus-upper');
  const single: number[] = [];
  const copyOne: number[] = [];
  for (let run = 0; run < 30; run += 1) {
    mkdirSync(dirname(join(upper, path)), { recursive: true });
    writeFileSync(join(upper, path), `// edit ${run}\n`);
    // As overlayfs copies folders up to hold an edit: it keeps their times to the nanosecond.
    for (let folder = dirname(path); folder !== '.'; folder = dirname(folder))
      execFileSync('touch', ['-r', join(workspace, folder), join(upper, folder)]);
    let start = performance.now();
    copyFileSync(join(upper, path), join(scratch, 'one-copy'));
    copyOne.push(performance.now() - start);
    const turn = await beginTurn(workspace);
    start = performance.now();
    await applyCapturedChanges({
      workspaceRoot: workspace,
      changes: upperFolderChanges(upper, workspace),
      startedCtimeMs: Date.now() + 60_000,
      recorder: turn.recorder,
      ...noConflicts,
    });
    single.push(performance.now() - start);
    await turn.complete();
    rmSync(upper, { recursive: true, force: true });
  }
  const one = timingOf(`capture apply + record, 1 file modified in ${count} files`, single);
  report('one file modified in a large workspace', timingOf('copyFileSync of that one file', copyOne), [one]);
  console.log(`\none modified file: ${one.medianMs.toFixed(2)} ms at the median (aim: at most 3 ms)`);
} finally {
  await db.destroy();
  rmSync(scratch, { recursive: true, force: true });
}
