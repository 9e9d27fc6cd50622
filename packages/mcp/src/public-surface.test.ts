import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('@clawsmith/mcp public surface', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(api).sort()).toEqual([
      'DEFAULT_CALL_TIMEOUT_MS',
      'MAX_MCP_TOOL_NAME_LENGTH',
      'MAX_STDIO_MESSAGE_BYTES',
      'MCP_ERROR_CODES',
      'McpError',
      'McpServerConnection',
      'McpToolNameCollisionError',
      'McpTrustStore',
      'RESTART_BACKOFF_MS',
      'STARTUP_TIMEOUT_MS',
      'ToolCatalogueStore',
      'loadMcpConfiguration',
      'mapCallResult',
      'mcpConfigurationFiles',
      'mcpToolName',
      'mcpToolRisk',
      'openMcpTools',
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
    });
    expect(api.DEFAULT_CALL_TIMEOUT_MS).toBe(60_000);
    expect(api.STARTUP_TIMEOUT_MS).toBe(30_000);
    expect(api.RESTART_BACKOFF_MS).toEqual({ initial: 500, maximum: 30_000 });
    expect(api.MAX_MCP_TOOL_NAME_LENGTH).toBe(64);
    expect(api.MAX_STDIO_MESSAGE_BYTES).toBe(64 * 1024 * 1024);
  });
});
