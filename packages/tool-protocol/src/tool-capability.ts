import type { ToolRisk } from './tool-risk.js';

/**
 * What a tool can reach. Capabilities are not a label for display: they set the floor below
 * which a tool's effective risk cannot go (see {@link CAPABILITY_RISK_FLOORS}).
 */
export type ToolCapability =
  | 'filesystem.read'
  | 'filesystem.write'
  | 'process.execute'
  | 'network'
  | 'credentials'
  | 'external.side-effect'
  | 'session.read'
  | 'session.write'
  | 'agent.delegate';

/** Every {@link ToolCapability}, in a stable order. */
export const TOOL_CAPABILITIES: readonly ToolCapability[] = Object.freeze([
  'filesystem.read',
  'filesystem.write',
  'process.execute',
  'network',
  'credentials',
  'external.side-effect',
  'session.read',
  'session.write',
  'agent.delegate',
] as const);

/**
 * The lowest effective risk each capability allows: `filesystem.write` needs at least
 * `workspace-write`; executing processes, the network, credentials and external side effects
 * need `execute`. The other capabilities leave the declared risk alone.
 */
export const CAPABILITY_RISK_FLOORS: Readonly<Record<ToolCapability, ToolRisk>> = Object.freeze({
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

/** Whether `value` is one of the nine {@link ToolCapability} strings. */
export function isToolCapability(value: unknown): value is ToolCapability {
  return typeof value === 'string' && (TOOL_CAPABILITIES as readonly string[]).includes(value);
}
