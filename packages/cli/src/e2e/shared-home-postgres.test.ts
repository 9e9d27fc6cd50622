import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { testDatabaseUrl } from '@clawsmith/test-utils/postgres';
import { describe, expect, it } from 'vitest';
import { parseJsonLines, runCli, writeScript, type CliRun } from './cli-harness.js';

/** Everything a run printed, to look for a password in. */
const printed = (run: CliRun) => run.stdout + run.stderr;

// Two "machines" (two home folders, nothing shared but the database and the workspace) on one
// PostgreSQL home: the runs of one are listed, checkpointed and undone from the other.
describe('clawsmith on a PostgreSQL home (--database-url, CLAWSMITH_DATABASE_URL)', () => {
  it('runs two turns at once from two homes into one database, and undoes one machine’s turn from the other', async () => {
    const url = await testDatabaseUrl();
    const password = new URL(url).password;
    const machineA = testdir();
    const machineB = testdir();
    const workspace = testdir({ 'shared.txt': 'original\n' });
    const script = (home: string, file: string) =>
      writeScript(home, [
        { toolCalls: [{ name: 'write_file', arguments: { path: file, content: `${file} written\n` } }] },
        { text: `wrote ${file}` },
      ]);
    const run = (home: string, file: string, how: 'flag' | 'environment') =>
      runCli(
        [
          'run',
          '--json',
          '--permission-mode',
          'accept-edits',
          '--script',
          script(home, file),
          '--workspace',
          workspace,
          ...(how === 'flag' ? ['--database-url', url] : []),
          `write ${file}`,
        ],
        { home, ...(how === 'environment' ? { env: { CLAWSMITH_DATABASE_URL: url } } : {}) },
      );

    const [fromA, fromB] = await Promise.all([run(machineA, 'a.txt', 'flag'), run(machineB, 'b.txt', 'environment')]);
    for (const result of [fromA, fromB]) {
      expect([result.code, result.stderr]).toEqual([0, '']);
      expect(printed(result)).not.toContain(password);
    }
    // Neither machine created a SQLite database: the home's records are in PostgreSQL.
    expect(existsSync(join(machineA, 'clawsmith.db'))).toBe(false);
    expect(existsSync(join(machineB, 'clawsmith.db'))).toBe(false);
    const sessionOfA = String(parseJsonLines(fromA.stdout)[0]!.sessionId);

    const listed = await runCli(['sessions', '--json', '--database-url', url], { home: machineB });
    expect(listed.code).toBe(0);
    const sessions = parseJsonLines(listed.stdout).map((session) => session.id);
    expect(sessions).toHaveLength(2);
    expect(sessions).toContain(sessionOfA);

    const undo = await runCli(['undo', 'files', '1', '--session', sessionOfA, '--json', '--database-url', url], {
      home: machineB,
    });
    expect([undo.code, undo.stderr]).toEqual([0, '']);
    expect(existsSync(join(workspace, 'a.txt'))).toBe(false);
    expect(readFileSync(join(workspace, 'b.txt'), 'utf8')).toBe('b.txt written\n');
    const points = parseJsonLines(
      (
        await runCli(['checkpoints', '--session', sessionOfA, '--json'], {
          home: machineA,
          env: { CLAWSMITH_DATABASE_URL: url },
        })
      ).stdout,
    );
    expect(points.map((point) => point.undone)).toEqual([true]);
  });

  it('stops with database_unavailable, naming the URL without its password, when the password is wrong', async () => {
    const url = new URL(await testDatabaseUrl());
    url.password = 'wrong-password-7d3f';
    const home = testdir();
    const result = await runCli(['sessions', '--database-url', url.toString()], { home });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('database_unavailable');
    expect(result.stderr).toContain(`${url.username}:***@127.0.0.1:${url.port}`);
    expect(printed(result)).not.toContain('wrong-password-7d3f');
  });

  it('refuses a database URL that is not PostgreSQL without repeating it', async () => {
    const home = testdir();
    const result = await runCli(['sessions', '--database-url', 'mysql://root:hunter2@127.0.0.1/x'], { home });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('invalid_database_url');
    expect(printed(result)).not.toContain('hunter2');
  });
});
