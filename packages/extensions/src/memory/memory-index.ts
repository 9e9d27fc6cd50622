import { closeSync, fstatSync, mkdirSync, openSync, readSync } from 'node:fs';
import { join, sep } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { EXTENSIONS_ERROR_CODES, ExtensionsError } from '../extensions-error.js';
import { extensionsRequire } from '../package-require.js';
import { ftsQuery } from './fts-query.js';
import {
  listHomeNotes,
  listWorkspaceMemory,
  MAX_MEMORY_FILE_BYTES,
  MAX_MEMORY_FILES,
  type MemorySourceFile,
} from './memory-sources.js';
import { noteChunks } from './note-chunks.js';
import { NoteFolderWatch } from './note-folder-watch.js';

/** Version of the index's tables; another version is dropped and rebuilt (the index is a cache). */
const SCHEMA_VERSION = 1;
/** Default pause between two checks of the files for changes. */
export const DEFAULT_MEMORY_RECHECK_MS = 1_000;

/** One search hit: where it is and the chunk's text. */
export interface MemoryHit {
  readonly source: string;
  /** Absolute path of the file. */
  readonly path: string;
  /** 1-based line where the chunk starts. */
  readonly line: number;
  readonly text: string;
  /** BM25 rank (lower is better), as FTS5 computes it. */
  readonly rank: number;
}

/** What a refresh did. */
export interface MemoryRefresh {
  /** Files listed and compared with the index (after the first check, only those of changed folders). */
  readonly files: number;
  readonly indexed: number;
  readonly removed: number;
  /** Files beyond the file limit, not indexed. */
  readonly leftOut: number;
}

/** What {@link MemoryIndex} needs. */
export interface MemoryIndexOptions {
  /** The clawsmith home: notes in `memory/`, the index in `memory-index/index.sqlite`. */
  readonly homeDir: string;
  /**
   * Pause between two checks of the files (default {@link DEFAULT_MEMORY_RECHECK_MS}). 0 checks on
   * every search with a `stat` of every note and no folder watch: every change is seen at once.
   */
  readonly recheckMs?: number;
}

interface FileRow {
  id: number;
  path: string;
  mtime_ms: number;
  size: number;
}

function readHead(path: string): string {
  const descriptor = openSync(path, 'r');
  try {
    // Sized to the file: a fresh 1 MiB buffer per note made indexing 10,000 small notes take seconds.
    const buffer = Buffer.alloc(Math.min(MAX_MEMORY_FILE_BYTES, fstatSync(descriptor).size + 1));
    let length = 0;
    while (length < buffer.length) {
      const read = readSync(descriptor, buffer, length, buffer.length - length, length);
      if (read === 0) break;
      length += read;
    }
    return buffer.toString('utf8', 0, Math.min(length, MAX_MEMORY_FILE_BYTES));
  } finally {
    closeSync(descriptor);
  }
}

let sqlite: typeof BetterSqlite3 | undefined;

/**
 * The memory index: an SQLite FTS5 table (porter stemming over unicode61) of the chunks of every
 * memory file, ranked by BM25. It is a cache of the files, kept in the home's
 * `memory-index/index.sqlite` (its own file: nothing else writes it, and deleting it only costs a
 * rebuild). Before a search it compares the files' modification time and size with what it
 * indexed (at most once per `recheckMs`) and re-indexes what changed, in one transaction.
 */
export class MemoryIndex {
  readonly #db: BetterSqlite3.Database;
  readonly #homeDir: string;
  readonly #notesFolder: string;
  readonly #recheckMs: number;
  readonly #checkedAt = new Map<string, number>();
  // Folders of notes with file events since the last check; undefined until the first full sweep.
  #watch: NoteFolderWatch | undefined;

  constructor(options: MemoryIndexOptions) {
    this.#homeDir = options.homeDir;
    this.#notesFolder = join(options.homeDir, 'memory');
    this.#recheckMs = options.recheckMs ?? DEFAULT_MEMORY_RECHECK_MS;
    const folder = join(options.homeDir, 'memory-index');
    try {
      mkdirSync(folder, { recursive: true });
      // Loaded on first use: sessions that never search memory never load the native module.
      sqlite ??= extensionsRequire()('better-sqlite3') as typeof BetterSqlite3;
      this.#db = new sqlite(join(folder, 'index.sqlite'));
      this.#db.pragma('busy_timeout = 5000');
      switchToWriteAheadLog(this.#db);
      this.#db.pragma('synchronous = NORMAL');
      this.#migrate();
    } catch (error) {
      throw new ExtensionsError(
        EXTENSIONS_ERROR_CODES.memoryIndexFailed,
        `The memory index in ${folder} cannot be opened (${(error as Error).message}); delete that folder to rebuild it.`,
        { cause: error },
      );
    }
  }

  /**
   * Creates the tables when the index is new or of an older schema. Inside an immediate
   * transaction: two processes opening a new home at one moment would otherwise both see version 0,
   * and one would drop the tables the other had just made.
   */
  #migrate(): void {
    this.#db.transaction(() => this.#createTablesUnlessCurrent()).immediate();
  }

  #createTablesUnlessCurrent(): void {
    if (this.#db.pragma('user_version', { simple: true }) === SCHEMA_VERSION) return;
    this.#db.exec(`
      DROP TABLE IF EXISTS chunk_text;
      DROP TABLE IF EXISTS chunk;
      DROP TABLE IF EXISTS file;
      CREATE TABLE file (
        id INTEGER PRIMARY KEY,
        path TEXT NOT NULL UNIQUE,
        source TEXT NOT NULL,
        owner TEXT NOT NULL,
        mtime_ms REAL NOT NULL,
        size INTEGER NOT NULL
      );
      CREATE INDEX file_owner ON file (owner);
      CREATE TABLE chunk (
        id INTEGER PRIMARY KEY,
        file_id INTEGER NOT NULL REFERENCES file (id),
        line INTEGER NOT NULL,
        body TEXT NOT NULL
      );
      CREATE INDEX chunk_file ON chunk (file_id);
      CREATE VIRTUAL TABLE chunk_text USING fts5 (
        body, content = 'chunk', content_rowid = 'id', tokenize = 'porter unicode61 remove_diacritics 2'
      );
      PRAGMA user_version = ${SCHEMA_VERSION};
    `);
  }

  /**
   * Brings the index up to date with the files of the home and `workspaceRoot`: lists and stats
   * every note, and (unless `recheckMs` is 0) starts watching the note folders for
   * {@link refreshIfDue}.
   */
  refresh(workspaceRoot?: string): MemoryRefresh {
    this.#watch?.close();
    return this.#check(workspaceRoot);
  }

  /**
   * After a first full listing, lists only the note folders with file events since the last
   * check (a note edited in place, added, removed or renamed), and the workspace's two files.
   */
  #check(workspaceRoot?: string): MemoryRefresh {
    const dirty = this.#watch?.take() ?? 'all';
    const workspace = workspaceRoot !== undefined ? listWorkspaceMemory(workspaceRoot) : [];
    const known = new Map<string, FileRow>();
    let home: { files: readonly MemorySourceFile[]; leftOut: number };
    if (dirty === 'all') {
      this.#watch?.close();
      const watch = this.#recheckMs > 0 ? new NoteFolderWatch() : undefined;
      home = listHomeNotes(this.#homeDir, watch ? { onFolder: (folder) => watch.add(folder) } : {});
      // Beyond the file limit, which notes are left out depends on the whole listing: sweep every time.
      // Without a watched `memory/` folder (not made yet), its creation would go unseen: sweep every time.
      this.#watch = watch?.healthy && watch.has(this.#notesFolder) && home.leftOut === 0 ? watch : undefined;
      if (watch && watch !== this.#watch) watch.close();
      for (const row of this.#rows('home')) known.set(row.path, row);
    } else {
      const files: MemorySourceFile[] = [];
      for (const folder of dirty) {
        this.#watch?.forget(folder);
        const watch = this.#watch;
        files.push(...listHomeNotes(this.#homeDir, { under: folder, onFolder: (inner) => watch?.add(inner) }).files);
        for (const row of this.#rows('home', folder)) known.set(row.path, row);
      }
      home = { files, leftOut: 0 };
      if (!this.#watch?.has(this.#notesFolder)) this.#watch?.close();
    }
    if (workspaceRoot !== undefined) for (const row of this.#rows(workspaceRoot)) known.set(row.path, row);
    const changed: MemorySourceFile[] = [];
    const files = [...home.files, ...workspace];
    for (const file of files) {
      const row = known.get(file.path);
      known.delete(file.path);
      if (!row || row.mtime_ms !== file.mtimeMs || row.size !== file.size) changed.push(file);
    }
    const gone = [...known.values()];
    if (changed.length > 0 || gone.length > 0) this.#apply(changed, gone);
    if (dirty !== 'all' && changed.length > 0 && this.#homeFileCount() > MAX_MEMORY_FILES) {
      // Added notes passed the limit: the next check lists everything and applies it.
      this.#watch?.close();
    }
    return { files: files.length, indexed: changed.length, removed: gone.length, leftOut: home.leftOut };
  }

  // The indexed files of `owner`, all or only those below `folder`.
  #rows(owner: string, folder?: string): FileRow[] {
    if (folder === undefined)
      return this.#db
        .prepare<[string], FileRow>('SELECT id, path, mtime_ms, size FROM file WHERE owner = ?')
        .all(owner);
    // Paths below `folder` sort between `folder/` and `folder0` ('0' follows '/').
    return this.#db
      .prepare<[string, string, string], FileRow>(
        'SELECT id, path, mtime_ms, size FROM file WHERE owner = ? AND path > ? AND path < ?',
      )
      .all(owner, folder + sep, folder + String.fromCharCode(sep.charCodeAt(0) + 1));
  }

  #homeFileCount(): number {
    return (
      this.#db.prepare<[], { count: number }>("SELECT COUNT(*) AS count FROM file WHERE owner = 'home'").get() as {
        count: number;
      }
    ).count;
  }

  #apply(changed: readonly MemorySourceFile[], gone: readonly FileRow[]): void {
    const db = this.#db;
    const oldChunks = db.prepare<[number], { id: number; body: string }>(
      'SELECT id, body FROM chunk WHERE file_id = ?',
    );
    const forget = db.prepare<[number, string]>(
      "INSERT INTO chunk_text (chunk_text, rowid, body) VALUES ('delete', ?, ?)",
    );
    const dropChunks = db.prepare<[number]>('DELETE FROM chunk WHERE file_id = ?');
    const dropFile = db.prepare<[number]>('DELETE FROM file WHERE id = ?');
    const fileId = db.prepare<[string], { id: number }>('SELECT id FROM file WHERE path = ?');
    const upsert = db.prepare<[string, string, string, number, number]>(
      `INSERT INTO file (path, source, owner, mtime_ms, size) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (path) DO UPDATE SET source = excluded.source, owner = excluded.owner,
         mtime_ms = excluded.mtime_ms, size = excluded.size`,
    );
    const addChunk = db.prepare<[number, number, string]>('INSERT INTO chunk (file_id, line, body) VALUES (?, ?, ?)');
    const addText = db.prepare<[number | bigint, string]>('INSERT INTO chunk_text (rowid, body) VALUES (?, ?)');
    const clear = (id: number) => {
      for (const chunk of oldChunks.all(id)) forget.run(chunk.id, chunk.body);
      dropChunks.run(id);
    };
    // Read outside the transaction: the files are read once, the write lock is held briefly.
    const contents = changed.map((file) => {
      try {
        return readHead(file.path);
      } catch {
        return undefined;
      }
    });
    db.transaction(() => {
      for (const row of gone) {
        clear(row.id);
        dropFile.run(row.id);
      }
      changed.forEach((file, index) => {
        const existing = fileId.get(file.path);
        if (existing) clear(existing.id);
        const text = contents[index];
        if (text === undefined) {
          if (existing) dropFile.run(existing.id);
          return;
        }
        upsert.run(file.path, file.source, file.owner, file.mtimeMs, file.size);
        const id = (fileId.get(file.path) as { id: number }).id;
        for (const chunk of noteChunks(text)) {
          const { lastInsertRowid } = addChunk.run(id, chunk.line, chunk.text);
          addText.run(lastInsertRowid, chunk.text);
        }
      });
      // Immediate: a deferred transaction that read first would get SQLITE_BUSY at once, without
      // waiting, when another process writes the index at the same moment.
    }).immediate();
  }

  /**
   * Re-indexes changed files unless they were checked less than `recheckMs` ago: what the check
   * did, or undefined when it was not due.
   */
  refreshIfDue(workspaceRoot?: string): MemoryRefresh | undefined {
    const key = workspaceRoot ?? '';
    const now = Date.now();
    const last = this.#checkedAt.get(key);
    if (last !== undefined && now - last < this.#recheckMs) return undefined;
    const refresh = this.#check(workspaceRoot);
    this.#checkedAt.set(key, Date.now());
    return refresh;
  }

  /**
   * The best chunks for the words of `query` among the home's notes and `workspaceRoot`'s files,
   * best first. The query is sanitised (see `ftsQuery`): no FTS syntax error reaches the caller.
   * Throws `memory_query_empty` when it holds no word.
   */
  search(query: string, options: { workspaceRoot?: string; limit: number }): { hits: MemoryHit[]; terms: string[] } {
    const parsed = ftsQuery(query);
    if (!parsed)
      throw new ExtensionsError(
        EXTENSIONS_ERROR_CODES.memoryQueryEmpty,
        'The query has no word to search for; give a few words that the notes would contain.',
      );
    try {
      this.refreshIfDue(options.workspaceRoot);
      const hits = this.#db
        .prepare<[string, string, number], MemoryHit>(
          `SELECT file.source AS source, file.path AS path, chunk.line AS line, chunk.body AS text,
                  bm25(chunk_text) AS rank
             FROM chunk_text
             JOIN chunk ON chunk.id = chunk_text.rowid
             JOIN file ON file.id = chunk.file_id
            WHERE chunk_text MATCH ? AND (file.owner = 'home' OR file.owner = ?)
            ORDER BY rank, file.source, chunk.line
            LIMIT ?`,
        )
        .all(parsed.expression, options.workspaceRoot ?? 'home', options.limit);
      return { hits, terms: parsed.terms };
    } catch (error) {
      throw new ExtensionsError(
        EXTENSIONS_ERROR_CODES.memoryIndexFailed,
        `The memory search failed (${(error as Error).message}); try fewer or simpler words.`,
        { cause: error },
      );
    }
  }

  /** How many files and chunks are indexed for the home and `workspaceRoot`. */
  counts(workspaceRoot?: string): { files: number; chunks: number } {
    return this.#db
      .prepare<[string], { files: number; chunks: number }>(
        `SELECT COUNT(DISTINCT file.id) AS files, COUNT(chunk.id) AS chunks
           FROM file LEFT JOIN chunk ON chunk.file_id = file.id
          WHERE file.owner = 'home' OR file.owner = ?`,
      )
      .get(workspaceRoot ?? 'home') as { files: number; chunks: number };
  }

  close(): void {
    this.#watch?.close();
    this.#watch = undefined;
    if (this.#db.open) this.#db.close();
  }
}

/**
 * Puts the database in WAL mode. When two processes open one new file at the same moment, one
 * can find it locked while the other switches it, and SQLite answers that with SQLITE_BUSY at
 * once instead of waiting out busy_timeout; so this tries again for up to a second.
 */
function switchToWriteAheadLog(database: BetterSqlite3.Database): void {
  for (let attempt = 1; ; attempt++) {
    try {
      database.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || attempt === 100) throw error;
      Atomics.wait(PAUSE, 0, 0, 10);
    }
  }
}

const PAUSE = new Int32Array(new SharedArrayBuffer(4));
