import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The path the authorization server sends the browser back to. */
export const REDIRECT_PATH = '/callback';

/** A loopback listener waiting for one authorization response. */
export interface RedirectListener {
  /** `http://127.0.0.1:<port>/callback`. */
  readonly redirectUrl: string;
  /**
   * Resolves with the authorization code of the first response whose `state` is the expected
   * one (a response that came before this call is kept); rejects when the authorization server
   * answered with an error, or on `signal`.
   */
  waitForCode(signal: AbortSignal): Promise<string>;
  close(): Promise<void>;
}

function page(title: string, text: string): string {
  const escape = (value: string) => value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
  return `<!doctype html><meta charset="utf-8"><title>${escape(title)}</title><p>${escape(text)}</p>\n`;
}

/**
 * Listens on 127.0.0.1 (an ephemeral port: authorization servers accept any port for a loopback
 * redirect, RFC 8252 §7.3). Only the redirect path answers; a response with another `state` is
 * refused and the wait goes on. The page never shows a code or a token.
 */
export async function openRedirectListener(
  serverName: string,
  expectedState: () => string | undefined,
): Promise<RedirectListener> {
  let deliver: ((outcome: { code: string } | { error: string }) => void) | undefined;
  const outcome = new Promise<{ code: string } | { error: string }>((resolve) => {
    deliver = (value) => {
      deliver = undefined;
      resolve(value);
    };
  });
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const send = (status: number, title: string, text: string) => {
      response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      response.end(page(title, text));
    };
    if (request.method !== 'GET' || url.pathname !== REDIRECT_PATH) {
      send(404, 'Not found', 'Nothing here.');
      return;
    }
    const state = url.searchParams.get('state');
    const expected = expectedState();
    if (!deliver || state === null || expected === undefined || state !== expected) {
      send(400, 'Sign-in not recognised', 'This answer does not belong to the sign-in clawsmith is waiting for.');
      return;
    }
    const error = url.searchParams.get('error');
    const code = url.searchParams.get('code');
    if (error !== null || code === null) {
      const description = url.searchParams.get('error_description');
      const reason = `${error ?? 'no code'}${description ? `: ${description}` : ''}`.slice(0, 300);
      send(400, 'Sign-in failed', `The sign-in to ${serverName} failed (${reason}). Return to the terminal.`);
      deliver({ error: reason });
      return;
    }
    send(200, 'Signed in', `Signed in to ${serverName}. You can close this tab and return to the terminal.`);
    deliver({ code });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    redirectUrl: `http://127.0.0.1:${port}${REDIRECT_PATH}`,
    waitForCode(signal) {
      return new Promise<string>((resolve, reject) => {
        const onAbort = () => reject(signal.reason ?? new Error('The sign-in was cancelled.'));
        if (signal.aborted) return onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
        void outcome.then((answer) => {
          signal.removeEventListener('abort', onAbort);
          if ('code' in answer) resolve(answer.code);
          else reject(new Error(`The authorization server refused the sign-in (${answer.error}).`));
        });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
