// What one warm direct tool call (AgentCore.callTool, as `mcp serve` makes it) writes to a SQLite
// home: its write transactions, the statements in each by table, and the WAL frames they add.
// Counts, not times: the figures do not depend on the machine's load. Statements are seen by
// wrapping better-sqlite3's prepared statements (the connection every store of the home shares).
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openClawsmithHome } from '@clawsmith/core';
import { toolCallingCore } from './tool-calling-core.js';

/** One write transaction: an explicit BEGIN … COMMIT, or a write statement in autocommit. */
interface WriteTransaction {
  readonly statements: string[];
  explicit: boolean;
}

const transactions: WriteTransaction[] = [];
let open: WriteTransaction | undefined;
let reads = 0;
let connection: Database.Database | undefined;

const WRITE = /^\s*(insert|update|delete|replace)\b(?:\s+or\s+\w+)?(?:\s+into|\s+from)?\s+"?(\w+)"?/i;

function observe(source: string, database: Database.Database): void {
  connection ??= database;
  const text = source.trim().toLowerCase();
  if (text.startsWith('begin')) {
    open = { statements: [], explicit: true };
    return;
  }
  if (text.startsWith('commit') || text.startsWith('rollback') || text.startsWith('end')) {
    if (open && open.statements.length > 0) transactions.push(open);
    open = undefined;
    return;
  }
  const write = WRITE.exec(source);
  if (!write) {
    reads += 1;
    return;
  }
  const kind = `${write[1]!.toLowerCase()} ${write[2]}`;
  if (open) open.statements.push(kind);
  else transactions.push({ statements: [kind], explicit: false });
}

const probe = new Database(':memory:');
const statementPrototype = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, unknown>;
probe.close();
const originals = new Map<string, unknown>();
for (const method of ['run', 'all', 'get', 'iterate'] as const) {
  const original = statementPrototype[method] as (...parameters: unknown[]) => unknown;
  originals.set(method, original);
  statementPrototype[method] = function (this: Database.Statement, ...parameters: unknown[]) {
    observe(this.source, this.database);
    return original.apply(this, parameters);
  };
}

const home = mkdtempSync(join(tmpdir(), 'clawsmith-bench-writes-home-'));
const workspace = mkdtempSync(join(tmpdir(), 'clawsmith-bench-writes-ws-'));
writeFileSync(join(workspace, 'notes.md'), `${'clawsmith reads this line.\n'.repeat(150)}`);
writeFileSync(join(workspace, 'edited.md'), `# Edited\n\nversion 0\n${'clawsmith keeps this line.\n'.repeat(150)}`);
const opened = await openClawsmithHome(home);
const core = toolCallingCore(opened);
const session = await core.createSession({ workspaceRoot: workspace });
let edits = 0;
const calls = {
  read_file: () => ({ path: 'notes.md' }),
  edit_file: () => {
    edits += 1;
    return { path: 'edited.md', oldText: `version ${edits - 1}`, newText: `version ${edits}` };
  },
};

const walFile = join(home, 'clawsmith.db-wal');
const pageSize = (): number => connection!.pragma('page_size', { simple: true }) as number;
const walFrames = (): number => {
  try {
    return statSync(walFile).size === 0 ? 0 : (statSync(walFile).size - 32) / (pageSize() + 24);
  } catch {
    return 0;
  }
};

async function countOne(name: keyof typeof calls) {
  // Warm: the first call of a kind prepares statements and may write once-per-session rows.
  for (let index = 0; index < 3; index += 1) {
    const outcome = await core.callTool({ sessionId: session.id, name, arguments: calls[name]() });
    if (outcome.result.status !== 'success') throw new Error(outcome.result.content);
  }
  connection!.pragma('wal_checkpoint(TRUNCATE)');
  transactions.length = 0;
  reads = 0;
  const outcome = await core.callTool({ sessionId: session.id, name, arguments: calls[name]() });
  if (outcome.result.status !== 'success') throw new Error(outcome.result.content);
  const frames = walFrames();
  console.log(`\n## one warm ${name} through AgentCore.callTool (SQLite home)`);
  console.log(`write transactions: ${transactions.length}; WAL frames: ${frames}; read statements: ${reads}`);
  console.log('| # | transaction | statements |');
  console.log('|---:|---|---|');
  transactions.forEach((transaction, index) => {
    const counted = new Map<string, number>();
    for (const statement of transaction.statements) counted.set(statement, (counted.get(statement) ?? 0) + 1);
    const listed = [...counted].map(([kind, count]) => (count > 1 ? `${kind} x${count}` : kind)).join(', ');
    console.log(`| ${index + 1} | ${transaction.explicit ? 'begin … commit' : 'autocommit'} | ${listed} |`);
  });
}

await countOne('read_file');
await countOne('edit_file');
await core.close();
await opened.close();
rmSync(home, { recursive: true, force: true });
rmSync(workspace, { recursive: true, force: true });
// `npm run bench` runs the benchmarks in one process: the ones after this one see plain statements.
for (const [method, original] of originals) statementPrototype[method] = original;
