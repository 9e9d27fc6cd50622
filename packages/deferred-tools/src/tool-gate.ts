import { TOOL_RESULT_CODES, toolError, type ToolExecutionResult } from '@clawsmith/tool-protocol';
import { SEARCH_TOOLS_NAME, type DeferredToolCatalog, type ToolGate } from './deferred-tool-catalog.js';
import type { SessionActivation } from './session-activation.js';
import { quoteName } from './tool-name.js';

/**
 * The result for a call to a deferred tool that this session has not activated: status `error`,
 * code `inactive_tool`, retryable (search, then call again).
 */
export function inactiveToolResult(name: string): ToolExecutionResult {
  return toolError(
    TOOL_RESULT_CODES.inactiveTool,
    `The tool ${quoteName(name)} exists but is deferred and not active in this session, so it did not run. ` +
      `Call ${SEARCH_TOOLS_NAME} first (query "select:${typeof name === 'string' ? name.slice(0, 80) : ''}" activates it by name); ` +
      'its schema arrives with your next request, then call it again.',
    { retryable: true },
  );
}

/**
 * The result for a call to a name no tool has: status `error`, code `unknown_tool`, not retryable.
 * `searchable: false` (no tool is deferred, so there is no `search_tools`) leaves out the advice
 * to search.
 */
export function unknownToolResult(name: string, options: { searchable?: boolean } = {}): ToolExecutionResult {
  const next =
    options.searchable === false
      ? 'Use only the tools you were given.'
      : `Use only the tools you were given; to find a tool by what it does, call ${SEARCH_TOOLS_NAME} with a few words.`;
  return toolError(TOOL_RESULT_CODES.unknownTool, `No tool named ${quoteName(name)} exists, so nothing ran. ${next}`);
}

/**
 * The refusal for a gate that is not `available`, or `undefined` when the call may proceed.
 * `gate` is what {@link DeferredToolCatalog.gate} returned for `name`.
 */
export function gateResult(
  name: string,
  gate: ToolGate,
  options: { searchable?: boolean } = {},
): ToolExecutionResult | undefined {
  if (gate === 'available') return undefined;
  if (gate === 'inactive') return inactiveToolResult(name);
  return unknownToolResult(name, options);
}

/**
 * {@link DeferredToolCatalog.gate} and {@link gateResult} in one step, as core's call path uses
 * them. An unknown name is told to search only when the catalog holds deferred tools (otherwise
 * there is no `search_tools` to call).
 */
export function checkToolCall(
  catalog: Pick<DeferredToolCatalog, 'gate' | 'deferredTools'>,
  name: string,
  activation: Pick<SessionActivation, 'isActive'>,
): ToolExecutionResult | undefined {
  return gateResult(name, catalog.gate(name, activation), { searchable: catalog.deferredTools.length > 0 });
}
