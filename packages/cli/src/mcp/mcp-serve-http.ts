import type { ServedWorkspace } from '@clawsmith/mcp';
import { CliError } from '../cli-errors.js';
import { tokenFromEnvironment } from '../fixed-token.js';
import { parsePort } from '../options/parse-port.js';

/** Options of {@link serveHttp}. */
export interface ServeHttpOptions {
  readonly workspace: ServedWorkspace;
  readonly port: string;
  readonly allowedHosts: readonly string[];
  readonly stop: AbortSignal;
}

/**
 * `clawsmith mcp serve --http`: Streamable HTTP on 127.0.0.1 behind the web server's token rules
 * (`createBearerGuard` of `@clawsmith/web`: Host, wrong-token throttle, bearer token, Origin).
 * Prints the URL and the token on stdout (not a token set in `CLAWSMITH_MCP_TOKEN`), runs until `stop` aborts.
 */
export async function serveHttp(options: ServeHttpOptions): Promise<void> {
  const fixedToken = tokenFromEnvironment('CLAWSMITH_MCP_TOKEN');
  const { createBearerGuard, WebError } = await import('@clawsmith/web');
  const { serveMcpOverHttp } = await import('@clawsmith/mcp');
  const host = '127.0.0.1';
  // The token rules need the port for the accepted Host values, and the port is known only once listening.
  const rules: { guard?: ReturnType<typeof createBearerGuard> } = {};
  const endpoint = await serveMcpOverHttp({
    workspace: options.workspace,
    host,
    port: parsePort(options.port),
    guard: (request) => {
      const guard = rules.guard;
      if (!guard) return { status: 503, code: 'starting', message: 'The server is starting; retry.' };
      try {
        guard.check({
          host: request.headers.host,
          origin: request.headers.origin,
          authorization: request.headers.authorization,
          remoteAddress: request.socket.remoteAddress ?? 'unknown',
        });
        return undefined;
      } catch (error) {
        if (!WebError.isInstance(error)) throw error;
        const web = error as InstanceType<typeof WebError>;
        return {
          status: web.status,
          code: web.code,
          message: web.message,
          ...(typeof web.details?.retryAfterSeconds === 'number'
            ? { retryAfterSeconds: web.details.retryAfterSeconds }
            : {}),
        };
      }
    },
  }).catch((error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES')
      throw new CliError(
        'web_listen_failed',
        `Cannot listen on ${host}:${options.port} (${code}); choose another --port.`,
      );
    throw error;
  });
  const guard = createBearerGuard({
    host,
    port: endpoint.port,
    allowedHosts: options.allowedHosts,
    ...(fixedToken ? { token: fixedToken } : {}),
    issuer: 'clawsmith mcp serve --http',
  });
  rules.guard = guard;
  process.stdout.write(
    `clawsmith mcp serve: ${options.workspace.workspaceRoot} at ${endpoint.url}\n` +
      // A token the person set is theirs already: it is not echoed into logs.
      `Authorization: Bearer ${fixedToken ? '<the token in CLAWSMITH_MCP_TOKEN>' : guard.token}\n` +
      'Ctrl-C stops the server.\n',
  );
  if (!options.stop.aborted)
    await new Promise((resolve) => options.stop.addEventListener('abort', resolve, { once: true }));
  process.stderr.write('clawsmith mcp serve: stopping\n');
  await endpoint.close();
}
