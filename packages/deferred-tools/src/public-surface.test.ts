import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('@clawsmith/deferred-tools public surface', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(api).sort()).toEqual([
      'DEFAULT_SEARCH_TEXT_LIMITS',
      'DEFERRED_TOOLS_ERROR_CODES',
      'InvalidActivationStateError',
      'InvalidToolCatalogError',
      'InvalidToolNameError',
      'MAX_DEFERRED_DESCRIPTION_LENGTH',
      'MAX_TOOL_NAME_LENGTH',
      'PREFIX_MATCH_FACTOR',
      'SEARCH_FIELDS',
      'SEARCH_FIELD_WEIGHTS',
      'SEARCH_TOOLS_NAME',
      'SessionActivation',
      'checkToolCall',
      'composeRequestTools',
      'createDeferredToolCatalog',
      'createSearchToolsTool',
      'gateResult',
      'inactiveToolResult',
      'unknownToolResult',
    ]);
  });

  it('pins the error codes, field order and weights', () => {
    expect(api.DEFERRED_TOOLS_ERROR_CODES).toEqual({
      invalidToolCatalog: 'invalid_tool_catalog',
      invalidActivationState: 'invalid_activation_state',
      invalidToolName: 'invalid_tool_name',
    });
    expect(api.SEARCH_FIELDS).toEqual(['name', 'aliases', 'tags', 'searchHint', 'description']);
    expect(api.SEARCH_FIELD_WEIGHTS).toEqual({ name: 16, aliases: 8, tags: 4, searchHint: 2, description: 1 });
    expect(api.PREFIX_MATCH_FACTOR).toBe(0.75);
    expect(api.SEARCH_TOOLS_NAME).toBe('search_tools');
  });

  it('keeps each field weight strictly above what a prefix match in the next weaker field can reach', () => {
    const weights = api.SEARCH_FIELDS.map((field) => api.SEARCH_FIELD_WEIGHTS[field]);
    for (let index = 1; index < weights.length; index += 1) {
      expect(weights[index - 1]! * api.PREFIX_MATCH_FACTOR).toBeGreaterThan(weights[index]!);
    }
  });

  it('opens its README with the contract, not a placeholder', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    expect(readme).not.toMatch(/not built yet/i);
    for (const code of [
      'inactive_tool',
      'unknown_tool',
      'invalid_tool_catalog',
      'invalid_activation_state',
      'invalid_tool_name',
    ])
      expect(readme).toContain(code);
  });
});
