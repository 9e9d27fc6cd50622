import { describe, expect, it } from 'vitest';
import { assignMcpToolNames, mcpToolName } from './mcp-tool-name.js';
import { mcpToolRisk } from './mcp-tool-risk.js';

describe('mcpToolName', () => {
  it('sanitises each part to the providers’ name rules', () => {
    expect(mcpToolName('everything', 'get-sum')).toBe('mcp__everything__get-sum');
    expect(mcpToolName('my server.v2', 'read/file é')).toBe('mcp__my_server_v2__read_file__');
  });

  it('keeps names of at most 64 characters, distinct and stable', () => {
    const long = mcpToolName('a-very-long-server-name-for-testing', 'an-equally-long-tool-name-that-goes-on');
    const other = mcpToolName('a-very-long-server-name-for-testing', 'an-equally-long-tool-name-that-goes-on-2');
    expect(long).toHaveLength(64);
    expect(long).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(other).not.toBe(long);
    expect(mcpToolName('a-very-long-server-name-for-testing', 'an-equally-long-tool-name-that-goes-on')).toBe(long);
  });

  it('refuses two tools that map to one name, naming both', () => {
    expect(() =>
      assignMcpToolNames([
        { server: 'git.hub', tool: 'search' },
        { server: 'git_hub', tool: 'search' },
      ]),
    ).toThrowError(
      expect.objectContaining({
        code: 'mcp_tool_name_collision',
        message: expect.stringMatching(
          /mcp__git_hub__search: tool "search" of server "git.hub" and tool "search" of server "git_hub"/,
        ),
      }),
    );
  });
});

describe('mcpToolRisk', () => {
  const readOnly = { readOnlyHint: true, openWorldHint: false };
  it('gives a third party’s tool every capability and risk execute by default, whatever it claims', () => {
    expect(mcpToolRisk({ annotations: readOnly, trustAnnotations: false, policy: undefined })).toMatchObject({
      risk: 'execute',
      basis: 'default',
    });
  });

  it('lets the person trust the hints, or set a tool’s risk and capabilities', () => {
    expect(mcpToolRisk({ annotations: readOnly, trustAnnotations: true, policy: undefined })).toEqual({
      risk: 'read',
      capabilities: [],
      basis: 'annotations',
    });
    expect(mcpToolRisk({ annotations: { readOnlyHint: true }, trustAnnotations: true, policy: undefined })).toEqual({
      risk: 'read',
      capabilities: ['network'],
      basis: 'annotations',
    });
    expect(
      mcpToolRisk({
        annotations: undefined,
        trustAnnotations: false,
        policy: { risk: 'read', capabilities: ['filesystem.read'] },
      }),
    ).toEqual({
      risk: 'read',
      capabilities: ['filesystem.read'],
      basis: 'configuration',
    });
  });
});
