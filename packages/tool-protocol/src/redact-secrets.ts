/** The text that replaces a secret. */
export const REDACTED = '[REDACTED]';

// Every pattern is linear: bounded quantifiers or character classes with no nested repetition,
// so a hostile multi-megabyte string cannot make redaction slow.
const SECRET_PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  [
    /-----BEGIN ([A-Z0-9 ]{0,40})PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]{0,40}PRIVATE KEY-----|$)/g,
    `[REDACTED PRIVATE KEY]`,
  ],
  [/\b(Bearer|Basic|Token)([ \t]+)[A-Za-z0-9._~+/=-]{8,}/gi, `$1$2${REDACTED}`],
  [/\b([a-z][a-z0-9+.-]{0,20}:\/\/[^\s/:@]{1,200}:)[^\s/@]{1,200}@/gi, `$1${REDACTED}@`],
  [/\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}/g, REDACTED],
  [/\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}/g, REDACTED],
  [/\bgithub_pat_[A-Za-z0-9_]{20,}/g, REDACTED],
  [/\bglpat-[A-Za-z0-9_-]{20,}/g, REDACTED],
  [/\bxox[abposr]-[A-Za-z0-9-]{10,}/g, REDACTED],
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, REDACTED],
  [/\bAIza[0-9A-Za-z_-]{35}/g, REDACTED],
  [/\bnpm_[A-Za-z0-9]{36}\b/g, REDACTED],
  [/\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g, REDACTED],
  [
    /\b([A-Za-z0-9_.-]{0,40}(?:api[_-]?key|apikey|secret|token|password|passwd|pwd|access[_-]?key|private[_-]?key|client[_-]?secret|auth)[A-Za-z0-9_.-]{0,40}["']?[ \t]{0,4}[:=][ \t]{0,4}["']?)[^\s"',;]{3,}/gi,
    `$1${REDACTED}`,
  ],
];

/**
 * Replaces secrets in `text` with `[REDACTED]`: private key blocks, bearer and basic tokens,
 * passwords in URLs, well-known API key formats (OpenAI, Anthropic, GitHub, GitLab, Slack, AWS,
 * Google, npm, JWTs) and values assigned to names such as `password`, `token`, `api_key` or
 * `secret`. It errs on the side of redacting.
 */
export function redactSecrets(text: string): string {
  let result = text;
  for (const [pattern, replacement] of SECRET_PATTERNS) result = result.replace(pattern, replacement);
  return result;
}
