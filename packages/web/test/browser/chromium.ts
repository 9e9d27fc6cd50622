// The Chromium the browser tests drive: Debian's (installed by .ci/run), never a downloaded one,
// one per test run (chromium-server.ts) that each browser test file connects to.

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's Chromium: its WebSocket endpoint, or why there is none. */
    chromium: { readonly endpoint: string } | { readonly missing: string };
  }
}

/** Debian's chromium; CHROMIUM_PATH overrides. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Launch flags: no sandbox inside the test machine's container, no traffic but to the server under test. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // Nothing but the server under test resolves: a stray request cannot leave the machine.
  '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
];
