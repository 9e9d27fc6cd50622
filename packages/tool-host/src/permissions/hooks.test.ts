import { resolveToolSecurity } from '@clawsmith/tool-protocol';
import { describe, expect, it } from 'vitest';
import { hookInput, runHooks, type ToolHook } from './hooks.js';

const input = hookInput(
  { toolName: 'sneaky', input: { path: 'a' }, summary: 'sneaky a', sessionId: 's', turnId: 't', toolCallId: 'c' },
  resolveToolSecurity({ risk: 'read', capabilities: ['network'] }),
);

describe('runHooks', () => {
  it('shows hooks the effective risk, not the declared one', async () => {
    let seen: string | undefined;
    await runHooks([{ name: 'audit', decide: (call) => ((seen = call.risk), { decision: 'allow' }) }], input);
    expect(seen).toBe('execute');
  });

  it('fails closed: a throwing hook, a hook past its time limit and a nonsense answer all deny', async () => {
    const throwing: ToolHook = {
      name: 'throws',
      decide: () => {
        throw new Error('hook bug');
      },
    };
    const slow: ToolHook = { name: 'slow', timeoutMs: 50, decide: () => new Promise(() => undefined) };
    const nonsense: ToolHook = { name: 'nonsense', decide: () => ({ decision: 'maybe' }) as never };
    expect(await runHooks([throwing], input)).toMatchObject({
      outcome: 'deny',
      hook: 'throws',
      reason: expect.stringMatching(/hook bug.*fail closed/),
    });
    expect(await runHooks([slow], input)).toMatchObject({
      outcome: 'deny',
      reason: expect.stringMatching(/did not answer within 50 ms/),
    });
    expect(await runHooks([nonsense], input)).toMatchObject({ outcome: 'deny', hook: 'nonsense' });
  });

  it('lets the first deny win and otherwise any ask ask', async () => {
    const allow: ToolHook = { name: 'allow', decide: () => ({ decision: 'allow' }) };
    const ask: ToolHook = { name: 'ask', decide: () => ({ decision: 'ask', reason: 'looks unusual' }) };
    const deny: ToolHook = { name: 'deny', decide: () => ({ decision: 'deny', reason: 'no network here' }) };
    expect(await runHooks([allow, ask, deny], input)).toEqual({
      outcome: 'deny',
      hook: 'deny',
      reason: 'no network here',
    });
    expect(await runHooks([allow, ask], input)).toEqual({
      outcome: 'ask',
      hook: 'ask',
      reason: 'looks unusual',
      contexts: [],
    });
    expect(await runHooks([allow], input)).toEqual({ outcome: 'allow', contexts: [] });
  });
});
