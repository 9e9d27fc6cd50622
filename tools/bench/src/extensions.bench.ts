// memory_search over 10,000 notes (2 MB) beside a naive in-memory scan of the same text, with and
// without the per-search freshness sweep; and what discovering 200 skills adds to core startup
// (createAgentCore with the cli's builtin tools), beside core startup alone: every SKILL.md read,
// and unchanged since the home's skill cache was written; in this process and in fresh ones.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgentCore, createBuiltinTools, openClawsmithHome } from '@clawsmith/core';
import {
  MemoryIndex,
  createMemorySearch,
  createSkillViewTool,
  discoverSkills,
  skillsPromptSection,
} from '@clawsmith/extensions';
import { createScriptedProvider } from '@clawsmith/providers';
import type { ToolExecutionContext } from '@clawsmith/tool-protocol';
import { measure, report, medianOf, timingOf, type Timing } from './measure.js';

const NOTES = 10_000;
const SKILLS = 200;
const RUNS = 40;

// A seeded generator: every run indexes the same 2 MB.
let seed = 42;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};
const syllables = ['ka', 'lo', 'mi', 'ra', 'te', 'su', 'no', 'vi', 'de', 'po', 'an', 'el', 'or', 'us', 'ix', 'qu'];
const vocabulary = Array.from({ length: 3_000 }, () =>
  Array.from({ length: 2 + Math.floor(random() * 3) }, () => syllables[Math.floor(random() * syllables.length)]).join(
    '',
  ),
);
const word = () => vocabulary[Math.floor(random() ** 2 * vocabulary.length)] as string;
const sentence = (count: number) => Array.from({ length: count }, word).join(' ');

const home = mkdtempSync(join(tmpdir(), 'clawsmith-bench-ext-'));
const workspace = mkdtempSync(join(tmpdir(), 'clawsmith-bench-ext-ws-'));
const texts: string[] = [];
let bytes = 0;
for (let index = 0; index < NOTES; index += 1) {
  const folder = join(home, 'memory', `topic-${index % 100}`);
  if (index < 100) mkdirSync(folder, { recursive: true });
  const text = `# ${sentence(3)}\n\n${sentence(14)}.\n${sentence(12)}.\n`;
  texts.push(text.toLowerCase());
  bytes += Buffer.byteLength(text);
  writeFileSync(join(folder, `note-${index}.md`), text);
}
console.log(`${NOTES} notes, ${(bytes / 1024 / 1024).toFixed(2)} MB in ${home}/memory`);
// Written first: the skill cache keeps only files settled for 2 s, as a person's skills are.
for (let index = 0; index < SKILLS; index += 1) {
  const name = `skill-${index}`;
  mkdirSync(join(home, 'skills', name), { recursive: true });
  writeFileSync(
    join(home, 'skills', name, 'SKILL.md'),
    `---\nname: ${name}\ndescription: ${sentence(12)}\nlicense: MIT\n---\n# ${name}\n\n${sentence(200)}\n`,
  );
}
const skillsWritten = Date.now();

const build = performance.now();
const index = new MemoryIndex({ homeDir: home });
const built = index.refresh(workspace);
console.log(`first index build: ${(performance.now() - build).toFixed(0)} ms (${built.indexed} files)`);
index.close();

const queries = Array.from({ length: 16 }, () => `${word()} ${word()}`);
let turn = 0;
const nextQuery = () => queries[turn++ % queries.length] as string;
const context: ToolExecutionContext = {
  authorized: true,
  workspaceRoot: workspace,
  sessionId: 's',
  turnId: 't',
  toolCallId: 'c',
  signal: new AbortController().signal,
};

const naive = await measure(
  'naive scan: lowercase includes over the 2 MB in memory',
  () => {
    const terms = nextQuery().split(' ');
    return texts.filter((text) => terms.some((term) => text.includes(term))).length;
  },
  RUNS,
);
const throttled = createMemorySearch({ homeDir: home });
const search = await measure(
  'memory_search (freshness checked at most once a second)',
  () => throttled.tool.execute({ query: nextQuery() }, context),
  RUNS,
);
throttled.close();
const sweeping = createMemorySearch({ homeDir: home, recheckMs: 0 });
const sweep = await measure(
  'memory_search with a freshness sweep of 10,000 files every call',
  () => sweeping.tool.execute({ query: nextQuery() }, context),
  10,
);
sweeping.close();
report(`memory_search over ${NOTES} notes`, naive, [search, sweep]);

// The freshness check itself: a full sweep (list and stat every note) beside the watched check,
// which lists only folders with file events: one note edited in place (its folder's 100 notes), or nothing.
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const watched = new MemoryIndex({ homeDir: home, recheckMs: 1 });
const fullSweep = await measure(
  'full sweep: refresh() lists and stats all notes',
  () => watched.refresh(workspace),
  5,
  1,
);
const editedSamples: number[] = [];
const idleSamples: number[] = [];
let listedPerEdit = 0;
for (let run = 0; run < 20; run += 1) {
  writeFileSync(join(home, 'memory', `topic-${run % 100}`, `note-${run}.md`), `# edited\n\n${sentence(14)} ${run}.\n`);
  await sleep(30);
  let start = performance.now();
  listedPerEdit = watched.refreshIfDue(workspace)?.files ?? Number.NaN;
  editedSamples.push(performance.now() - start);
  await sleep(5);
  start = performance.now();
  watched.refreshIfDue(workspace);
  idleSamples.push(performance.now() - start);
}
watched.close();
report(`memory freshness check over ${NOTES} notes in 100 folders`, fullSweep, [
  timingOf(`watched check after one note was edited in place (${listedPerEdit} notes listed)`, editedSamples),
  timingOf('watched check with no file event', idleSamples),
]);

await new Promise((resolve) => setTimeout(resolve, Math.max(0, skillsWritten + 2_100 - Date.now())));
const opened = await openClawsmithHome(join(home, 'core-home'));
const provider = createScriptedProvider({ script: { responses: [] } });
const builtinTools = createBuiltinTools({ command: { sandbox: 'off' } });
const startCore = (cache: boolean) => {
  const catalog = discoverSkills({ homeDir: home, workspaceRoot: workspace, ...(cache ? {} : { cache: false }) });
  skillsPromptSection(catalog);
  return createAgentCore({
    db: opened.db,
    provider,
    checkpoints: opened.checkpoints,
    builtinTools,
    extensions: [{ source: 'extension:skills', tools: [createSkillViewTool({ homeDir: home })] }],
  });
};
// The five operations alternate, run by run, so each sees the same load (it drifts within seconds
// on a shared machine); the added cost is also the median of paired differences, and processor
// time per operation (this process's user + system), which the load inflates far less than waiting.
const startupOperations = [
  {
    label: 'createAgentCore with the builtin tools',
    run: () => createAgentCore({ db: opened.db, provider, checkpoints: opened.checkpoints, builtinTools }),
  },
  {
    label: `discoverSkills: ${SKILLS} skills, every SKILL.md read (cache: false)`,
    run: () => discoverSkills({ homeDir: home, cache: false }),
  },
  {
    label: `discoverSkills: ${SKILLS} skills, unchanged since the cache was written`,
    run: () => discoverSkills({ homeDir: home }),
  },
  {
    label: `createAgentCore + ${SKILLS} skills (every file read), skill_view, prompt section`,
    run: () => startCore(false),
  },
  { label: `createAgentCore + ${SKILLS} skills (cached), skill_view, prompt section`, run: () => startCore(true) },
].map((operation) => ({ ...operation, samples: [] as number[], cpuMs: 0 }));
for (let round = -3; round < RUNS; round += 1) {
  for (const operation of startupOperations) {
    const cpu = process.cpuUsage();
    const start = performance.now();
    operation.run();
    const elapsed = performance.now() - start;
    const used = process.cpuUsage(cpu);
    // The first three rounds warm up.
    if (round < 0) continue;
    operation.samples.push(elapsed);
    operation.cpuMs += (used.user + used.system) / 1000;
  }
}
const [coreAlone, everyFile, cached, withEveryFile, withCached] = startupOperations.map((operation) =>
  timingOf(operation.label, operation.samples),
) as [Timing, Timing, Timing, Timing, Timing];
report('skill discovery at core startup (alternating)', coreAlone, [everyFile, cached, withEveryFile, withCached]);
const pairedAdded = (index: number) =>
  medianOf(startupOperations[index]!.samples.map((value, run) => value - startupOperations[0]!.samples[run]!));
const cpuAdded = (index: number) => (startupOperations[index]!.cpuMs - startupOperations[0]!.cpuMs) / RUNS;
console.log(
  `added to core startup by ${SKILLS} skills: ${(withEveryFile.medianMs - coreAlone.medianMs).toFixed(2)} ms reading every file, ${(withCached.medianMs - coreAlone.medianMs).toFixed(2)} ms cached (median differences); ${pairedAdded(3).toFixed(2)} ms and ${pairedAdded(4).toFixed(2)} ms (medians of paired differences); processor time ${cpuAdded(3).toFixed(2)} ms and ${cpuAdded(4).toFixed(2)} ms; load average ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}`,
);

// At cli startup discovery runs once, in a process whose code is not warmed up yet.
const coldRuns = 10;
const child = (cache: 'on' | 'off') => {
  const result = spawnSync(
    process.execPath,
    [...process.execArgv, join(import.meta.dirname, 'skills-discovery-child.ts'), home, workspace, cache],
    { encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`skills-discovery-child exited ${result.status}: ${result.stderr}`);
  return Number(result.stdout.trim());
};
const coldSamples = { off: [] as number[], on: [] as number[] };
for (let round = 0; round < coldRuns; round += 1) {
  coldSamples.off.push(child('off'));
  coldSamples.on.push(child('on'));
}
console.log(
  `first discovery in a fresh process (${coldRuns} processes each, interleaved): every file read ${medianOf(coldSamples.off).toFixed(2)} ms, cached ${medianOf(coldSamples.on).toFixed(2)} ms (medians)`,
);

await opened.close();
rmSync(home, { recursive: true, force: true });
rmSync(workspace, { recursive: true, force: true });
