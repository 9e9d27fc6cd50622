import { join } from 'node:path';
import { openSqliteDatabase } from '@clawsmith/platform';
import { testDatabaseEngine } from '@clawsmith/test-utils/postgres';
import { describe, expect, it, onTestFinished } from 'vitest';
import { call, createHarness, type Harness } from '../__fixtures__/core-harness.js';

/**
 * What another connection to the home finds committed at the moment each event of `types` is
 * handed to subscribers (right after its commit): the session's turns and its messages' roles.
 * Read synchronously, so nothing the turn writes next can land before the reading.
 */
function committedAtEvents(harness: Harness, types: readonly string[]): string[] {
  const observer = openSqliteDatabase(join(harness.home.path, 'clawsmith.db'));
  onTestFinished(() => observer.close());
  const turns = observer.sqlite.prepare('select status from session_turn where session_id = ?').pluck();
  const roles = observer.sqlite
    .prepare('select role from session_message where session_id = ? order by position')
    .pluck();
  const seen: string[] = [];
  const stop = harness.core.subscribe((event) => {
    if (!types.includes(event.type)) return;
    const found = `turns ${turns.all(harness.session.id).join(' ') || '-'}; messages ${roles.all(harness.session.id).join(' ') || '-'}`;
    seen.push(`${event.type}: ${found}`);
  });
  onTestFinished(stop);
  return seen;
}

// Another connection reads the home's SQLite file; on PostgreSQL the same writes share one transaction too.
describe.runIf(testDatabaseEngine() === 'sqlite')('SessionStore.recordStep', () => {
  it("commits a direct call's turn with its turn.started and messages, and its tool.completed with its tool message", async () => {
    const harness = await createHarness({ files: { 'a.txt': 'alpha' }, permissionMode: 'accept-edits', responses: [] });
    const seen = committedAtEvents(harness, ['turn.started', 'tool.started', 'tool.completed']);
    const outcome = await harness.core.callTool({
      sessionId: harness.session.id,
      name: 'read_file',
      arguments: { path: 'a.txt' },
    });
    expect(outcome.result.status).toBe('success');
    expect(seen).toEqual([
      'turn.started: turns running; messages user assistant',
      'tool.started: turns running; messages user assistant',
      'tool.completed: turns running; messages user assistant tool',
    ]);
  });

  it("commits a model answer's message with its event, and a batch's last completion with all its tool messages", async () => {
    const harness = await createHarness({
      files: { 'a.txt': 'alpha', 'b.txt': 'beta' },
      permissionMode: 'accept-edits',
      responses: [
        {
          toolCalls: [
            call('r1', 'read_file', { path: 'a.txt' }),
            call('w1', 'write_file', { path: 'c.txt', content: 'c' }),
          ],
        },
        { text: 'done' },
      ],
    });
    const seen = committedAtEvents(harness, ['assistant.message', 'tool.completed']);
    const turn = await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'go' });
    expect(turn.status).toBe('completed');
    expect(seen).toEqual([
      'assistant.message: turns running; messages user assistant',
      // The first completion rides with the next call's tool.started, before any tool message.
      'tool.completed: turns running; messages user assistant',
      'tool.completed: turns running; messages user assistant tool tool',
      'assistant.message: turns running; messages user assistant tool tool assistant',
    ]);
  });
});

describe.runIf(testDatabaseEngine() === 'sqlite')('an approval request', () => {
  it('goes in after its approval.requested event, in the same transaction', async () => {
    const harness = await createHarness({
      files: {},
      permissionMode: 'default',
      responses: [{ toolCalls: [call('w1', 'write_file', { path: 'a.txt', content: 'a' })] }, { text: 'done' }],
      approvalHandler: async () => 'deny',
    });
    // A trigger on another connection records, inside the inserting transaction, how many
    // approval.requested events of the session are there when the row goes in.
    const observer = openSqliteDatabase(join(harness.home.path, 'clawsmith.db'));
    onTestFinished(() => observer.close());
    observer.sqlite.exec(`create table approval_seen (events integer);
      create trigger approval_row_seen after insert on session_approval begin
        insert into approval_seen select count(*) from session_event
          where session_id = new.session_id and type = 'approval.requested';
      end;`);
    const turn = await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'write' });
    expect(turn.status).toBe('completed');
    expect(observer.sqlite.prepare('select events from approval_seen').pluck().all()).toEqual([1]);
  });
});
