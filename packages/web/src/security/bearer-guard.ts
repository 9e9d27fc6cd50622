import { WebError } from '../http/web-error.js';
import { createSecret, secretsMatch } from './access-token.js';
import { AttemptThrottle } from './attempt-throttle.js';
import { allowedHostsFor, hostAllowed, originAllowed } from './request-guard.js';

/** The parts of an HTTP request the guard judges. */
export interface BearerGuardRequest {
  readonly host: string | undefined;
  readonly origin: string | undefined;
  readonly authorization: string | undefined;
  /** The client's address, for the wrong-token throttle. */
  readonly remoteAddress: string;
}

/** Options of {@link createBearerGuard}. */
export interface BearerGuardOptions {
  /** The bound address and port (the accepted `Host` values derive from them). */
  readonly host: string;
  readonly port: number;
  /** More names the `Host` header may carry. */
  readonly allowedHosts?: readonly string[];
  /** The token; default a fresh random one (32 bytes). */
  readonly token?: string;
  /** Wrong tokens per client per minute before it must wait; default 10. */
  readonly maxWrongTokensPerMinute?: number;
  /** Who printed the token, for the messages (`clawsmith web`, `clawsmith mcp serve --http`). */
  readonly issuer?: string;
}

/** The web server's token rules for a program's HTTP endpoint (no cookies, no page). */
export interface BearerGuard {
  /** The token to present as `Authorization: Bearer <token>`. */
  readonly token: string;
  /** Throws a {@link WebError} (`host_not_allowed`, `too_many_attempts`, `unauthorized`, `origin_not_allowed`) or returns. */
  check(request: BearerGuardRequest): void;
}

/**
 * The same rules as the web API, for an endpoint only programs call (an MCP client): the `Host`
 * header must name this server (DNS rebinding), a client past its wrong-token budget waits, the
 * bearer token must match in constant time (a wrong one counts), and an `Origin`, when a browser
 * sends one, must be this server's own. There is no cookie: a browser page cannot ride along.
 */
export function createBearerGuard(options: BearerGuardOptions): BearerGuard {
  const token = options.token ?? createSecret();
  const allowedHosts = allowedHostsFor(options.host, options.port, options.allowedHosts ?? []);
  const throttle = new AttemptThrottle({ limit: options.maxWrongTokensPerMinute ?? 10 });
  const issuer = options.issuer ?? 'the server';
  return {
    token,
    check(request) {
      if (!hostAllowed(request.host, allowedHosts))
        throw new WebError(
          'host_not_allowed',
          `This server answers only requests addressed to its own address or localhost (DNS rebinding protection); use the URL ${issuer} printed.`,
        );
      const waitMs = throttle.retryAfterMs(request.remoteAddress);
      if (waitMs > 0)
        throw new WebError(
          'too_many_attempts',
          `Too many wrong tokens from this address; try again in ${Math.ceil(waitMs / 1000)} s.`,
          { retryAfterSeconds: Math.ceil(waitMs / 1000) },
        );
      const match = /^Bearer ([^\s]+)$/.exec(request.authorization ?? '');
      if (!match || !secretsMatch(match[1]!, token)) {
        if (request.authorization !== undefined) throttle.recordFailure(request.remoteAddress);
        throw new WebError('unauthorized', `Send Authorization: Bearer <token>, with the token ${issuer} printed.`);
      }
      if (request.origin !== undefined && !originAllowed(request.origin, allowedHosts))
        throw new WebError('origin_not_allowed', `Requests from ${request.origin} are refused.`);
    },
  };
}
