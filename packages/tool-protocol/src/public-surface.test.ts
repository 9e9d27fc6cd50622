// Pins the public surface as literals. A red pin is a deliberate change that needs a changeset,
// never a loosened test.
import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('@clawsmith/tool-protocol public surface', () => {
  it('exports exactly these runtime values', () => {
    expect(Object.keys(api).sort()).toEqual([
      'CAPABILITY_RISK_FLOORS',
      'ClawsmithError',
      'DEFAULT_DISPLAY_LIMITS',
      'DEFAULT_NORMALIZE_LIMITS',
      'PROTECTED_PATHS',
      'REDACTED',
      'TOOL_CAPABILITIES',
      'TOOL_DISPLAY_KINDS',
      'TOOL_RESULT_CODES',
      'TOOL_RESULT_STATUSES',
      'TOOL_RISKS',
      'UnauthorizedToolError',
      'WORKSPACE_MUTATION_SOURCE',
      'addressInRange',
      'assertAuthorized',
      'boundText',
      'canonicalJson',
      'canonicalSha256',
      'checkHostAddresses',
      'classifyNetworkAddress',
      'createDirectWorkspaceWall',
      'defineTool',
      'headAndTail',
      'isNetworkAddress',
      'isToolCapability',
      'isToolRisk',
      'isTraceparent',
      'isTracestate',
      'matchesDomainPattern',
      'maxRisk',
      'mutationFailure',
      'normalizeHost',
      'normalizeToolResult',
      'protectedPathEntry',
      'protectedPathGlobs',
      'redactSecrets',
      'resolveToolSecurity',
      'resultMetadata',
      'riskRank',
      'sanitizeDisplay',
      'stripControlSequences',
      'toModelToolSchema',
      'toolCancelled',
      'toolDenied',
      'toolError',
      'toolResultFromError',
      'toolSuccess',
      'traceContextEnvironment',
    ]);
  });

  it('pins the result statuses', () => {
    expect(api.TOOL_RESULT_STATUSES).toEqual(['success', 'error', 'denied', 'cancelled', 'unknown']);
  });

  it('pins the runtime result codes', () => {
    expect(Object.values(api.TOOL_RESULT_CODES).sort()).toEqual([
      'cancelled',
      'duplicate_call',
      'hook_denied',
      'inactive_tool',
      'interrupted',
      'invalid_arguments',
      'invalid_json',
      'invalid_tool_call',
      'permission_denied',
      'too_many_tool_calls',
      'tool_failed',
      'unauthorized',
      'unknown_tool',
    ]);
  });

  it('pins the risk order, the capabilities and their floors', () => {
    expect(api.TOOL_RISKS).toEqual(['read', 'workspace-write', 'execute']);
    expect(api.TOOL_CAPABILITIES).toEqual([
      'filesystem.read',
      'filesystem.write',
      'process.execute',
      'network',
      'credentials',
      'external.side-effect',
      'session.read',
      'session.write',
      'agent.delegate',
    ]);
    expect(api.CAPABILITY_RISK_FLOORS).toEqual({
      'filesystem.read': 'read',
      'filesystem.write': 'workspace-write',
      'process.execute': 'execute',
      network: 'execute',
      credentials: 'execute',
      'external.side-effect': 'execute',
      'session.read': 'read',
      'session.write': 'read',
      'agent.delegate': 'read',
    });
    expect(api.TOOL_DISPLAY_KINDS).toEqual(['text', 'command', 'search', 'diff', 'artifact', 'json']);
  });
});
