import { describe, expect, it } from 'vitest';
import { createBearerGuard, type BearerGuardRequest } from './bearer-guard.js';

const guard = () =>
  createBearerGuard({ host: '127.0.0.1', port: 4100, token: 'secret-token', maxWrongTokensPerMinute: 3 });
const request = (overrides: Partial<BearerGuardRequest> = {}): BearerGuardRequest => ({
  host: '127.0.0.1:4100',
  origin: undefined,
  authorization: 'Bearer secret-token',
  remoteAddress: '127.0.0.1',
  ...overrides,
});
const codeOf = (run: () => void) => {
  try {
    run();
    return 'passed';
  } catch (error) {
    return (error as { code: string }).code;
  }
};

describe(createBearerGuard, () => {
  it('passes the right token to this host, with or without an own Origin', () => {
    const checked = guard();
    expect(codeOf(() => checked.check(request()))).toBe('passed');
    expect(codeOf(() => checked.check(request({ host: 'localhost:4100' })))).toBe('passed');
    expect(codeOf(() => checked.check(request({ origin: 'http://127.0.0.1:4100' })))).toBe('passed');
  });

  it('refuses a foreign Host, a missing or wrong token, and a foreign Origin', () => {
    const checked = guard();
    expect(codeOf(() => checked.check(request({ host: 'evil.example:4100' })))).toBe('host_not_allowed');
    expect(codeOf(() => checked.check(request({ authorization: undefined })))).toBe('unauthorized');
    expect(codeOf(() => checked.check(request({ authorization: 'Bearer nope' })))).toBe('unauthorized');
    expect(codeOf(() => checked.check(request({ origin: 'http://evil.example' })))).toBe('origin_not_allowed');
  });

  it('makes a client that guessed wrong too often wait, even with the right token', () => {
    const checked = guard();
    for (let attempt = 0; attempt < 3; attempt += 1)
      expect(codeOf(() => checked.check(request({ authorization: 'Bearer wrong' })))).toBe('unauthorized');
    expect(codeOf(() => checked.check(request()))).toBe('too_many_attempts');
    expect(codeOf(() => checked.check(request({ remoteAddress: '127.0.0.2' })))).toBe('passed');
  });
});
