import { onTestFinished } from 'vitest';

function isLoopback(hostname: string): boolean {
  return hostname.startsWith('127.') || hostname === '[::1]' || hostname === 'localhost';
}

/**
 * For the rest of the test, `fetch` to anything but 127.0.0.0/8 is refused before a packet leaves
 * (a framework that downloads something on its own, such as a tokenizer's ranks, fails instead of
 * reaching out), and the refused addresses are listed so the test can require there were none.
 * Clients that capture `fetch` when they are built must be built after this call.
 */
export function refuseNonLoopbackFetch(): { readonly refused: readonly string[] } {
  const original = globalThis.fetch;
  const refused: string[] = [];
  globalThis.fetch = (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (isLoopback(url.hostname)) return original(input, init);
    refused.push(url.href);
    return Promise.reject(new TypeError(`refused ${url.href}: tests talk to 127.0.0.0/8 only`));
  };
  onTestFinished(() => {
    globalThis.fetch = original;
  });
  return { refused };
}
