import type { Diagnostic, DiagnosticSeverity as Severity } from 'vscode-languageserver-protocol';
import type { RunningServer } from './managed-server.js';
import type { LspLimits } from './lsp-limits.js';
import { DiagnosticSeverity, documentDiagnosticRequest, executeCommandRequest } from './protocol-values.js';

/** Diagnostics of one document, and how fresh they are. */
export interface DocumentDiagnostics {
  readonly diagnostics: readonly Diagnostic[];
  /** Set when the answer may be stale: the wait for a publish ran out. */
  readonly staleNote?: string;
}

interface TsserverDiagnostic {
  readonly message: string;
  readonly category: string;
  readonly code?: number;
  readonly source?: string;
  readonly startLocation: { readonly line: number; readonly offset: number };
  readonly endLocation: { readonly line: number; readonly offset: number };
}

const TSSERVER_SEVERITY: Readonly<Record<string, Severity>> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  suggestion: DiagnosticSeverity.Hint,
  message: DiagnosticSeverity.Information,
};

/**
 * The current diagnostics of an open, synced document, by the server's mode: pulled
 * (`textDocument/diagnostic`), asked of tsserver synchronously, or the next publish after the
 * document's last change, waiting at most `diagnosticsWaitMs` and saying so when the wait ran out.
 */
export async function fetchDiagnostics(
  server: RunningServer,
  uri: string,
  limits: LspLimits,
  signal: AbortSignal,
): Promise<DocumentDiagnostics> {
  const mode =
    server.process.spec.diagnostics === 'auto'
      ? server.process.capabilities.diagnosticProvider ||
        server.process.registeredMethods.has(documentDiagnosticRequest.method)
        ? 'pull'
        : 'publish'
      : server.process.spec.diagnostics;
  const timing = { timeoutMs: limits.requestTimeoutMs, signal };
  if (mode === 'pull') {
    const report = await server.process.request(documentDiagnosticRequest, { textDocument: { uri } }, timing);
    return { diagnostics: report.kind === 'full' ? report.items : [] };
  }
  if (mode === 'tsserver') {
    const diagnostics: Diagnostic[] = [];
    for (const command of ['syntacticDiagnosticsSync', 'semanticDiagnosticsSync']) {
      const response = (await server.process.request(
        executeCommandRequest,
        { command: 'typescript.tsserverRequest', arguments: [command, { file: uri, includeLinePosition: true }] },
        timing,
      )) as { body?: TsserverDiagnostic[] } | null;
      for (const item of response?.body ?? []) diagnostics.push(fromTsserver(item));
    }
    return { diagnostics };
  }
  const sentAt = server.documents.sentAtGeneration(uri) ?? 0;
  const fresh = await server.process.waitForPublish(uri, sentAt, limits.diagnosticsWaitMs);
  if (fresh) return { diagnostics: fresh.diagnostics };
  const last = server.process.publishedFor(uri);
  return {
    diagnostics: last?.diagnostics ?? [],
    staleNote: `The ${server.process.spec.id} server published no diagnostics within ${limits.diagnosticsWaitMs} ms of the last change; ${last ? 'these are the last ones it published and may be stale' : 'it has published none for this file, so none are shown'}. Ask again to check.`,
  };
}

function fromTsserver(item: TsserverDiagnostic): Diagnostic {
  return {
    range: {
      start: { line: item.startLocation.line - 1, character: item.startLocation.offset - 1 },
      end: { line: item.endLocation.line - 1, character: item.endLocation.offset - 1 },
    },
    severity: TSSERVER_SEVERITY[item.category] ?? DiagnosticSeverity.Error,
    message: item.message,
    ...(item.code !== undefined ? { code: item.code } : {}),
    source: item.source ?? 'typescript',
  };
}
