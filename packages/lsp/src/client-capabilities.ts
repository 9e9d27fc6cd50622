import type { ClientCapabilities } from 'vscode-languageserver-protocol';
import type { DiagnosticsMode } from './server-spec.js';

/** What clawsmith tells a server it can do: document sync, diagnostics (pushed, and pulled unless `mode` is `publish`), navigation, symbols. */
export function clientCapabilities(mode: DiagnosticsMode): ClientCapabilities {
  return {
    general: { positionEncodings: ['utf-16'] },
    textDocument: {
      synchronization: { didSave: true, dynamicRegistration: false },
      publishDiagnostics: { relatedInformation: false, versionSupport: true },
      // Dynamic: pyright offers pull diagnostics only to clients that accept a registration. A
      // client that will only wait for publishes does not claim pull (pyright would stop publishing).
      ...(mode === 'publish' ? {} : { diagnostic: { dynamicRegistration: true, relatedDocumentSupport: false } }),
      hover: { contentFormat: ['plaintext', 'markdown'] },
      definition: { linkSupport: true },
      references: {},
      documentSymbol: { hierarchicalDocumentSymbolSupport: true },
    },
    workspace: {
      configuration: true,
      workspaceFolders: true,
      symbol: {},
      didChangeWatchedFiles: { dynamicRegistration: false },
    },
    window: { workDoneProgress: false },
  };
}
