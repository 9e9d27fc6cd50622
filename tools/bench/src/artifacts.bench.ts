// Benchmarks @clawsmith/artifacts on a 100 MB log-like artifact built from the corpus: a line-range
// read and keyword searches through the line index, against reading the whole body and scanning it.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { createArtifactStore, migrateArtifacts } from '@clawsmith/artifacts';
import { corpusDir } from './corpus.js';
import { measure, report } from './measure.js';

const TARGET_BYTES = 100 * 1024 * 1024;
const RARE = 'FATAL ECONNRESET upstream closed';

function corpusLines(root: string, wantedBytes: number): string[] {
  const lines: string[] = [];
  let total = 0;
  const stack = [root];
  while (stack.length > 0 && total < wantedBytes) {
    const folder = stack.pop()!;
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) stack.push(path);
      else if (/\.(js|ts|md|json)$/.test(entry.name) && statSync(path).size < 200_000) {
        for (const line of readFileSync(path, 'utf8').split('\n')) {
          if (line.trim() === '') continue;
          lines.push(line.slice(0, 300));
          total += line.length;
        }
      }
    }
  }
  return lines;
}

const workspace = mkdtempSync(join(tmpdir(), 'clawsmith-bench-artifacts-'));
const sqlite = new Database(join(workspace, 'clawsmith.db'));
sqlite.pragma('journal_mode = WAL');
sqlite.pragma('busy_timeout = 5000');
const db = new Kysely<any>({ dialect: new SqliteDialect({ database: sqlite }) }); // eslint-disable-line @typescript-eslint/no-explicit-any
try {
  await migrateArtifacts(db);
  const store = createArtifactStore({ db, directory: join(workspace, 'artifacts') });
  const source = corpusLines(corpusDir(), 16 * 1024 * 1024);
  const levels = ['INFO', 'DEBUG', 'WARN', 'INFO', 'INFO'];
  const log = await store.openAppendable({ sessionId: 'bench', toolCallId: 'build' });
  const started = performance.now();
  let written = 0;
  let lineNumber = 0;
  let rareLine = 0;
  while (written < TARGET_BYTES) {
    const parts: string[] = [];
    let size = 0;
    while (size < 1024 * 1024) {
      lineNumber += 1;
      const seconds = String(lineNumber % 60).padStart(2, '0');
      const text = lineNumber === 700_000 ? RARE : source[lineNumber % source.length];
      if (lineNumber === 700_000) rareLine = lineNumber;
      const line = `2026-12-02T12:${String(Math.floor(lineNumber / 60) % 60).padStart(2, '0')}:${seconds}.${String(lineNumber % 1000).padStart(3, '0')}Z ${levels[lineNumber % 5]} ${text}\n`;
      parts.push(line);
      size += Buffer.byteLength(line);
    }
    await log.append(parts.join(''));
    written += size;
  }
  const reference = await log.close();
  const appendMs = performance.now() - started;
  console.log(
    `artifact: ${(reference.byteLength / 1024 / 1024).toFixed(1)} MiB, ${reference.lineCount.toLocaleString('en-US')} lines, rare line ${rareLine}; built by appending 1 MiB chunks in ${appendMs.toFixed(0)} ms`,
  );

  const startLine = Math.floor(reference.lineCount * 0.73);
  const endLine = startLine + 199;
  const bodyPath = join(workspace, 'artifacts', reference.id);
  const wholeScan = (): string => {
    const body = readFileSync(bodyPath);
    let line = 1;
    let position = 0;
    while (line < startLine) {
      position = body.indexOf(10, position) + 1;
      line += 1;
    }
    let end = position;
    for (let count = 0; count < endLine - startLine + 1; count += 1) end = body.indexOf(10, end) + 1;
    return body.subarray(position, end).toString('utf8');
  };
  const viaIndex = async (): Promise<string> =>
    Buffer.from((await store.readLines('bench', reference.id, { startLine, endLine })).bytes).toString('utf8');
  if (wholeScan() !== (await viaIndex())) throw new Error('The indexed line read differs from the whole scan.');
  const wholeSearch = (): number => {
    const body = readFileSync(bodyPath);
    const at = body.indexOf(RARE);
    let line = 1;
    for (let position = body.indexOf(10); position !== -1 && position < at; position = body.indexOf(10, position + 1))
      line += 1;
    return line;
  };
  const rare = await store.search('bench', reference.id, { pattern: RARE, maxMatches: 1 });
  if (rare.lines[0]?.lineNumber !== wholeSearch())
    throw new Error(`Search found ${rare.lines[0]?.lineNumber}, the scan ${wholeSearch()}.`);

  const scan = await measure('whole-content scan for lines (reference)', wholeScan, 5, 1);
  const lineRead = await measure(`line range ${startLine}-${endLine} via index`, viaIndex, 50, 5);
  const byteRead = await measure(
    '64 KiB byte range at 73 %',
    () => store.readBytes('bench', reference.id, { offset: Math.floor(reference.byteLength * 0.73) }),
    50,
    5,
  );
  const commonSearch = await measure(
    'search "INFO", first 20 matches, 2 context lines',
    () => store.search('bench', reference.id, { pattern: 'INFO', contextLines: 2, fromLine: startLine }),
    20,
    3,
  );
  const regexSearch = await measure(
    'regex search /WARN .*error/i, 20 matches',
    () => store.search('bench', reference.id, { pattern: 'WARN .*error', regex: true, ignoreCase: true }),
    10,
    2,
  );
  const rareSearch = await measure(
    `search rare text at line ${rareLine} (scans ~${Math.round(rare.scannedBytes / 1048576)} MiB)`,
    () => store.search('bench', reference.id, { pattern: RARE, maxMatches: 1 }),
    5,
    1,
  );
  const rareWhole = await measure('whole-content scan for the rare text', wholeSearch, 5, 1);
  const budgetRegex = await store.search('bench', reference.id, { pattern: 'no such \\w+ here', regex: true });
  const regexBudget = await measure(
    `regex without a match (stops: ${budgetRegex.stoppedBy} after ${Math.round(budgetRegex.scannedBytes / 1048576)} MiB)`,
    () => store.search('bench', reference.id, { pattern: 'no such \\w+ here', regex: true }),
    3,
    1,
  );
  report('artifacts: 100 MB log artifact', scan, [
    lineRead,
    byteRead,
    commonSearch,
    regexSearch,
    rareSearch,
    rareWhole,
    regexBudget,
  ]);
  console.log(
    `\nLine range through the index: ${(scan.medianMs / lineRead.medianMs).toFixed(0)}x faster than scanning the whole content; 64 KiB byte range: ${(scan.medianMs / byteRead.medianMs).toFixed(0)}x; first 20 matches of a common word: ${(scan.medianMs / commonSearch.medianMs).toFixed(0)}x.`,
  );
} finally {
  await db.destroy();
  rmSync(workspace, { recursive: true, force: true });
}
