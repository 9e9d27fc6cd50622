import { collectModelResponse, createScriptedProvider, type Provider } from '@clawsmith/providers';

// A scripted model replays its responses whatever the request says: demos, tests and CI.
// For a real model: createOpenAIProvider({ model, baseURL, apiKey }) or createAnthropicProvider({ model, apiKey }).
const provider: Provider = createScriptedProvider({
  script: {
    responses: [
      { text: 'Let me look.', toolCalls: [{ id: 'call_1', name: 'read_file', arguments: { path: 'README.md' } }] },
      { text: 'Hi!' },
    ],
  },
});
const first = await collectModelResponse(
  provider.stream({ requestId: 'r1', messages: [{ role: 'user', text: 'Say hi' }], tools: [] }),
);
console.log(
  first.finishReason,
  first.text,
  first.toolCalls.map((call) => call.name),
); // tool-calls Let me look. [ 'read_file' ]
const second = await collectModelResponse(
  provider.stream({ requestId: 'r2', messages: [{ role: 'user', text: 'Say hi' }], tools: [] }),
);
console.log(second.finishReason, second.text); // stop Hi!
