// Pins the public surface. A red pin means a deliberate change with a changeset, never a looser test.
import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('@clawsmith/providers public surface', () => {
  it('exports exactly these values', () => {
    expect(Object.keys(api).sort()).toEqual([
      'LOCAL_SERVER_PLACEHOLDER_KEY',
      'ModelScriptError',
      'PROVIDER_ERROR_CODES',
      'ProviderError',
      'collectModelResponse',
      'createAnthropicProvider',
      'createOpenAIProvider',
      'createScriptedProvider',
      'isLocalBaseURL',
      'parseModelScript',
      'toAnthropicConversation',
      'toAnthropicTools',
      'toOpenAIMessages',
      'toOpenAITools',
      'validateModelScript',
    ]);
  });

  it('keeps these error codes', () => {
    expect(api.PROVIDER_ERROR_CODES).toEqual({
      rateLimited: 'provider_rate_limited',
      unavailable: 'provider_unavailable',
      authFailed: 'provider_auth_failed',
      badRequest: 'provider_bad_request',
      contextTooLong: 'provider_context_too_long',
      cancelled: 'provider_cancelled',
      protocolError: 'provider_protocol_error',
      missingApiKey: 'provider_missing_api_key',
      failed: 'provider_failed',
    });
  });

  it('marks exactly the rate limit and unavailability as retryable', () => {
    const retryable = Object.values(api.PROVIDER_ERROR_CODES).filter(
      (code) => new api.ProviderError('x', code, 'm').retryable,
    );
    expect(retryable).toEqual(['provider_rate_limited', 'provider_unavailable']);
  });

  it('makes its errors ClawsmithErrors that survive two installed copies', () => {
    const error = new api.ProviderError('openai', 'provider_auth_failed', 'no', { status: 401 });
    expect([error.name, error.code, error.status, error.provider]).toEqual([
      'ProviderError',
      'provider_auth_failed',
      401,
      'openai',
    ]);
    expect(api.ModelScriptError.isInstance(error)).toBe(true);
    expect(api.ModelScriptError.isInstance(new Error('plain'))).toBe(false);
  });
});
