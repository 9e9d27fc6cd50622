import { readFileSync, statSync } from 'node:fs';
import { extname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DidSaveTextDocumentNotification,
} from 'vscode-languageserver-protocol';
import type { LanguageServerProcess } from './language-server-process.js';
import { LSP_ERROR_CODES, LspError } from './lsp-error.js';

/** Files above this size are not sent to a server. */
export const MAX_DOCUMENT_BYTES = 4 * 1024 * 1024;

interface OpenDocument {
  version: number;
  text: string;
  /** The server's publish generation just before it received this version. */
  sentAtGeneration: number;
  lastUsed: number;
}

/**
 * The documents one server has open, kept equal to what the disk holds: before every request the
 * open documents are compared with the disk and changed ones are sent (`didChange` + `didSave`,
 * full text), deleted ones closed. At most `maxOpen` stay open; the least recently used close first.
 */
export class DocumentSync {
  private readonly documents = new Map<string, OpenDocument>();
  private clock = 0;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly server: LanguageServerProcess,
    private readonly maxOpen: number,
  ) {}

  /** Runs `task` after every sync before it has finished: one sync at a time per server. */
  private exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Opens (or refreshes) `files` and refreshes every other open document from disk. */
  sync(files: readonly string[]): Promise<void> {
    return this.exclusive(async () => {
      const wanted = new Set(files.map((file) => pathToFileURL(file).href));
      for (const uri of [...this.documents.keys()]) if (!wanted.has(uri)) await this.refresh(uri);
      for (const uri of wanted) await this.refresh(uri);
      await this.evict(wanted);
    });
  }

  /** The publish generation at which the open document's current text was sent. */
  sentAtGeneration(uri: string): number | undefined {
    return this.documents.get(uri)?.sentAtGeneration;
  }

  /** The text of an open document as the server has it. */
  textOf(uri: string): string | undefined {
    return this.documents.get(uri)?.text;
  }

  private async refresh(uri: string): Promise<void> {
    const path = fileURLToPath(uri);
    const text = readDocument(path);
    const open = this.documents.get(uri);
    this.clock += 1;
    if (text === undefined) {
      if (open) {
        this.documents.delete(uri);
        await this.server.notify(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
      }
      return;
    }
    if (!open) {
      const languageId = this.server.spec.languages[extname(path)] ?? 'plaintext';
      this.documents.set(uri, {
        version: 1,
        text,
        sentAtGeneration: this.server.publishGeneration,
        lastUsed: this.clock,
      });
      await this.server.notify(DidOpenTextDocumentNotification.type, {
        textDocument: { uri, languageId, version: 1, text },
      });
      return;
    }
    open.lastUsed = this.clock;
    if (open.text === text) return;
    open.version += 1;
    open.text = text;
    open.sentAtGeneration = this.server.publishGeneration;
    await this.server.notify(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version: open.version },
      contentChanges: [{ text }],
    });
    await this.server.notify(DidSaveTextDocumentNotification.type, { textDocument: { uri }, text });
  }

  private async evict(keep: ReadonlySet<string>): Promise<void> {
    if (this.documents.size <= this.maxOpen) return;
    const candidates = [...this.documents.entries()]
      .filter(([uri]) => !keep.has(uri))
      .sort((left, right) => left[1].lastUsed - right[1].lastUsed);
    for (const [uri] of candidates) {
      if (this.documents.size <= this.maxOpen) break;
      this.documents.delete(uri);
      await this.server.notify(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
    }
  }
}

/** The file's text, or undefined when it no longer exists. */
function readDocument(path: string): string | undefined {
  let size: number;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) return undefined;
    size = stat.size;
  } catch {
    return undefined;
  }
  if (size > MAX_DOCUMENT_BYTES) {
    throw new LspError(
      LSP_ERROR_CODES.requestFailed,
      `${path} is ${size} bytes, above the ${MAX_DOCUMENT_BYTES}-byte limit for files sent to a language server; ask about a smaller file.`,
    );
  }
  return readFileSync(path, 'utf8');
}
