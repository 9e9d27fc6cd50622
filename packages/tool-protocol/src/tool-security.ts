import { CAPABILITY_RISK_FLOORS, TOOL_CAPABILITIES, isToolCapability, type ToolCapability } from './tool-capability.js';
import { isToolRisk, maxRisk, riskRank, type ToolRisk } from './tool-risk.js';

/**
 * The security profile the runtime resolved for a tool: declared risk raised to the floor of its
 * capabilities. Only {@link resolveToolSecurity} produces it; hooks, permissions and UIs use it
 * instead of what the tool declared.
 */
export interface ResolvedToolSecurity {
  /** The effective risk: never below the capability floor, never below the declared risk. */
  readonly risk: ToolRisk;
  /** The effective capabilities, deduplicated, in the order of `TOOL_CAPABILITIES`. */
  readonly capabilities: readonly ToolCapability[];
  /**
   * Whether a call may change something outside the model's context: any risk above `read`, or
   * session writes, or delegation to another agent. Recovery treats an interrupted side-effect
   * call as `unknown`.
   */
  readonly sideEffect: boolean;
  /** Why the risk is what it is, in words, for hooks and UIs. */
  readonly reasons: readonly string[];
}

const SIDE_EFFECT_CAPABILITIES: ReadonlySet<ToolCapability> = new Set<ToolCapability>([
  'filesystem.write',
  'process.execute',
  'network',
  'credentials',
  'external.side-effect',
  'session.write',
  'agent.delegate',
]);

function readField(tool: unknown, field: string): { ok: true; value: unknown } | { ok: false } {
  if ((typeof tool !== 'object' && typeof tool !== 'function') || tool === null) return { ok: false };
  try {
    return { ok: true, value: (tool as Record<string, unknown>)[field] };
  } catch {
    return { ok: false };
  }
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

function readCapabilities(tool: unknown): { capabilities: ToolCapability[]; problem?: string } {
  const field = readField(tool, 'capabilities');
  if (!field.ok || field.value === undefined)
    return { capabilities: [...TOOL_CAPABILITIES], problem: 'no capabilities were declared' };
  const value = field.value;
  if (!Array.isArray(value))
    return { capabilities: [...TOOL_CAPABILITIES], problem: `capabilities is ${describe(value)}, not an array` };
  let items: unknown[];
  try {
    items = Array.from(value as unknown[]);
  } catch {
    return { capabilities: [...TOOL_CAPABILITIES], problem: 'capabilities could not be read' };
  }
  for (const item of items) {
    if (!isToolCapability(item)) {
      return { capabilities: [...TOOL_CAPABILITIES], problem: `capability ${describe(item)} is not known` };
    }
  }
  const declared = new Set(items as ToolCapability[]);
  return { capabilities: TOOL_CAPABILITIES.filter((capability) => declared.has(capability)) };
}

/**
 * Resolves a tool's effective risk and capabilities. Never throws, whatever it is given.
 *
 * - `filesystem.write` raises the risk to at least `workspace-write`; `process.execute`,
 *   `network`, `credentials` and `external.side-effect` raise it to `execute`.
 * - A declared risk can only raise the floor.
 * - Missing capabilities, a value that is not an array, a non-string or unknown element: the
 *   tool is treated as holding every capability, risk `execute`. An unknown declared risk is
 *   `execute`. Old tools and extensions cannot slip past approval by declaring less.
 */
export function resolveToolSecurity(tool: unknown): ResolvedToolSecurity {
  const reasons: string[] = [];
  const riskField = readField(tool, 'risk');
  let declared: ToolRisk;
  if (riskField.ok && isToolRisk(riskField.value)) {
    declared = riskField.value;
    reasons.push(`declared risk is '${declared}'`);
  } else {
    declared = 'execute';
    const shown = riskField.ok ? describe(riskField.value) : 'unreadable';
    reasons.push(`declared risk ${shown} is not one of read, workspace-write, execute: treated as 'execute'`);
  }

  const { capabilities, problem } = readCapabilities(tool);
  let risk = declared;
  if (problem) {
    reasons.push(`${problem}: treated as holding every capability, risk 'execute'`);
    risk = 'execute';
  } else {
    for (const capability of capabilities) {
      const floor = CAPABILITY_RISK_FLOORS[capability];
      if (riskRank(floor) > riskRank(risk)) {
        reasons.push(`capability '${capability}' raises the risk to at least '${floor}'`);
      }
      risk = maxRisk(risk, floor);
    }
  }

  const sideEffect = risk !== 'read' || capabilities.some((capability) => SIDE_EFFECT_CAPABILITIES.has(capability));
  return Object.freeze({
    risk,
    capabilities: Object.freeze(capabilities),
    sideEffect,
    reasons: Object.freeze(reasons),
  });
}
