import { cpSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SESSION_EVENT_TYPES } from '@clawsmith/session-protocol';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { openClawsmithHome } from './clawsmith-home.js';
import { SessionStore } from './store/session-store.js';

// A home written on 2026-12-06 by the main of that day, before events were a typed contract: CLI
// runs (reads, an edit, a failing command, a refused command, an unknown tool, a write, a
// subagent, a killed run and its recovery, undo, fork) and a library run (progress, approvals
// allowed and denied, a background subagent, retention).
const OLD_HOME = join(import.meta.dirname, '__fixtures__/home-written-2026-12-06');

function storedRows(databaseFile: string): Record<string, unknown>[] {
  const database = new Database(databaseFile, { readonly: true });
  try {
    const rows = database.prepare('SELECT * FROM session_event ORDER BY session_id, sequence').all() as {
      session_id: string;
      sequence: number;
      type: string;
      turn_id: string | null;
      payload_json: string;
      created_at: string;
    }[];
    return rows.map((row) => ({
      ...(JSON.parse(row.payload_json) as Record<string, unknown>),
      type: row.type,
      sessionId: row.session_id,
      turnId: row.turn_id,
      sequence: row.sequence,
      createdAt: row.created_at,
    }));
  } finally {
    database.close();
  }
}

describe('a home written before the typed event contract', () => {
  it('opens, and every stored event reads as its typed event with every field it was written with', async () => {
    const home = join(testdir(), 'home');
    cpSync(OLD_HOME, home, { recursive: true });
    const rows = storedRows(join(home, 'clawsmith.db'));

    const opened = await openClawsmithHome(home);
    try {
      const store = new SessionStore(opened.db);
      const sessions = await store.listSessions();
      const events = (await Promise.all(sessions.map((session) => store.listEvents(session.id)))).flat();
      events.sort((a, b) => a.sessionId.localeCompare(b.sessionId) || a.sequence - b.sequence);

      expect(events.filter((event) => event.type === 'event.unrecognized')).toEqual([]);
      expect(events).toEqual(rows);
      const seen = new Set(events.map((event) => event.type));
      // The kinds this home lacks (compaction came later) are read from literal rows in
      // session-protocol's tests.
      expect(SESSION_EVENT_TYPES.filter((type) => !seen.has(type))).toEqual([
        'background.notified',
        'request.failed',
        'retention.failed',
        'context.compacted',
      ]);
    } finally {
      await opened.close();
    }
  });
});
