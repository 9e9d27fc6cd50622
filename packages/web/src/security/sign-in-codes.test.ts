import { describe, expect, it } from 'vitest';
import { SignInCodes } from './sign-in-codes.js';

describe(SignInCodes, () => {
  it('accepts a code once, then says it was used; an unknown code is unknown', () => {
    const codes = new SignInCodes();
    const code = codes.create();
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(codes.spend(code)).toBe('accepted');
    expect(codes.spend(code)).toBe('used');
    expect(codes.spend(`${code}x`)).toBe('unknown');
  });

  it('expires an unused code at its time to live, and a used one stays used', () => {
    let now = 1_000;
    const codes = new SignInCodes({ ttlMs: 100, now: () => now });
    const early = codes.create();
    const used = codes.create();
    expect(codes.spend(used)).toBe('accepted');
    now += 99;
    const late = codes.create();
    now += 1;
    expect(codes.spend(early)).toBe('expired');
    expect(codes.spend(used)).toBe('used');
    expect(codes.spend(late)).toBe('accepted');
  });

  it('bounds the live codes (the oldest expires) and what it remembers (the oldest becomes unknown)', () => {
    const codes = new SignInCodes({ maxLive: 2, maxRemembered: 2 });
    const [first, second, third] = [codes.create(), codes.create(), codes.create()];
    expect(codes.spend(first)).toBe('expired');
    expect(codes.spend(second)).toBe('accepted');
    expect(codes.spend(third)).toBe('accepted');
    expect(codes.spend(first)).toBe('unknown');
  });

  it('refuses a time to live that is not a positive whole number', () => {
    for (const ttlMs of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])
      expect(() => new SignInCodes({ ttlMs })).toThrow(/positive whole number/);
  });
});
