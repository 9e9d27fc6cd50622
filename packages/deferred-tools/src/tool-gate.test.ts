import { describe, expect, it } from 'vitest';
import { deferredTool, tool } from './__fixtures__/tools.js';
import { createDeferredToolCatalog } from './deferred-tool-catalog.js';
import { SessionActivation } from './session-activation.js';
import { checkToolCall } from './tool-gate.js';

describe('checkToolCall', () => {
  it('tells an unknown name to search only when the catalog holds deferred tools', () => {
    const withDeferred = createDeferredToolCatalog([tool('read_file'), deferredTool('db_apply')]);
    const withoutDeferred = createDeferredToolCatalog([tool('read_file')]);
    const activation = new SessionActivation();
    expect(checkToolCall(withDeferred, 'made_up', activation)?.content).toBe(
      'No tool named "made_up" exists, so nothing ran. Use only the tools you were given; to find a tool by what it does, call search_tools with a few words.',
    );
    expect(checkToolCall(withoutDeferred, 'made_up', activation)?.content).toBe(
      'No tool named "made_up" exists, so nothing ran. Use only the tools you were given.',
    );
    expect(checkToolCall(withoutDeferred, 'made_up', activation)).toMatchObject({
      code: 'unknown_tool',
      retryable: false,
    });
  });
});
