// Helpers both adapter test files use: a one-user-message request and a thrown ProviderError.
import { expect } from 'vitest';
import type { ModelRequest } from '../model-stream.js';
import { ProviderError } from '../provider-error.js';
import { readFileSchema } from './tool-schemas.js';

/** A request with one user message and the read_file schema, with `overrides` applied. */
export function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return { requestId: 'req-1', messages: [{ role: 'user', text: 'Hello' }], tools: [readFileSchema], ...overrides };
}

/** The ProviderError `promise` rejects with; fails the test if it resolves or rejects with anything else. */
export async function caught(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}
