import { availableParallelism } from 'node:os';
import { IndexWorker } from './index-worker.js';
import { indexFolderFor, WorkspaceIndex, type WorkspaceIndexSettings } from './workspace-index.js';

/** How `search_files` keeps its trigram index (option `searchIndex` of `createWorkspaceTools`). */
export interface SearchIndexOptions {
  /**
   * Folder that holds the indexes, one sub-folder per workspace and settings (the cli uses
   * `<clawsmith home>/search-index`). Created with mode 0700 when missing.
   */
  readonly folder: string;
  /** Watch workspace folders so a search need not compare every file first (default true). */
  readonly watch?: boolean;
  /**
   * Milliseconds a file's change must lie in the past when it is read before equal `lstat`
   * figures are taken to mean equal content (default 2,000: two writes within one tick of the
   * file system's clock can leave the same figures).
   */
  readonly settledMs?: number;
}

/** The workspace indexes of one tool set, by real workspace root, sharing one worker thread. */
export class SearchIndexes {
  private readonly indexes = new Map<string, WorkspaceIndex>();
  private readonly worker = new IndexWorker();
  private readonly settings: WorkspaceIndexSettings;

  constructor(
    private readonly options: SearchIndexOptions,
    private readonly skippedFolders: ReadonlySet<string>,
    private readonly fileLimit: number,
  ) {
    this.settings = {
      watch: options.watch ?? true,
      settledMs: options.settledMs ?? 2_000,
      maxWatchedFolders: 50_000,
      buildThreads: Math.min(4, availableParallelism()),
      minFilesPerPart: 2_000,
    };
  }

  /** The index of the workspace at `root` (a real path), started on first use. */
  forRoot(root: string): WorkspaceIndex {
    let index = this.indexes.get(root);
    if (!index) {
      const key = { root, skippedFolders: [...this.skippedFolders].sort(), fileLimit: this.fileLimit };
      index = new WorkspaceIndex(
        key,
        indexFolderFor(this.options.folder, key),
        this.worker,
        this.settings,
        this.skippedFolders,
      );
      this.indexes.set(root, index);
      void index.start();
    }
    return index;
  }

  /** The index of `root` if one was started. */
  existing(root: string): WorkspaceIndex | undefined {
    return this.indexes.get(root);
  }

  /** Stops watchers and the worker thread. */
  async close(): Promise<void> {
    for (const index of this.indexes.values()) index.close();
    this.indexes.clear();
    await this.worker.close();
  }
}
