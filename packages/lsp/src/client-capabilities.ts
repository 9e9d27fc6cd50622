import type { ClientCapabilities } from 'vscode-languageserver-protocol';

/** What clawsmith tells a server it can do: document sync, diagnostics (pushed and pulled), navigation, symbols. */
export function clientCapabilities(): ClientCapabilities {
  return {
    general: { positionEncodings: ['utf-16'] },
    textDocument: {
      synchronization: { didSave: true, dynamicRegistration: false },
      publishDiagnostics: { relatedInformation: false, versionSupport: true },
      // Dynamic: pyright offers pull diagnostics only to clients that accept a registration.
      diagnostic: { dynamicRegistration: true, relatedDocumentSupport: false },
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
