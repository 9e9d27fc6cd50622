import type { ResolvedToolSecurity, ToolCapability } from '@clawsmith/tool-protocol';

/** MCP's tool annotations, as clawsmith derives them. */
export interface ServedToolAnnotations {
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: boolean;
}

// Capabilities whose effects reach past the workspace's files and the session's own records.
const OPEN_WORLD: ReadonlySet<ToolCapability> = new Set([
  'process.execute',
  'network',
  'credentials',
  'external.side-effect',
]);
// Capabilities that can overwrite or remove something that existed before the call.
const DESTRUCTIVE: ReadonlySet<ToolCapability> = new Set([
  'filesystem.write',
  'process.execute',
  'network',
  'credentials',
  'external.side-effect',
]);

/**
 * The hints a client sees, derived from the effective security profile (never written by hand,
 * never taken from what a tool claims):
 * - `readOnlyHint`: no side effect at all (effective risk `read`, no session or delegation writes);
 * - `destructiveHint`: not read-only and able to overwrite or delete (file writes, commands,
 *   network, credentials, external side effects);
 * - `idempotentHint`: read-only (repeating a read changes nothing); a write is never assumed idempotent;
 * - `openWorldHint`: reaches beyond the workspace (commands, network, credentials, external side effects).
 */
export function toolAnnotations(security: ResolvedToolSecurity): ServedToolAnnotations {
  const readOnly = !security.sideEffect;
  return {
    readOnlyHint: readOnly,
    destructiveHint: !readOnly && security.capabilities.some((capability) => DESTRUCTIVE.has(capability)),
    idempotentHint: readOnly,
    openWorldHint: security.capabilities.some((capability) => OPEN_WORLD.has(capability)),
  };
}
