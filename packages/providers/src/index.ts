// Everything exported here is the public API of @clawsmith/providers; the surface is pinned by
// public-surface.test.ts. A change to this list is a deliberate change with a changeset.

export type {
  AssistantModelMessage,
  ModelMessage,
  ModelToolCall,
  SystemModelMessage,
  ToolModelMessage,
  UserModelMessage,
} from './model-message.js';

export type {
  ModelFinishEvent,
  ModelFinishReason,
  ModelRequest,
  ModelResponse,
  ModelStreamEvent,
  ModelTextDeltaEvent,
  ModelToolCallEvent,
  ModelUsage,
  ModelUsageEvent,
  Provider,
} from './model-stream.js';
export type { CollectModelResponseOptions } from './collect-model-response.js';
export { collectModelResponse } from './collect-model-response.js';

export type { ProviderErrorCode, ProviderErrorOptions } from './provider-error.js';
export { PROVIDER_ERROR_CODES, ProviderError } from './provider-error.js';

export type { ModelScript, ModelScriptLocation, ScriptedResponse, ScriptedToolCall } from './model-script.js';
export { ModelScriptError, parseModelScript, validateModelScript } from './model-script.js';
export type { ScriptedProvider, ScriptedProviderOptions } from './scripted-provider.js';
export { createScriptedProvider } from './scripted-provider.js';

export type { ProviderEnvironment } from './api-key.js';
export { LOCAL_SERVER_PLACEHOLDER_KEY, isLocalBaseURL } from './api-key.js';

export type { OpenAIProviderOptions } from './openai-provider.js';
export { createOpenAIProvider } from './openai-provider.js';
export { toOpenAIMessages, toOpenAITools } from './openai-messages.js';

export type { AnthropicProviderOptions } from './anthropic-provider.js';
export { createAnthropicProvider } from './anthropic-provider.js';
export type { AnthropicConversation } from './anthropic-messages.js';
export { toAnthropicConversation, toAnthropicTools } from './anthropic-messages.js';
