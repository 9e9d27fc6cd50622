// Benchmarks the search_files trigram index of @clawsmith/workspace-fs on the real corpus: build,
// size, memory, warm searches and an incremental update, each beside ripgrep in the same run, and a
// recall check of indexed searches against rg.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SearchIndexes } from '@clawsmith/search-index';
import type { ToolExecutionContext, ToolExecutionResult } from '@clawsmith/tool-protocol';
import { createWorkspaceTools, DEFAULT_WORKSPACE_LIMITS } from '@clawsmith/workspace-fs';
import { corpusDir } from './corpus.js';
import { measure, medianOf, report } from './measure.js';
import { pickRareIdentifiers } from './rare-identifiers.js';

const corpus = corpusDir();
const skipped = ['node_modules', '.git', 'dist', 'coverage'];
const rgSkips = ['--no-ignore', '--hidden', '--no-config', ...skipped.flatMap((name) => ['-g', `!${name}`])];
const RARE = 'regExpToString';
const MIB = 1024 * 1024;

function contextFor(root: string): ToolExecutionContext {
  return {
    authorized: true,
    workspaceRoot: root,
    sessionId: 'bench',
    turnId: 'bench',
    toolCallId: 'bench',
    signal: new AbortController().signal,
  };
}

async function run(tool: ReturnType<typeof createWorkspaceTools>[number], input: unknown, root = corpus) {
  return (await tool.execute(tool.inputSchema.parse(input), contextFor(root))) as ToolExecutionResult;
}

function peakRssMb(): number {
  const status = readFileSync('/proc/self/status', 'utf8');
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** Bytes a search (and so the index) covers: the first MiB of every regular file the walk yields. */
function indexedText(): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!skipped.includes(entry.name)) walk(path);
      } else if (entry.isFile()) {
        files += 1;
        bytes += Math.min(statSync(path).size, DEFAULT_WORKSPACE_LIMITS.searchFileBytes);
      }
    }
  };
  walk(corpus);
  return { files, bytes };
}

/** The JSON description a stored index carries after its 64-byte header. */
function storedDescription(path: string): {
  buildMs: number;
  parts: number;
  trigrams: number;
  commonKeys: number;
  postings: number;
} {
  const bytes = readFileSync(path);
  const length = bytes.readUInt32LE(64);
  return JSON.parse(bytes.toString('utf8', 68, 68 + length)) as ReturnType<typeof storedDescription>;
}

const rgScan = await measure(
  'rg -F -l, one full scan of the corpus',
  () => spawnSync('rg', [...rgSkips, '-F', '-l', RARE, corpus]),
  10,
  2,
);

// Build from nothing: the time from the tools' first search until a search uses the index.
const home = mkdtempSync(join(tmpdir(), 'clawsmith-index-bench-'));
const baselineRss = process.memoryUsage().rss / MIB;
writeFileSync('/proc/self/clear_refs', '5');
const [, search] = createWorkspaceTools({ workspaceRoot: corpus, searchIndex: { folder: home } });
const buildStart = performance.now();
let firstAnswer = await run(search!, { query: RARE });
const walkReport = firstAnswer.content;
// Until the index file exists, only its folder is looked at (every 20 ms): a search before the
// index is ready is a whole walk on this process, which took a core from the build's two threads
// while `rg` had both. Then searched every 100 ms until a search uses the index.
while (!readdirSync(home).some((name) => existsSync(join(home, name, 'index.bin')))) {
  await new Promise((resolve) => setTimeout(resolve, 20));
}
while (!firstAnswer.content.includes('Used the search index')) {
  await new Promise((resolve) => setTimeout(resolve, 100));
  firstAnswer = await run(search!, { query: RARE });
}
const buildMs = performance.now() - buildStart;
const peakRss = peakRssMb();
const [folder] = readdirSync(home);
const indexBytes = statSync(join(home, folder!, 'index.bin')).size;
const built = storedDescription(join(home, folder!, 'index.bin'));
// Two more builds from nothing, each by a set of indexes of its own (no watchers), so the build
// figure is a median like rg's and not one sample of a noisy machine.
const buildsMs = [built.buildMs];
for (let again = 0; again < 2; again += 1) {
  const folder = mkdtempSync(join(tmpdir(), 'clawsmith-index-bench-'));
  const indexes = new SearchIndexes(
    { folder, watch: false },
    new Set(skipped),
    DEFAULT_WORKSPACE_LIMITS.searchFileBytes,
  );
  try {
    const index = indexes.forRoot(realpathSync(corpus));
    // The index thread is never referenced (a process that is done may exit mid-build): wait on a timer.
    const waiting = setInterval(() => undefined, 1000);
    await index.start().finally(() => clearInterval(waiting));
    if (index.state !== 'ready') throw new Error(`the index build failed: ${index.failure}`);
    const [sub] = readdirSync(folder);
    buildsMs.push(storedDescription(join(folder, sub!, 'index.bin')).buildMs);
  } finally {
    await indexes.close();
    rmSync(folder, { recursive: true, force: true });
  }
}
const buildMedianMs = medianOf(buildsMs);
const text = indexedText();

const rareIndexed = await measure(
  `search_files "${RARE}" (index, warm)`,
  async () => {
    const result = await run(search!, { query: RARE });
    if (!result.content.includes('ContextDependency.js:33:')) throw new Error(`unexpected: ${result.content}`);
  },
  40,
  5,
);
const rareRg = await measure(
  `rg -F -n "${RARE}" over the whole corpus`,
  () => spawnSync('rg', [...rgSkips, '-F', '-n', RARE, corpus]),
  15,
  2,
);
report(`rare literal (1 file, deep in the walk order)`, rareRg, [rareIndexed]);
console.log(`\nFirst search (walk, index building): ${walkReport.split('\n')[0]}`);
console.log(`Indexed: ${(await run(search!, { query: RARE })).content.split('\n').slice(0, 4).join(' / ')}`);

const regexIndexed = await measure(
  'search_files regex "getNewLine\\w+" (index, warm)',
  () => run(search!, { query: 'getNewLine\\w+', regex: true }),
  20,
  3,
);
const regexRg = await measure(
  'rg -n "getNewLine\\w+" over the whole corpus',
  () => spawnSync('rg', [...rgSkips, '-n', 'getNewLine\\w+', corpus], { maxBuffer: 64 * MIB }),
  10,
  2,
);
const noLiteral = await measure(
  'search_files regex "\\w+Z" (no literal: walk within the budget)',
  () => run(search!, { query: '\\w+Z', regex: true }),
  20,
  3,
);
const noLiteralRg = await measure(
  'rg -c "\\w+Z" over the whole corpus',
  () => spawnSync('rg', [...rgSkips, '-c', '\\w+Z', corpus], { maxBuffer: 64 * MIB }),
  5,
  1,
);
report('regular expressions', regexRg, [regexIndexed, noLiteral, noLiteralRg]);
console.log(
  `\n"getNewLine\\w+": ${(await run(search!, { query: 'getNewLine\\w+', regex: true })).content
    .split('\n')
    .filter((line) => line.startsWith('Used') || line.startsWith('Stopped'))
    .join(' / ')}`,
);
console.log(
  `"\\w+Z": ${(await run(search!, { query: '\\w+Z', regex: true })).content
    .split('\n')
    .filter((line) => line.startsWith('The search index') || line.startsWith('Searched'))
    .join(' / ')}`,
);

console.log('\n## index build and size');
console.log(`| what | figure | ratio |`);
console.log('|---|---:|---:|');
console.log(
  `| build in the worker (walk, read, index in ${built.parts} thread(s), join; the write follows), median of ${buildsMs.join(', ')} ms | ${buildMedianMs.toFixed(0)} ms | ${(buildMedianMs / rgScan.medianMs).toFixed(1)}x one rg scan (${rgScan.medianMs.toFixed(0)} ms) |`,
);
console.log(
  `| build to first indexed answer (walk, read, index, write, load, watch, sweep) | ${buildMs.toFixed(0)} ms | ${(buildMs / rgScan.medianMs).toFixed(1)}x one rg scan (${rgScan.medianMs.toFixed(0)} ms) |`,
);
console.log(
  `| index file on disk | ${(indexBytes / MIB).toFixed(1)} MiB | ${((100 * indexBytes) / text.bytes).toFixed(1)} % of ${(text.bytes / MIB).toFixed(0)} MiB indexed text (${text.files} files) |`,
);
console.log(
  `| keys listed (common keys left out: held by an eighth of a sample of the files or more) | ${built.trigrams.toLocaleString('en-US')} keys, ${built.postings.toLocaleString('en-US')} file-key pairs | ${built.commonKeys} common keys |`,
);
console.log(
  `| process peak RSS during the build | ${peakRss.toFixed(0)} MiB | ${(peakRss - baselineRss).toFixed(0)} MiB above the ${baselineRss.toFixed(0)} MiB before |`,
);

// Rare identifiers, the seed's budget, no path hint: every file rg finds must be in the answer.
const rare = pickRareIdentifiers(corpus, skipped, rgSkips, 30);
console.log(`\n## rare identifiers (${rare.length}: 14+ characters, 1-5 files, picked by hash), default budget`);
console.log('| identifier | rg files | found | candidates searched | search ms | rg ms | rg / search |');
console.log('|---|---:|---:|---|---:|---:|---:|');
let rgFilesTotal = 0;
let foundTotal = 0;
let completeQueries = 0;
const searchMedians: number[] = [];
const rgMedians: number[] = [];
for (const { text, rgFiles } of rare) {
  let answer: ToolExecutionResult | undefined;
  const searchTiming = await measure(
    text,
    async () => {
      answer = await run(search!, { query: text, maxResults: 100 });
    },
    5,
    1,
  );
  const rgTiming = await measure(`rg ${text}`, () => spawnSync('rg', [...rgSkips, '-F', '-n', text, corpus]), 3, 1);
  const answered = new Set(
    answer!.content
      .split('\n')
      .map((line) => /^(\S+):\d+: /.exec(line)?.[1])
      .filter(Boolean),
  );
  const found = rgFiles.filter((path) => answered.has(path.slice(corpus.length + 1))).length;
  const used = /searched ([\d,]+) of ([\d,]+) candidate/.exec(answer!.content);
  rgFilesTotal += rgFiles.length;
  foundTotal += found;
  if (found === rgFiles.length) completeQueries += 1;
  searchMedians.push(searchTiming.medianMs);
  rgMedians.push(rgTiming.medianMs);
  console.log(
    `| \`${text}\` | ${rgFiles.length} | ${found} | ${used ? `${used[1]} of ${used[2]}` : 'index not used'} | ${searchTiming.medianMs.toFixed(2)} | ${rgTiming.medianMs.toFixed(0)} | ${(rgTiming.medianMs / searchTiming.medianMs).toFixed(0)}x |`,
  );
}
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
console.log(
  `\nRecall: ${foundTotal} of ${rgFilesTotal} files rg finds (${completeQueries} of ${rare.length} identifiers complete). ` +
    `Speed: median search ${medianOf(searchMedians).toFixed(2)} ms vs rg ${medianOf(rgMedians).toFixed(0)} ms; ` +
    `all ${rare.length} searches ${sum(searchMedians).toFixed(0)} ms vs rg ${sum(rgMedians).toFixed(0)} ms ` +
    `(${(sum(rgMedians) / sum(searchMedians)).toFixed(0)}x; slowest search ${Math.min(...rgMedians.map((value, index) => value / searchMedians[index]!)).toFixed(0)}x its rg).`,
);

// Incremental update: edit_file with and without the index on a copy of one corpus file.
const small = mkdtempSync(join(tmpdir(), 'clawsmith-index-edit-'));
const sample = join(corpus, 'src/webpack/lib/dependencies/ContextDependency.js');
copyFileSync(sample, join(small, 'file.js'));
const smallHome = mkdtempSync(join(tmpdir(), 'clawsmith-index-edit-home-'));
const indexedTools = createWorkspaceTools({ workspaceRoot: small, searchIndex: { folder: smallHome } });
const plainTools = createWorkspaceTools({ workspaceRoot: small });
while (!(await run(indexedTools[1], { query: 'regExpToString' }, small)).content.includes('Used the search index'))
  await new Promise((resolve) => setTimeout(resolve, 10));
let flip = 0;
const editWith = (tools: typeof plainTools) => async () => {
  const [from, to] = flip++ % 2 === 0 ? ['regExpToString', 'regExpToStrinG'] : ['regExpToStrinG', 'regExpToString'];
  const result = await run(tools[3], { path: 'file.js', oldText: `const ${from}`, newText: `const ${to}` }, small);
  if (result.status !== 'success') throw new Error(result.content);
};
const editPlain = await measure(
  `edit_file of a ${statSync(sample).size}-byte file, no index`,
  editWith(plainTools),
  40,
  4,
);
const editIndexed = await measure('edit_file of the same file, index updated at once', editWith(indexedTools), 40, 4);
const searchAfterEdit = await measure(
  'edit_file then search_files for the new text (index)',
  async () => {
    await editWith(indexedTools)();
    const result = await run(indexedTools[1], { query: flip % 2 === 1 ? 'regExpToStrinG' : 'regExpToString' }, small);
    if (!result.content.includes('file.js:')) throw new Error(result.content);
  },
  20,
  2,
);
report('incremental update after one edit (difference = cost of updating the index)', editPlain, [
  editIndexed,
  searchAfterEdit,
]);
console.log(
  `\nIndex update cost per edit: ${(editIndexed.medianMs - editPlain.medianMs).toFixed(2)} ms (median difference)`,
);

// Recall: every file rg finds (within the per-file limit) must be among search_files' results.
const queries: { query: string; regex?: boolean }[] = [
  { query: RARE },
  { query: 'createCompilerDiagnosticFromMessageChain' },
  { query: 'throwIfCancellationRequested' },
  { query: 'useSyncExternalStore' },
  { query: 'webpackChunkName' },
  { query: 'getNewLine\\w+', regex: true },
  { query: 'Symbol\\.asyncIterator', regex: true },
  { query: '(Sync|Async)Hook[A-Z]', regex: true },
  { query: 'process\\.env\\.NODE_DEBUG', regex: true },
  { query: 'ERR_[A-Z]+_UNSUPPORTED', regex: true },
];
const wide = createWorkspaceTools({
  workspaceRoot: corpus,
  searchIndex: { folder: home },
  limits: { searchBytes: 1024 * MIB, searchFiles: 100_000 },
})[1];
while (!(await run(wide, { query: RARE })).content.includes('Used the search index'))
  await new Promise((resolve) => setTimeout(resolve, 10));
console.log('\n## recall against rg (files with a match in their first MiB)');
console.log('| query | rg files | found | missed | search stopped by |');
console.log('|---|---:|---:|---:|---|');
let missedTotal = 0;
for (const { query, regex } of queries) {
  const rg = spawnSync('rg', [...rgSkips, '-l', ...(regex ? [] : ['-F']), query, corpus], { maxBuffer: 64 * MIB })
    .stdout.toString()
    .split('\n')
    .filter(Boolean);
  const inLimit = rg.filter((path) => {
    const size = statSync(path).size;
    if (size <= MIB) return true;
    const head = readFileSync(path).subarray(0, MIB).toString('utf8');
    return regex ? new RegExp(query).test(head) : head.includes(query);
  });
  const result = await run(wide, { query, ...(regex ? { regex } : {}), maxResults: 100 });
  const found = new Set(
    result.content
      .split('\n')
      .map((line) => /^(\S+):\d+: /.exec(line)?.[1])
      .filter(Boolean),
  );
  const stopped = /Stopped (early: the [^;]*|at the \d+-result limit)/.exec(result.content)?.[1] ?? 'nothing';
  const missed = stopped === 'nothing' ? inLimit.filter((path) => !found.has(path.slice(corpus.length + 1))) : [];
  missedTotal += missed.length;
  console.log(
    `| ${regex ? 'regex ' : ''}\`${query}\` | ${inLimit.length} | ${found.size} | ${missed.length}${missed.length ? ` (${missed.slice(0, 3).join(', ')})` : ''} | ${stopped} |`,
  );
}
console.log(`\nMissed matches in indexed, fresh files: ${missedTotal}`);
rmSync(home, { recursive: true, force: true });
rmSync(small, { recursive: true, force: true });
rmSync(smallHome, { recursive: true, force: true });
process.exit(0);
