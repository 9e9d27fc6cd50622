import {
  DefinitionRequest,
  DiagnosticSeverity as LibraryDiagnosticSeverity,
  DocumentDiagnosticRequest,
  DocumentSymbolRequest,
  ExecuteCommandRequest,
  HoverRequest,
  ReferencesRequest,
  SymbolKind as LibrarySymbolKind,
  WorkspaceSymbolRequest,
} from 'vscode-languageserver-protocol';
import { describe, expect, it } from 'vitest';
import {
  definitionRequest,
  DiagnosticSeverity,
  documentDiagnosticRequest,
  documentSymbolRequest,
  executeCommandRequest,
  hoverRequest,
  referencesRequest,
  SymbolKind,
  workspaceSymbolRequest,
} from './protocol-values.js';

// The tools use these without loading the protocol library; the library is the reference.
describe('protocol values', () => {
  it('name the methods of the library’s requests', () => {
    expect(
      [
        definitionRequest,
        referencesRequest,
        hoverRequest,
        documentSymbolRequest,
        workspaceSymbolRequest,
        documentDiagnosticRequest,
        executeCommandRequest,
      ].map((request) => request.method),
    ).toEqual(
      [
        DefinitionRequest,
        ReferencesRequest,
        HoverRequest,
        DocumentSymbolRequest,
        WorkspaceSymbolRequest,
        DocumentDiagnosticRequest,
        ExecuteCommandRequest,
      ].map((request) => request.method),
    );
  });

  it('number severities and symbol kinds as the library does', () => {
    expect(DiagnosticSeverity).toEqual({ ...LibraryDiagnosticSeverity });
    expect(SymbolKind).toEqual({ ...LibrarySymbolKind });
  });
});
