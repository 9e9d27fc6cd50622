import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('@clawsmith/mcp public surface', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(api).sort()).toEqual([
      'CHANGES_TEXT_LIMIT_BYTES',
      'CHANGES_TOOL_NAME',
      'DEFAULT_CALL_TIMEOUT_MS',
      'EDITOR_CONFIGURATION',
      'ELICITATION_DECLINE_REASON_KEY',
      'MAX_MCP_TOOL_NAME_LENGTH',
      'MAX_STDIO_MESSAGE_BYTES',
      'MCP_ERROR_CODES',
      'McpCredentialStore',
      'McpError',
      'McpServerConnection',
      'McpToolNameCollisionError',
      'McpTrustStore',
      'RESTART_BACKOFF_MS',
      'SERVED_HTTP_MAX_BODY_BYTES',
      'SERVED_HTTP_MAX_SESSIONS',
      'SERVED_HTTP_PATH',
      'SERVED_HTTP_SESSION_IDLE_MS',
      'SERVED_OUTPUT_SCHEMA',
      'SIGN_IN_TIMEOUT_MS',
      'STARTUP_TIMEOUT_MS',
      'ToolCatalogueStore',
      'UNDO_TOOL_NAME',
      'artifactUri',
      'createServedMcpServer',
      'loadMcpConfiguration',
      'mapCallResult',
      'mcpConfigurationFiles',
      'mcpToolName',
      'mcpToolRisk',
      'openMcpTools',
      'parseServedUri',
      'restorePointUri',
      'serveMcpOverHttp',
      'serveMcpOverStdio',
      'servedCallResult',
      'signInToMcpServer',
      'signOutOfMcpServer',
      'toolAnnotations',
      'trustMcpServer',
      'untrustMcpServer',
    ]);
  });

  it('pins the codes and the defaults', () => {
    expect(api.MCP_ERROR_CODES).toEqual({
      environmentMissing: 'mcp_env_missing',
      toolNameCollision: 'mcp_tool_name_collision',
      serverNotFound: 'mcp_server_not_found',
      serverUnavailable: 'mcp_server_unavailable',
      toolError: 'mcp_tool_error',
      timeout: 'mcp_timeout',
      protocolError: 'mcp_protocol_error',
      authRequired: 'mcp_auth_required',
    });
    expect(api.SIGN_IN_TIMEOUT_MS).toBe(300_000);
    expect(api.ELICITATION_DECLINE_REASON_KEY).toBe('clawsmith/reason');
    expect(api.DEFAULT_CALL_TIMEOUT_MS).toBe(60_000);
    expect(api.STARTUP_TIMEOUT_MS).toBe(30_000);
    expect(api.RESTART_BACKOFF_MS).toEqual({ initial: 500, maximum: 30_000 });
    expect(api.MAX_MCP_TOOL_NAME_LENGTH).toBe(64);
    expect(api.MAX_STDIO_MESSAGE_BYTES).toBe(64 * 1024 * 1024);
  });

  it('pins the served tools, the text bound and the URIs', () => {
    expect([api.CHANGES_TOOL_NAME, api.UNDO_TOOL_NAME]).toEqual(['clawsmith_changes', 'clawsmith_undo']);
    expect(api.CHANGES_TEXT_LIMIT_BYTES).toBe(65_536);
    expect(api.artifactUri('a/b')).toBe('clawsmith://artifacts/a%2Fb');
    expect(api.restorePointUri('s/t')).toBe('clawsmith://restore-points/s%2Ft');
    expect(api.parseServedUri('clawsmith://restore-points/s%2Ft')).toEqual({ kind: 'restore-point', id: 's/t' });
    expect(api.parseServedUri('file:///etc/passwd')).toBeUndefined();
    expect(api.SERVED_OUTPUT_SCHEMA.required).toEqual(['status', 'retryable']);
  });
});
