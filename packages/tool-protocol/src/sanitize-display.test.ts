import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './redact-secrets.js';
import { sanitizeDisplay, stripControlSequences } from './sanitize-display.js';
import { DEFAULT_DISPLAY_LIMITS } from './tool-display.js';

describe('redactSecrets', () => {
  it.each([
    ['OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwx', 'sk-proj-abcdefghijklmnopqrstuvwx'],
    ['key sk-ant-api03-abcdefghijklmnopqrstuvwx', 'sk-ant-api03-abcdefghijklmnopqrstuvwx'],
    ['Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig', 'eyJhbGciOiJIUzI1NiJ9.payload.sig'],
    ['git clone https://alice:hunter2secret@example.invalid/repo.git', 'hunter2secret'],
    ['token ghp_0123456789abcdefghijABCDEFGHIJ', 'ghp_0123456789abcdefghijABCDEFGHIJ'],
    ['aws AKIAIOSFODNN7EXAMPLE', 'AKIAIOSFODNN7EXAMPLE'],
    ['password: "correct horse"', 'correct'],
    ['db_password=s3cr3t!', 's3cr3t!'],
    ['"client_secret": "abcd1234"', 'abcd1234'],
  ])('redacts %s', (text, secret) => {
    const redacted = redactSecrets(text);
    expect(redacted).not.toContain(secret);
    expect(redacted).toContain('[REDACTED');
  });

  it('redacts a private key block whole', () => {
    const block =
      '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\nAAAA\n-----END OPENSSH PRIVATE KEY-----';
    expect(redactSecrets(`before\n${block}\nafter`)).toBe('before\n[REDACTED PRIVATE KEY]\nafter');
  });

  it('leaves ordinary text alone', () => {
    const text = 'const total = items.reduce((sum, item) => sum + item.price, 0); // see https://example.invalid/docs';
    expect(redactSecrets(text)).toBe(text);
  });
});

describe('stripControlSequences', () => {
  it('removes ANSI colours, cursor movement, OSC 52 clipboard writes and OSC 8 links', () => {
    const hostile =
      '\u001b[31mred\u001b[0m \u001b[2J\u001b[H\u001b]52;c;ZXZpbA==\u0007\u001b]8;;https://evil.invalid\u001b\\link\u001b]8;;\u001b\\ bell\u0007';
    expect(stripControlSequences(hostile)).toBe('red link bell');
  });

  it('keeps tabs and newlines', () => {
    expect(stripControlSequences('a\tb\nc\r')).toBe('a\tb\nc');
  });
});

describe('sanitizeDisplay', () => {
  it('bounds every part and caps the number of fields', () => {
    const display = sanitizeDisplay({
      kind: 'command',
      title: 't'.repeat(1_000),
      body: 'b'.repeat(100_000),
      fields: Array.from({ length: 100 }, (_, index) => ({ label: 'l'.repeat(500), value: `${index}`.repeat(5_000) })),
    });
    expect(display.kind).toBe('command');
    expect(display.title.length).toBeLessThanOrEqual(DEFAULT_DISPLAY_LIMITS.title);
    expect(display.body!.length).toBeLessThanOrEqual(DEFAULT_DISPLAY_LIMITS.body);
    expect(display.fields).toHaveLength(DEFAULT_DISPLAY_LIMITS.fields);
    for (const field of display.fields!) {
      expect(field.label.length).toBeLessThanOrEqual(DEFAULT_DISPLAY_LIMITS.label);
      expect(field.value.length).toBeLessThanOrEqual(DEFAULT_DISPLAY_LIMITS.value);
    }
  });

  it('turns an unknown kind into text and keeps markup as literal text', () => {
    expect(sanitizeDisplay({ kind: 'html', title: '<script>alert(1)</script>' })).toEqual({
      kind: 'text',
      title: '<script>alert(1)</script>',
    });
  });

  it('redacts secrets in fields', () => {
    const display = sanitizeDisplay({
      kind: 'json',
      title: 'env',
      fields: [{ label: 'api_key', value: 'api_key=abcd1234efgh' }],
    });
    expect(display.fields![0]!.value).toBe('api_key=[REDACTED]');
  });

  it('never throws and always bounds, whatever it is given (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.anything(),
          fc.record({
            kind: fc.oneof(fc.constantFrom('text', 'diff', 'search'), fc.anything()),
            title: fc.oneof(fc.string({ maxLength: 3_000 }), fc.anything()),
            body: fc.oneof(fc.string({ unit: 'binary', maxLength: 40_000 }), fc.anything()),
            fields: fc.oneof(
              fc.array(fc.record({ label: fc.anything(), value: fc.string() }), { maxLength: 60 }),
              fc.anything(),
            ),
          }),
        ),
        (value) => {
          const display = sanitizeDisplay(value);
          expect(display.title.length).toBeLessThanOrEqual(DEFAULT_DISPLAY_LIMITS.title);
          expect((display.body ?? '').length).toBeLessThanOrEqual(DEFAULT_DISPLAY_LIMITS.body);
          expect((display.fields ?? []).length).toBeLessThanOrEqual(DEFAULT_DISPLAY_LIMITS.fields);
          // eslint-disable-next-line no-control-regex
          expect(`${display.title}${display.body ?? ''}`).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
        },
      ),
      { numRuns: 500 },
    );
  });
});
