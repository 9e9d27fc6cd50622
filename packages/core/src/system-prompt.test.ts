import { createHash } from 'node:crypto';
import { createScriptedProvider, type ModelRequest, type Provider } from '@clawsmith/providers';
import { describe, expect, it } from 'vitest';
import { createHarness } from './__fixtures__/core-harness.js';
import { createAgentCore } from './agent-core.js';

function recordingProvider(texts: string[]): { provider: Provider; systems: (string | undefined)[] } {
  const scripted = createScriptedProvider({ script: { responses: texts.map((text) => ({ text })) } });
  const systems: (string | undefined)[] = [];
  return {
    systems,
    provider: {
      name: 'recording',
      model: 'recording',
      stream(request: ModelRequest) {
        systems.push(request.system);
        return scripted.stream(request);
      },
    },
  };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('the system prompt', () => {
  it("is sent with every request, a turn's own replacing the core's, and its hash is in the request evidence", async () => {
    const harness = await createHarness({ responses: [] });
    const { provider, systems } = recordingProvider(['one', 'two']);
    const core = createAgentCore({
      db: harness.home.db,
      checkpoints: harness.home.checkpoints,
      provider,
      builtinTools: [],
      systemPrompt: 'You are a careful agent.',
    });
    await core.runTurn({ sessionId: harness.session.id, prompt: 'a' });
    await core.runTurn({ sessionId: harness.session.id, prompt: 'b', systemPrompt: 'Work in /w. Be brief.' });
    expect(systems).toEqual(['You are a careful agent.', 'Work in /w. Be brief.']);
    const started = await harness.eventsOf('request.started');
    expect(started.map((event) => event.systemPromptSha256)).toEqual([
      sha256('You are a careful agent.'),
      sha256('Work in /w. Be brief.'),
    ]);
    expect(started[0]?.systemPromptBytes).toBe(24);
  });

  it('is absent from the request and the evidence when none is given', async () => {
    const harness = await createHarness({ responses: [{ text: 'ok' }] });
    await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'a' });
    const [started] = await harness.eventsOf('request.started');
    expect(started).not.toHaveProperty('systemPromptSha256');
  });
});
