/**
 * How much harm a tool call can do, in increasing order: `read` observes, `workspace-write`
 * changes files inside the workspace, `execute` runs processes, reaches the network, touches
 * credentials or causes effects outside the workspace.
 */
export type ToolRisk = 'read' | 'workspace-write' | 'execute';

/** Every {@link ToolRisk}, lowest first. The order is the contract. */
export const TOOL_RISKS: readonly ToolRisk[] = Object.freeze(['read', 'workspace-write', 'execute'] as const);

/** Whether `value` is one of the three {@link ToolRisk} strings. */
export function isToolRisk(value: unknown): value is ToolRisk {
  return typeof value === 'string' && (TOOL_RISKS as readonly string[]).includes(value);
}

/** The position of `risk` in {@link TOOL_RISKS}: 0 for `read`, 2 for `execute`. */
export function riskRank(risk: ToolRisk): number {
  return TOOL_RISKS.indexOf(risk);
}

/** The higher of two risks. */
export function maxRisk(left: ToolRisk, right: ToolRisk): ToolRisk {
  return riskRank(left) >= riskRank(right) ? left : right;
}
