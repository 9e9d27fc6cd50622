// JSON over fetch, same origin, signed in by the HttpOnly cookie. Every failure becomes an
// ApiError with the server's stable code, so views can say what to do next.

/** A refused or failed request, with the server's `error.code` and any details (`conflicts`). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

async function answer<T>(response: Response): Promise<T> {
  const body = (await response.json().catch(() => undefined)) as
    { error?: { code?: string; message?: string } & Record<string, unknown> } | undefined;
  if (response.ok) return body as T;
  const error = body?.error;
  throw new ApiError(
    response.status,
    error?.code ?? 'http_error',
    error?.message ?? `The server answered ${response.status}.`,
    error ?? {},
  );
}

/** GET a JSON answer. */
export async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  return answer<T>(await fetch(path, { headers: { accept: 'application/json' }, ...(signal ? { signal } : {}) }));
}

/** POST (or PATCH) a JSON body and read the JSON answer. */
export async function sendJson<T>(path: string, body: unknown, method: 'POST' | 'PATCH' = 'POST'): Promise<T> {
  return answer<T>(
    await fetch(path, {
      method,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    }),
  );
}

/** `/api/sessions/<id>` + rest, with the id encoded. */
export function sessionPath(sessionId: string, rest = ''): string {
  return `/api/sessions/${encodeURIComponent(sessionId)}${rest}`;
}
