import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { WebError } from '../http/web-error.js';
import { secretsMatch, type CookieSessions } from './access-token.js';
import type { AttemptThrottle } from './attempt-throttle.js';
import type { SignInCodes } from './sign-in-codes.js';

/** The name of the session cookie. */
export const SESSION_COOKIE = 'clawsmith_session';

/** What the guard checks requests against. */
export interface GuardState {
  /** The API token (`Authorization: Bearer`); never a sign-in code. */
  readonly token: string;
  /** The single-use codes of sign-in URLs; never an API token. */
  readonly signInCodes: SignInCodes;
  readonly sessions: CookieSessions;
  readonly throttle: AttemptThrottle;
  /** Accepted `Host` header values (`name:port`), lower case. */
  readonly allowedHosts: ReadonlySet<string>;
}

/** The accepted `Host` values for a server bound to `host:port` with extra names. */
export function allowedHostsFor(host: string, port: number, extraNames: readonly string[]): Set<string> {
  const names = new Set([host, 'localhost', '127.0.0.1', ...extraNames].map((name) => name.toLowerCase()));
  if (host === '::1' || host.includes(':')) names.add(`[${host}]`);
  return new Set([...names].filter((name) => !name.includes(':')).map((name) => `${name}:${port}`));
}

/** Whether a `Host` header names this server (the bound address, `localhost`, or a configured name, with the port). */
export function hostAllowed(host: string | undefined, allowedHosts: ReadonlySet<string>): boolean {
  return allowedHosts.has((host ?? '').toLowerCase());
}

/** Whether an `Origin` header is `http://` plus an accepted host (a page of this server). */
export function originAllowed(origin: string, allowedHosts: ReadonlySet<string>): boolean {
  const match = /^http:\/\/([^/]+)$/i.exec(origin);
  return match !== null && allowedHosts.has(match[1]!.toLowerCase());
}

/**
 * DNS rebinding: a page on an attacker's name that resolves to 127.0.0.1 sends its own name as
 * `Host`. Only the bound address, `localhost` and configured names are served.
 */
export function checkHost(c: Context, state: GuardState): void {
  if (!hostAllowed(c.req.header('host'), state.allowedHosts))
    throw new WebError(
      'host_not_allowed',
      'This server answers only requests addressed to its own address or localhost (DNS rebinding protection); open the URL clawsmith web printed, or start it with --allowed-host NAME.',
    );
}

/** The client's address, for the throttle. */
export function clientAddress(c: Context): string {
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress ?? 'unknown';
}

/** Refuses a throttled client before it may try a token. */
export function checkThrottle(c: Context, state: GuardState): void {
  const waitMs = state.throttle.retryAfterMs(clientAddress(c));
  if (waitMs > 0) {
    c.header('Retry-After', String(Math.ceil(waitMs / 1000)));
    throw new WebError(
      'too_many_attempts',
      `Too many wrong tokens from this address; try again in ${Math.ceil(waitMs / 1000)} s.`,
    );
  }
}

/** Whether `candidate` is the server's API token; a wrong one is counted against the client. */
export function verifyToken(c: Context, state: GuardState, candidate: string): boolean {
  if (secretsMatch(candidate, state.token)) return true;
  state.throttle.recordFailure(clientAddress(c));
  return false;
}

/** How a request proved it is the owner's. */
export type Authentication = 'cookie' | 'bearer';

/**
 * Every API request needs the session cookie or `Authorization: Bearer <token>`. A wrong bearer
 * token counts against the client's throttle; an unknown cookie does not (a page left open
 * across a server restart would otherwise lock its owner out), and it cannot be guessed.
 */
export function authenticate(c: Context, state: GuardState): Authentication {
  const authorization = c.req.header('authorization');
  if (authorization !== undefined) {
    checkThrottle(c, state);
    const match = /^Bearer ([^\s]+)$/.exec(authorization);
    if (match && verifyToken(c, state, match[1]!)) return 'bearer';
    throw new WebError(
      'unauthorized',
      'The bearer token is wrong; send the API token (CLAWSMITH_WEB_TOKEN of clawsmith web), not a sign-in code.',
    );
  }
  const cookie = getCookie(c, SESSION_COOKIE);
  if (cookie !== undefined && state.sessions.has(cookie)) return 'cookie';
  throw new WebError(
    'unauthorized',
    'Not signed in: open a sign-in URL of clawsmith web (press Enter in its terminal for a new one), or send Authorization: Bearer <API token>.',
  );
}

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * CSRF: a state-changing request must come from this server's own page. Browsers send `Origin`
 * with every such request; it must be `http://` plus an accepted host. A request without
 * `Origin` is accepted only with a bearer token (a program, not a browser with our cookie).
 */
export function checkOrigin(c: Context, state: GuardState, authentication: Authentication | 'login'): void {
  if (SAFE_METHODS.has(c.req.method)) return;
  const origin = c.req.header('origin');
  if (origin === undefined) {
    if (authentication === 'bearer') return;
    throw new WebError(
      'origin_not_allowed',
      'A state-changing request from a browser must carry an Origin header of this server.',
    );
  }
  if (!originAllowed(origin, state.allowedHosts))
    throw new WebError(
      'origin_not_allowed',
      `Requests from ${origin} are refused: only this server's own page may change state.`,
    );
}
