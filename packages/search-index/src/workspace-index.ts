import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  watch,
  writeFileSync,
  type FSWatcher,
} from 'node:fs';
import { processIsAlive } from '@clawsmith/platform';
import type { IndexWorker } from './index-worker.js';
import {
  FILE_FLAG,
  isCommonKey,
  parseStoredIndex,
  STORED_INDEX_FORMAT,
  postingsOf,
  type IndexKey,
  type StoredIndex,
} from './stored-index.js';
import { satisfies, withoutKeysHeldByAll, type TrigramQuery } from './trigram-query.js';
import { hasTrigram, TrigramCollector } from './trigrams.js';
import { compareWalkOrder, isUnder, rangeUnder } from './walk-order.js';

/** Where an index stands; only `ready` narrows searches. */
export type IndexState = 'loading' | 'building' | 'ready' | 'failed';

/** A file whose stored entry no longer holds: `direct` ones are searched without the index. */
type OverlayEntry =
  | { readonly kind: 'gone' }
  | { readonly kind: 'direct' }
  | { readonly kind: 'indexed'; readonly stat: FileStat; readonly trigrams: Uint32Array };

interface FileStat {
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly settled: boolean;
}

/** The files a search should open, in walk order, and what the index knew. */
export interface IndexCandidates {
  readonly files: { readonly absolute: string; readonly relative: string; readonly name: string }[];
  /** Searchable files the index knows in the searched folder. */
  readonly known: number;
  /** Candidates searched directly because the index does not know their current content. */
  readonly direct: number;
}

/** Tunables of a workspace index. */
export interface WorkspaceIndexSettings {
  /** Watch folders for changes (Linux inotify through fs.watch); without it every search sweeps. */
  readonly watch: boolean;
  /** Milliseconds a change must lie in the past before equal stats mean equal content. */
  readonly settledMs: number;
  /** Folders above which no watchers are set (every search then sweeps instead). */
  readonly maxWatchedFolders: number;
  /** Threads a build indexes in (parts of the walk's files, joined afterwards). */
  readonly buildThreads: number;
  /** Fewest files a build part gets: below twice this, a build stays on one thread. */
  readonly minFilesPerPart: number;
}

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

function inotifyQueueLimit(): number {
  try {
    return Number(readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8')) || 16_384;
  } catch {
    return 16_384;
  }
}

// Sentinels and temporary index files of processes that ended without cleaning up.
function removeStaleSentinels(folder: string): void {
  for (const name of readdirSync(folder)) {
    const pid = (/^sentinel-(\d+)-/.exec(name) ?? /^index\.bin\.(\d+)\.[0-9a-f]+\.tmp$/.exec(name))?.[1];
    if (pid !== undefined && !processIsAlive(Number(pid))) rmSync(`${folder}/${name}`, { force: true });
  }
}

function nameOf(relative: string): string {
  return relative.slice(relative.lastIndexOf('/') + 1);
}

/** The directory, under `folder`, that holds the index of the workspace with `key`. */
export function indexFolderFor(folder: string, key: IndexKey): string {
  const digest = createHash('sha256').update(JSON.stringify(key)).digest('hex').slice(0, 20);
  return `${folder}/${digest}`;
}

/**
 * The trigram index of one workspace: a stored base (built and checked by the worker), an
 * overlay of files changed since, and the knowledge of which paths may have changed (folder
 * watchers, with a barrier so that every change made before a search is seen by it; or a full
 * `lstat` sweep when watching is not possible). Freshness rule: a file is answered from the index
 * only while its `lstat` figures equal the ones recorded when it was read and those were older than
 * `settledMs` then; anything else is searched directly.
 */
export class WorkspaceIndex {
  state: IndexState = 'loading';
  /** Why the index is not used, when it failed. */
  failure: string | undefined;
  private stored: StoredIndex | undefined;
  private fileNumbers = new Map<string, number>();
  private unreadable: number[] = [];
  private readonly overlay = new Map<string, OverlayEntry>();
  private readonly dirty = new Set<string>();
  private readonly watchers = new Map<string, FSWatcher>();
  private watching = false;
  private eventsSinceSweep = 0;
  private readonly overflowAt = inotifyQueueLimit() / 2;
  private sentinel: { path: string; name: string; watcher: FSWatcher; waiters: (() => void)[] } | undefined;
  private readonly collector = new TrigramCollector();
  private readonly reindexQueue = new Set<string>();
  private reindexScheduled = false;
  private readonly indexPath: string;
  private started: Promise<void> | undefined;
  /** Paths seen changing since a background rebuild began, while one runs. */
  private sinceRebuild: Set<string> | undefined;

  constructor(
    private readonly key: IndexKey,
    private readonly folder: string,
    private readonly worker: IndexWorker,
    private readonly settings: WorkspaceIndexSettings,
    private readonly skipped: ReadonlySet<string>,
  ) {
    this.indexPath = `${folder}/index.bin`;
  }

  /** Starts loading (or building) in the background; later calls return the same promise. */
  start(): Promise<void> {
    this.started ??= this.open().catch((error: unknown) => {
      this.state = 'failed';
      this.failure = (error as Error).message;
    });
    return this.started;
  }

  /** Figures of the stored index, once ready. */
  get figures() {
    return this.stored?.figures;
  }

  /** Bytes the stored index takes on disk. */
  get storedBytes(): number {
    return this.stored ? this.stored.bodyBytes + STORED_INDEX_FORMAT.headerBytes : 0;
  }

  private async open(): Promise<void> {
    mkdirSync(this.folder, { recursive: true, mode: 0o700 });
    removeStaleSentinels(this.folder);
    const loaded = await this.worker.load({ path: this.indexPath, key: this.key });
    let body: ArrayBuffer;
    if ('buffer' in loaded) body = loaded.buffer;
    else {
      // Missing, damaged, truncated or for other settings: rebuilt, never trusted.
      this.state = 'building';
      this.failure = loaded.missing ? undefined : loaded.reason;
      body = await this.buildAndLoad();
    }
    const stored = parseStoredIndex(body);
    this.install(stored);
    // Watch first, then sweep: a change after the sweep's lstat raises an event, one before it
    // shows in the figures.
    if (this.settings.watch) this.startWatching(stored.folderPaths);
    for (const path of await this.sweepOf(stored)) this.dirty.add(path);
    this.state = 'ready';
    this.failure = undefined;
  }

  private async buildAndLoad(): Promise<ArrayBuffer> {
    await this.worker.build({
      root: this.key.root,
      skipped: this.key.skippedFolders,
      fileLimit: this.key.fileLimit,
      path: this.indexPath,
      key: this.key,
      settledMs: this.settings.settledMs,
      threads: this.settings.buildThreads,
      minFilesPerPart: this.settings.minFilesPerPart,
    });
    const loaded = await this.worker.load({ path: this.indexPath, key: this.key });
    if (!('buffer' in loaded)) throw new Error(`The index just built does not load: ${loaded.reason}`);
    return loaded.buffer;
  }

  private install(stored: StoredIndex): void {
    this.stored = stored;
    this.fileNumbers = new Map(stored.filePaths.map((path, number) => [path, number]));
    this.unreadable = [];
    for (let number = 0; number < stored.fileFlags.length; number += 1)
      if ((stored.fileFlags[number]! & FILE_FLAG.unreadable) !== 0) this.unreadable.push(number);
  }

  /**
   * Rebuilds the stored index in the background once the overlay holds many files (a branch
   * switch): searches go on with the old one until the new one is built, loaded and compared
   * with the disk; every change seen since the rebuild began is looked at again after the swap.
   */
  private rebuildIfLarge(): void {
    const stored = this.stored!;
    if (this.sinceRebuild !== undefined || this.overlay.size < Math.max(1_000, stored.filePaths.length / 10)) return;
    const seen = (this.sinceRebuild = new Set());
    void (async () => {
      const rebuilt = parseStoredIndex(await this.buildAndLoad());
      for (const folder of rebuilt.folderPaths) if (!this.watchFolder(folder)) break;
      const changed = await this.sweepOf(rebuilt);
      this.install(rebuilt);
      this.overlay.clear();
      this.reindexQueue.clear();
      for (const path of [...changed, ...seen]) this.dirty.add(path);
    })()
      .catch(() => undefined)
      .finally(() => {
        this.sinceRebuild = undefined;
      });
  }

  private startWatching(folders: readonly string[]): void {
    if (folders.length > this.settings.maxWatchedFolders) return;
    try {
      const name = `sentinel-${process.pid}-${randomBytes(4).toString('hex')}`;
      const waiters: (() => void)[] = [];
      const watcher = watch(this.folder, { persistent: false }, (_event, filename) => {
        if (filename === name) for (const waiter of waiters.splice(0)) waiter();
      });
      watcher.on('error', () => this.stopWatching());
      this.sentinel = { path: `${this.folder}/${name}`, name, watcher, waiters };
      this.watching = true;
      for (const folder of folders) if (!this.watchFolder(folder)) break;
    } catch {
      this.stopWatching();
    }
  }

  private watchFolder(relative: string): boolean {
    if (!this.watching || this.watchers.has(relative)) return this.watching;
    if (this.watchers.size >= this.settings.maxWatchedFolders) {
      this.stopWatching();
      return false;
    }
    try {
      const watcher = watch(
        relative === '' ? this.key.root : `${this.key.root}/${relative}`,
        { persistent: false },
        (_event, filename) => {
          this.eventsSinceSweep += 1;
          this.dirty.add(
            filename === null ? relative : relative === '' ? String(filename) : `${relative}/${String(filename)}`,
          );
        },
      );
      watcher.on('error', () => {
        this.dirty.add(relative);
        this.unwatchFolder(relative);
      });
      this.watchers.set(relative, watcher);
      return true;
    } catch {
      // Gone already (the parent's event covers it), or out of inotify watches: sweep instead.
      const stats = lstatSync(relative === '' ? this.key.root : `${this.key.root}/${relative}`, {
        throwIfNoEntry: false,
      });
      if (stats?.isDirectory()) this.stopWatching();
      else this.dirty.add(relative);
      return this.watching;
    }
  }

  private unwatchFolder(relative: string): void {
    for (const [folder, watcher] of this.watchers)
      if (isUnder(folder, relative)) {
        watcher.close();
        this.watchers.delete(folder);
      }
  }

  private stopWatching(): void {
    this.watching = false;
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
    if (this.sentinel) {
      this.sentinel.watcher.close();
      rmSync(this.sentinel.path, { force: true });
    }
    this.sentinel = undefined;
  }

  /** Closes every watcher. */
  close(): void {
    this.stopWatching();
  }

  // Full comparison of every stored file and folder with the disk, in the worker thread; the
  // overlay's files are looked at again too (the sweep compared them with the stored figures).
  private async sweepOf(stored: StoredIndex, waited = false): Promise<string[]> {
    this.eventsSinceSweep = 0;
    const { changed } = await this.worker.sweep(
      {
        root: this.key.root,
        files: stored.filePaths,
        fileStats: stored.fileStats,
        fileFlags: stored.fileFlags,
        folders: stored.folderPaths,
        folderStats: stored.folderStats,
      },
      waited,
    );
    return [...changed, ...this.overlay.keys()];
  }

  /**
   * Makes the index current for a search: every change made before this call is known
   * afterwards (the watcher barrier, or a full sweep). False when the index is not ready.
   */
  async prepare(): Promise<boolean> {
    if (this.state !== 'ready') return false;
    if (!this.watching || this.eventsSinceSweep >= this.overflowAt || !(await this.barrier()))
      for (const path of await this.sweepOf(this.stored!, true)) this.dirty.add(path);
    this.resolveDirty();
    return true;
  }

  // Writes the sentinel and waits for its event: inotify delivers one process's events in order,
  // so every change made before the write has been seen once the sentinel's event arrives.
  private async barrier(): Promise<boolean> {
    const sentinel = this.sentinel;
    if (!sentinel) return false;
    const arrived = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 1_000);
      sentinel.waiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    try {
      writeFileSync(sentinel.path, '');
    } catch {
      return false;
    }
    const ok = await arrived;
    if (!ok) this.stopWatching();
    return ok;
  }

  private resolveDirty(): void {
    if (this.dirty.size === 0) return;
    const paths = [...this.dirty].sort(compareWalkOrder);
    this.dirty.clear();
    let coveredBy: string | undefined;
    for (const path of paths) {
      if (coveredBy !== undefined && isUnder(path, coveredBy)) continue;
      if (this.resolvePath(path)) coveredBy = path;
    }
  }

  private isSkipped(relative: string): boolean {
    for (const segment of relative.split('/')) if (this.skipped.has(segment)) return true;
    return false;
  }

  private knownStat(relative: string): FileStat | undefined {
    const entry = this.overlay.get(relative);
    if (entry) return entry.kind === 'indexed' ? entry.stat : undefined;
    const number = this.fileNumbers.get(relative);
    if (number === undefined) return undefined;
    const stats = this.stored!.fileStats;
    return {
      ino: stats[number * 4]!,
      size: stats[number * 4 + 1]!,
      mtimeMs: stats[number * 4 + 2]!,
      ctimeMs: stats[number * 4 + 3]!,
      settled: (this.stored!.fileFlags[number]! & FILE_FLAG.settled) !== 0,
    };
  }

  private checkFile(relative: string, stats: { ino: number; size: number; mtimeMs: number; ctimeMs: number }): void {
    const known = this.knownStat(relative);
    if (
      known?.settled &&
      known.ino === stats.ino &&
      known.size === stats.size &&
      known.mtimeMs === stats.mtimeMs &&
      known.ctimeMs === stats.ctimeMs
    )
      return;
    this.overlay.set(relative, { kind: 'direct' });
    this.reindexQueue.add(relative);
  }

  /** Every known file at or below `relative` is gone. */
  private markGone(relative: string): void {
    const [start, end] = rangeUnder(this.stored!.filePaths, relative);
    for (let number = start; number < end; number += 1)
      this.overlay.set(this.stored!.filePaths[number]!, { kind: 'gone' });
    if (this.fileNumbers.has(relative)) this.overlay.set(relative, { kind: 'gone' });
    for (const path of this.overlay.keys()) if (isUnder(path, relative)) this.overlay.set(path, { kind: 'gone' });
    this.unwatchFolder(relative);
  }

  // Returns true when the path was a folder whose whole subtree was looked at.
  private resolvePath(relative: string): boolean {
    if (relative !== '' && this.isSkipped(relative)) return false;
    const absolute = relative === '' ? this.key.root : `${this.key.root}/${relative}`;
    const stats = lstatSync(absolute, { throwIfNoEntry: false });
    if (stats?.isFile()) {
      if (!this.fileNumbers.has(relative)) this.markGoneBelow(relative);
      this.checkFile(relative, stats);
      return false;
    }
    if (!stats?.isDirectory()) {
      // Deleted, or replaced by a symlink or a special file: nothing below it is searchable now.
      this.markGone(relative);
      return true;
    }
    if (this.fileNumbers.has(relative) || this.overlay.get(relative)?.kind === 'indexed')
      this.overlay.set(relative, { kind: 'gone' });
    this.watchFolder(relative);
    const listed = new Set<string>();
    try {
      for (const entry of readdirSync(absolute, { withFileTypes: true })) {
        const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
        if (entry.isFile()) {
          listed.add(child);
          const childStats = lstatSync(`${absolute}/${entry.name}`, { throwIfNoEntry: false });
          if (childStats?.isFile()) this.checkFile(child, childStats);
        } else if (entry.isDirectory() && !this.skipped.has(entry.name)) {
          listed.add(child);
          this.resolvePath(child);
        }
      }
    } catch {
      this.markGone(relative);
      return true;
    }
    // Known files and folders directly below that the listing no longer shows are gone.
    const [start, end] = rangeUnder(this.stored!.filePaths, relative);
    for (let number = start; number < end; number += 1) {
      const path = this.stored!.filePaths[number]!;
      const rest = path.slice(relative === '' ? 0 : relative.length + 1);
      const slash = rest.indexOf('/');
      const child = slash < 0 ? path : `${relative === '' ? '' : `${relative}/`}${rest.slice(0, slash)}`;
      if (!listed.has(child)) this.overlay.set(path, { kind: 'gone' });
    }
    for (const path of this.overlay.keys()) {
      if (!isUnder(path, relative) || path === relative) continue;
      const rest = path.slice(relative === '' ? 0 : relative.length + 1);
      const slash = rest.indexOf('/');
      const child = slash < 0 ? path : `${relative === '' ? '' : `${relative}/`}${rest.slice(0, slash)}`;
      if (!listed.has(child)) this.overlay.set(path, { kind: 'gone' });
    }
    return true;
  }

  private markGoneBelow(relative: string): void {
    const [start, end] = rangeUnder(this.stored!.filePaths, relative);
    for (let number = start; number < end; number += 1)
      this.overlay.set(this.stored!.filePaths[number]!, { kind: 'gone' });
  }

  /**
   * Re-reads one file into the overlay at once (a clawsmith tool just changed it). Reads exactly
   * what a search would: the first `fileLimit` bytes, never through a symlink.
   */
  noteChanged(relative: string): void {
    if (this.state !== 'ready' || this.isSkipped(relative)) return;
    this.sinceRebuild?.add(relative);
    this.reindex(relative);
  }

  private reindex(relative: string): void {
    this.reindexQueue.delete(relative);
    let descriptor: number;
    try {
      descriptor = openSync(`${this.key.root}/${relative}`, OPEN_FLAGS);
    } catch {
      const stats = lstatSync(`${this.key.root}/${relative}`, { throwIfNoEntry: false });
      if (!stats) this.markGone(relative);
      else if (stats.isFile()) this.overlay.set(relative, { kind: 'direct' });
      else this.dirty.add(relative);
      return;
    }
    try {
      const stats = fstatSync(descriptor);
      if (!stats.isFile()) {
        this.dirty.add(relative);
        return;
      }
      const wanted = Math.min(stats.size, this.key.fileLimit);
      const buffer = Buffer.allocUnsafe(wanted);
      let filled = 0;
      while (filled < wanted) {
        const count = readSync(descriptor, buffer, filled, wanted - filled, filled);
        if (count === 0) break;
        filled += count;
      }
      const content = buffer.subarray(0, filled);
      if (!content.subarray(0, 8_000).includes(0)) this.collector.add(content);
      this.collector.add(Buffer.from(nameOf(relative), 'utf8'));
      const settled = Math.max(stats.mtimeMs, stats.ctimeMs) < Date.now() - this.settings.settledMs;
      this.overlay.set(relative, {
        kind: 'indexed',
        stat: { ino: stats.ino, size: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, settled },
        trigrams: this.collector.take(),
      });
      // A folder path that is now a file: its old contents are gone.
      this.markGoneBelow(relative);
    } catch {
      this.collector.take();
      this.overlay.set(relative, { kind: 'direct' });
    } finally {
      closeSync(descriptor);
    }
  }

  /** Re-reads, a few at a time between tool calls, the files searched directly. */
  private scheduleReindex(): void {
    if (this.reindexScheduled || this.reindexQueue.size === 0) return;
    this.reindexScheduled = true;
    const step = () => {
      this.reindexScheduled = false;
      if (this.state !== 'ready') return;
      let budget = 64;
      for (const path of this.reindexQueue) {
        if (budget-- === 0) break;
        if (this.overlay.get(path)?.kind === 'direct') this.reindex(path);
        else this.reindexQueue.delete(path);
      }
      this.scheduleReindex();
    };
    setImmediate(step).unref();
  }

  /**
   * The candidates of a search under `folder` (workspace-relative, '' for all): stored files
   * whose trigrams satisfy `query` and whose stored figures still hold, re-read files that
   * satisfy it, and files whose content the index does not know. Call {@link prepare} first.
   */
  candidates(
    query: TrigramQuery,
    folder: string,
    include: ((relative: string) => boolean) | undefined,
  ): IndexCandidates {
    const stored = this.stored!;
    const [start, end] = rangeUnder(stored.filePaths, folder);
    // A common key's files are not listed: every file, stored or changed since, counts as holding it.
    const narrowing = withoutKeysHeldByAll(query, (key) => isCommonKey(stored, key));
    const matching = this.evaluate(narrowing, start, end);
    const numbers: number[] = [];
    let direct = 0;
    for (const number of matching) if (!this.overlay.has(stored.filePaths[number]!)) numbers.push(number);
    for (const number of this.unreadable) {
      if (number < start || number >= end || this.overlay.has(stored.filePaths[number]!)) continue;
      numbers.push(number);
      direct += 1;
    }
    if (direct > 0) numbers.sort((left, right) => left - right);
    let known = end - start;
    const changed: string[] = [];
    for (const [path, entry] of this.overlay) {
      if (!isUnder(path, folder) || path === folder) continue;
      const isStored = this.fileNumbers.has(path);
      if (entry.kind === 'gone') {
        if (isStored) known -= 1;
        continue;
      }
      if (!isStored) known += 1;
      if (entry.kind === 'direct') {
        changed.push(path);
        direct += 1;
      } else if (satisfies(narrowing, (trigram) => hasTrigram(entry.trigrams, trigram))) changed.push(path);
    }
    this.scheduleReindex();
    this.rebuildIfLarge();
    changed.sort(compareWalkOrder);
    // Stored candidates are in walk order already; merge the few changed ones in.
    const files: IndexCandidates['files'] = [];
    const add = (relative: string) => {
      if (include === undefined || include(relative))
        files.push({ absolute: `${this.key.root}/${relative}`, relative, name: nameOf(relative) });
    };
    let next = 0;
    for (const number of numbers) {
      const path = stored.filePaths[number]!;
      while (next < changed.length && compareWalkOrder(changed[next]!, path) < 0) add(changed[next++]!);
      add(path);
    }
    while (next < changed.length) add(changed[next++]!);
    // Smallest first: a budget then covers as many candidates as it can, and a rare literal is not
    // crowded out by a few large files that hold all its trigrams (results are put back in walk order).
    const sizes = new Map<string, number>();
    for (const file of files) {
      const number = this.fileNumbers.get(file.relative);
      sizes.set(
        file.relative,
        number === undefined || this.overlay.has(file.relative) ? 0 : stored.fileStats[number * 4 + 1]!,
      );
    }
    files.sort((left, right) => sizes.get(left.relative)! - sizes.get(right.relative)!);
    return { files, known, direct };
  }

  private evaluate(query: TrigramQuery, start: number, end: number): Uint32Array {
    const stored = this.stored!;
    switch (query.kind) {
      case 'all': {
        const all = new Uint32Array(end - start);
        for (let index = 0; index < all.length; index += 1) all[index] = start + index;
        return all;
      }
      case 'trigram':
        return clip(postingsOf(stored, query.value), start, end);
      case 'and': {
        let result: Uint32Array | undefined;
        for (const part of query.parts) {
          const next = this.evaluate(part, start, end);
          result = result === undefined ? next : intersect(result, next);
          if (result.length === 0) break;
        }
        return result ?? new Uint32Array(0);
      }
      case 'or': {
        let result: Uint32Array = new Uint32Array(0);
        for (const part of query.parts) result = union(result, this.evaluate(part, start, end));
        return result;
      }
    }
  }
}

function clip(sorted: Uint32Array, start: number, end: number): Uint32Array {
  return sorted.subarray(lowerBound(sorted, start), lowerBound(sorted, end));
}

function lowerBound(sorted: Uint32Array, value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

function intersect(left: Uint32Array, right: Uint32Array): Uint32Array {
  const out = new Uint32Array(Math.min(left.length, right.length));
  let count = 0;
  let leftIndex = 0;
  let rightIndex = 0;
  while (leftIndex < left.length && rightIndex < right.length) {
    const a = left[leftIndex]!;
    const b = right[rightIndex]!;
    if (a === b) {
      out[count++] = a;
      leftIndex += 1;
      rightIndex += 1;
    } else if (a < b) leftIndex += 1;
    else rightIndex += 1;
  }
  return out.subarray(0, count);
}

function union(left: Uint32Array, right: Uint32Array): Uint32Array {
  const out = new Uint32Array(left.length + right.length);
  let count = 0;
  let leftIndex = 0;
  let rightIndex = 0;
  while (leftIndex < left.length || rightIndex < right.length) {
    const a = leftIndex < left.length ? left[leftIndex]! : Infinity;
    const b = rightIndex < right.length ? right[rightIndex]! : Infinity;
    if (a <= b) {
      out[count++] = a;
      leftIndex += 1;
      if (a === b) rightIndex += 1;
    } else {
      out[count++] = b;
      rightIndex += 1;
    }
  }
  return out.subarray(0, count);
}
