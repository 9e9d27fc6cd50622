import { headAndTail, redactSecrets } from '@clawsmith/tool-protocol';

/** The most characters one content attribute keeps (head and tail beyond it). */
export const CONTENT_ATTRIBUTE_LIMIT = 16_384;

/** Text as a content attribute holds it: secrets redacted first, then bounded. */
export function capturedText(text: string): string {
  return headAndTail(redactSecrets(text), CONTENT_ATTRIBUTE_LIMIT);
}

/** A message list in the GenAI conventions' JSON shape, with one redacted text part. */
export function capturedMessages(role: 'user' | 'assistant', text: string, finishReason?: string): string {
  return JSON.stringify([
    {
      role,
      parts: [{ type: 'text', content: capturedText(text) }],
      ...(finishReason ? { finish_reason: finishReason } : {}),
    },
  ]);
}
