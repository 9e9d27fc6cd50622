import { ApiError, sendJson } from './api-client';

function signInCode(): string | null {
  return new URLSearchParams(location.hash.slice(1)).get('token');
}

/** Whether the URL fragment carries a sign-in code (`#token=…`) still to be traded. */
export function hasSignInCode(): boolean {
  return signInCode() !== null;
}

/**
 * Trades the single-use sign-in code in the URL fragment (`#token=…`, never sent to a server)
 * for the session cookie, and removes it from the address bar and history. Resolves to
 * undefined when signed in or when there was no code to trade; otherwise to why it was refused
 * (a used or expired URL, a wrong code), with what to do next.
 */
export async function signInFromFragment(): Promise<ApiError | undefined> {
  const code = signInCode();
  if (code === null) return undefined;
  history.replaceState(null, '', `${location.pathname}#/`);
  try {
    await sendJson('/api/login', { token: code });
    return undefined;
  } catch (error) {
    return error instanceof ApiError ? error : new ApiError(0, 'network_error', String(error));
  }
}
