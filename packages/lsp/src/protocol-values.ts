// The few protocol values the tools need before any server runs: the methods they request and the
// numbers of two enumerations. They are written here, typed against vscode-languageserver-protocol's
// declarations (a wrong method or number fails the typecheck), so that defining the tools loads
// none of the protocol library: vscode-jsonrpc and the protocol (some 300 KB that every clawsmith
// start compiled) load with the first server (managed-server.ts).
import type {
  DefinitionRequest,
  DiagnosticSeverity as ProtocolDiagnosticSeverity,
  DocumentDiagnosticRequest,
  DocumentSymbolRequest,
  ExecuteCommandRequest,
  HoverRequest,
  ReferencesRequest,
  SymbolKind as ProtocolSymbolKind,
  WorkspaceSymbolRequest,
} from 'vscode-languageserver-protocol';

/** A request namespace of the protocol library (`DefinitionRequest`): its method and its typed request type. */
interface ProtocolRequest {
  readonly method: string;
  readonly type: { readonly _: unknown };
}

/** A request by its method, carrying the library's parameter and result types (what `request()` reads). */
export interface RequestOf<Request extends ProtocolRequest> {
  readonly method: Request['method'];
  readonly _: Request['type']['_'];
}

function requestOf<Request extends ProtocolRequest>(method: Request['method']): RequestOf<Request> {
  return { method, _: undefined };
}

export const definitionRequest = requestOf<typeof DefinitionRequest>('textDocument/definition');
export const referencesRequest = requestOf<typeof ReferencesRequest>('textDocument/references');
export const hoverRequest = requestOf<typeof HoverRequest>('textDocument/hover');
export const documentSymbolRequest = requestOf<typeof DocumentSymbolRequest>('textDocument/documentSymbol');
export const workspaceSymbolRequest = requestOf<typeof WorkspaceSymbolRequest>('workspace/symbol');
export const documentDiagnosticRequest = requestOf<typeof DocumentDiagnosticRequest>('textDocument/diagnostic');
export const executeCommandRequest = requestOf<typeof ExecuteCommandRequest>('workspace/executeCommand');

/** The protocol's `DiagnosticSeverity` numbers. */
export const DiagnosticSeverity = {
  Error: 1,
  Warning: 2,
  Information: 3,
  Hint: 4,
} as const satisfies typeof ProtocolDiagnosticSeverity;

/** The protocol's `SymbolKind` numbers. */
export const SymbolKind = {
  File: 1,
  Module: 2,
  Namespace: 3,
  Package: 4,
  Class: 5,
  Method: 6,
  Property: 7,
  Field: 8,
  Constructor: 9,
  Enum: 10,
  Interface: 11,
  Function: 12,
  Variable: 13,
  Constant: 14,
  String: 15,
  Number: 16,
  Boolean: 17,
  Array: 18,
  Object: 19,
  Key: 20,
  Null: 21,
  EnumMember: 22,
  Struct: 23,
  Event: 24,
  Operator: 25,
  TypeParameter: 26,
} as const satisfies typeof ProtocolSymbolKind;
