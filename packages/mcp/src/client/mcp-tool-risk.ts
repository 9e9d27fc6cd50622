import { TOOL_CAPABILITIES, type ToolCapability, type ToolRisk } from '@clawsmith/tool-protocol';
import type { McpToolPolicy } from './server-entry.js';

/** The hints an MCP server may give about a tool (all optional, all untrusted by default). */
export interface McpToolAnnotations {
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/** The risk an MCP tool declares to the runtime, and why. */
export interface McpToolRisk {
  readonly risk: ToolRisk;
  readonly capabilities: readonly ToolCapability[];
  /** Whether the hints were used. */
  readonly basis: 'default' | 'annotations' | 'configuration';
}

/**
 * The declared risk of an MCP tool. By default a third party's tool has unknown capabilities:
 * every capability, risk `execute`. Only the person's configuration lowers that: a per-tool
 * `risk`/`capabilities`, or `trustAnnotations: true` on the server entry, which lets
 * `readOnlyHint: true` mean risk `read` (with `network` when `openWorldHint` is not false).
 * The runtime still raises a declared risk to its capability floor.
 */
export function mcpToolRisk(options: {
  annotations: McpToolAnnotations | undefined;
  trustAnnotations: boolean;
  policy: McpToolPolicy | undefined;
}): McpToolRisk {
  const { policy, annotations } = options;
  if (policy && (policy.risk !== undefined || policy.capabilities !== undefined)) {
    return {
      risk: policy.risk ?? 'execute',
      capabilities: policy.capabilities ?? [...TOOL_CAPABILITIES],
      basis: 'configuration',
    };
  }
  if (options.trustAnnotations && annotations) {
    const openWorld = annotations.openWorldHint !== false;
    if (annotations.readOnlyHint === true) {
      return { risk: 'read', capabilities: openWorld ? ['network'] : [], basis: 'annotations' };
    }
    return {
      risk: 'execute',
      capabilities: openWorld ? ['external.side-effect', 'network'] : ['external.side-effect'],
      basis: 'annotations',
    };
  }
  return { risk: 'execute', capabilities: [...TOOL_CAPABILITIES], basis: 'default' };
}
