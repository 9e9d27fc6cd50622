import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, createReadStream, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { bundledFixture, testdir } from '@clawsmith/test-utils';
import { testDatabaseEngine } from '@clawsmith/test-utils/postgres';
import { sql } from 'kysely';
import { describe, expect, it, onTestFinished } from 'vitest';
import { beginTurn, openStore, toolWrite } from './__fixtures__/tool-simulator.js';

const MiB = 1024 * 1024;
const packageRoot = new URL('..', import.meta.url).pathname;
const childScript = new URL('./__fixtures__/undo-child.ts', import.meta.url).pathname;

/** Random bytes: every piece differs, so a piece written twice or out of order shows. */
const largeBody = (bytes: number) => randomBytes(bytes);

async function fileSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const piece of createReadStream(path)) hash.update(piece as Buffer);
  return hash.digest('hex');
}

async function opened() {
  const home = testdir({});
  const root = testdir({});
  const store = await openStore(home);
  onTestFinished(() => store.db.destroy());
  return { root, ...store };
}

async function storedPieces(db: Awaited<ReturnType<typeof opened>>['db']) {
  const blobs = await sql<{ bytes: number; chunks: number; content: Uint8Array }>`
    select bytes, chunks, content from checkpoint_blob order by bytes desc`.execute(db);
  const pieces = await sql<{ sha256: string; chunk_index: number; size: number }>`
    select sha256, chunk_index, length(content) as size from checkpoint_blob_chunk order by sha256, chunk_index`.execute(
    db,
  );
  return {
    blobs: blobs.rows.map((row) => ({
      bytes: Number(row.bytes),
      chunks: Number(row.chunks),
      inline: row.content.byteLength,
    })),
    pieces: pieces.rows.map((row) => Number(row.size)),
  };
}

describe('bodies over 1 MiB', () => {
  it('are stored in pieces of at most 1 MiB, once per content, restored exactly and collected with their blob', async () => {
    const { root, db, store } = await opened();
    const original = largeBody(3 * MiB + 5);
    writeFileSync(join(root, 'data.bin'), original);
    chmodSync(join(root, 'data.bin'), 0o640);
    const first = await beginTurn(store, root, 't1');
    await toolWrite(first.recorder, root, 'data.bin', 'replaced\n');
    await first.complete();
    // A second file with the same earlier bytes shares the stored pieces.
    writeFileSync(join(root, 'copy.bin'), original);
    const second = await beginTurn(store, root, 't2');
    await toolWrite(second.recorder, root, 'copy.bin', 'also replaced\n');
    await second.complete();
    expect(await storedPieces(db)).toEqual({
      blobs: [
        { bytes: 3 * MiB + 5, chunks: 4, inline: 0 },
        { bytes: 'also replaced\n'.length, chunks: 0, inline: 'also replaced\n'.length },
        { bytes: 'replaced\n'.length, chunks: 0, inline: 'replaced\n'.length },
      ],
      pieces: [MiB, MiB, MiB, 5],
    });

    const result = await store.undoFiles('session-1', 't1');
    expect([...result.restored].sort()).toEqual(['copy.bin', 'data.bin']);
    for (const name of ['data.bin', 'copy.bin']) {
      expect(await fileSha256(join(root, name))).toBe(createHash('sha256').update(original).digest('hex'));
    }
    expect(statSync(join(root, 'data.bin')).mode & 0o777).toBe(0o640);

    await store.deleteSession('session-1');
    expect(await storedPieces(db)).toEqual({ blobs: [], pieces: [] });
  });

  it('read back byte for byte, every byte value, inline, in pieces and empty', async () => {
    const { root, store } = await opened();
    const everyByte = Buffer.from(Array.from({ length: 256 }, (_, value) => value));
    // Lengths that are not multiples of 3 (base64's group) and piece boundaries inside the pattern.
    const bodies = {
      'inline.bin': Buffer.concat([everyByte, everyByte, everyByte, everyByte.subarray(0, 1)]),
      'pieces.bin': Buffer.alloc(2 * MiB + 2, everyByte),
      'empty.bin': Buffer.alloc(0),
    };
    for (const [name, body] of Object.entries(bodies)) writeFileSync(join(root, name), body);
    const turn = await beginTurn(store, root, 't1');
    for (const name of Object.keys(bodies)) await toolWrite(turn.recorder, root, name, 'agent\n');
    await turn.complete();

    const result = await store.undoFiles('session-1', 't1');
    expect([...result.restored].sort()).toEqual(Object.keys(bodies).sort());
    for (const [name, body] of Object.entries(bodies)) expect(readFileSync(join(root, name)).equals(body)).toBe(true);
  });

  it('reports a missing piece as checkpoint_blob_missing and leaves the file as the agent left it', async () => {
    const { root, db, store } = await opened();
    writeFileSync(join(root, 'data.bin'), largeBody(2 * MiB + 1));
    const turn = await beginTurn(store, root, 't1');
    await toolWrite(turn.recorder, root, 'data.bin', 'agent\n');
    await turn.complete();
    await sql`delete from checkpoint_blob_chunk where chunk_index = 2`.execute(db);
    await expect(store.undoFiles('session-1', 't1')).rejects.toMatchObject({ code: 'checkpoint_blob_missing' });
    expect(statSync(join(root, 'data.bin')).size).toBe('agent\n'.length);
  });

  // On PostgreSQL the undo's reads are asynchronous, so the child's periodic collection frees each
  // piece once written and the peak shows what the undo holds. On SQLite they are synchronous: no
  // timer runs during the undo, and freed pieces wait for V8's own collection (the README gives the
  // figure), so the peak there shows the collector's slack rather than the undo.
  it.runIf(testDatabaseEngine() === 'postgres')(
    'are restored by a process whose memory never holds the file',
    async () => {
      const { root, store, file } = await opened();
      const bytes = 80 * MiB;
      const original = largeBody(bytes);
      const originalSha256 = createHash('sha256').update(original).digest('hex');
      writeFileSync(join(root, 'large.bin'), original);
      const turn = await beginTurn(store, root, 't1');
      await toolWrite(turn.recorder, root, 'large.bin', 'small now\n');
      await turn.complete();

      const child = await bundledFixture(childScript);
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--max-old-space-size=32', '--expose-gc', child, 'undo-measured', file, 'session-1', 't1'],
        // glibc's fixed threshold maps every piece-sized allocation and unmaps it when freed (its
        // default threshold grows, keeping freed pieces in the heap): the peak shows what is held.
        { cwd: packageRoot, env: { ...process.env, MALLOC_MMAP_THRESHOLD_: '131072' } },
      );
      const { restored, peakRise } = JSON.parse(stdout.trim().split('\n').pop()!) as {
        restored: string[];
        peakRise: number;
      };
      expect(restored).toEqual(['large.bin']);
      expect(await fileSha256(join(root, 'large.bin'))).toBe(originalSha256);
      // Holding the file once would raise the peak by 80 MiB (PostgreSQL's text form of it: 160 MiB
      // more, beyond the child's 32 MB heap); a piece at a time stays far below.
      expect(peakRise).toBeLessThan(bytes / 3);
    },
    400_000,
  );
});
